// The benchmark's arithmetic and its table, from hand-made results: medians, each target marked met
// or missed from the numbers, and the section of docs/speed.md replaced between its markers only.
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, percentile, ratio } from './stats.ts';
import { SECTION_END, SECTION_START, renderMarkdown, SPEED_DOC, targetsOf, writeDocSection, type BenchResults } from './render.ts';

const phases = (totalMs: number, requests: number) => ({
  totalMs,
  toBeginMs: 1500,
  toFirstTestMs: 700,
  testsMs: totalMs - 2200,
  requests,
  tests: 110,
});
const results = (
  overrides: { suiteMs?: number; largeMs?: number; prismRps?: number; faultyMs?: number; faultyRequests?: number } = {},
): BenchResults => {
  const suiteMs = overrides.suiteMs ?? 8000;
  return {
    startedAt: '2026-11-21T10:00:00.000Z',
    machine: { cpu: 'a test CPU', cores: 2, memoryGiB: 24, node: 'v20.20.2', os: 'linux' },
    runs: 3,
    verdict: { ...phases(suiteMs, 950), requestsPerSecond: 160, referenceStartMs: 300, runnerStartMs: 1200 },
    floor: { trivialPlaywrightMs: 1200, referenceStartMs: 300, autocannonMs: 500, totalMs: 2000, ratio: suiteMs / 2000 },
    shape: { playwrightMs: 4700, totalMs: 5000, ratio: suiteMs / 5000, floorRatio: 2.5 },
    scale: {
      smallCalls: 1000,
      largeCalls: 200000,
      small: phases(suiteMs, 950),
      large: phases((overrides.largeMs ?? 9000) + 2000, 980),
      embeddedTimeRatio: ((overrides.largeMs ?? 9000) + 2000) / suiteMs,
      suiteAlone: { small: phases(suiteMs, 950), large: phases(overrides.largeMs ?? 9000, 980) },
      timeRatio: (overrides.largeMs ?? 9000) / suiteMs,
      requestsRatio: 980 / 950,
    },
    failing: {
      clean: phases(10_000, 950),
      faults: [
        { fault: 'fault-a', ...phases(11_000, 960), timeRatio: 1.1, requestsRatio: 960 / 950 },
        {
          fault: 'fault-b',
          ...phases(overrides.faultyMs ?? 12_000, overrides.faultyRequests ?? 970),
          timeRatio: (overrides.faultyMs ?? 12_000) / 10_000,
          requestsRatio: (overrides.faultyRequests ?? 970) / 950,
        },
      ],
    },
    peers: [
      {
        operation: 'Get Call',
        reference: { requestsPerSecond: 20000, latencyP50Ms: 0, latencyP99Ms: 1, errors: 0 },
        prism: { requestsPerSecond: overrides.prismRps ?? 3000, latencyP50Ms: 2, latencyP99Ms: 7, errors: 0 },
      },
    ],
  };
};

test('medians, percentiles and ratios', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 2, 3])).toBe(2.5);
  expect(median([])).toBeNaN();
  expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
  expect(ratio(3, 2)).toBe(1.5);
  expect(ratio(1, 0)).toBeNaN();
});

test('each target is met or missed by the numbers measured', () => {
  const met = targetsOf(results({ suiteMs: 3900, largeMs: 4200 }));
  expect(met.map((target) => target.met)).toEqual([true, true, true, true, true, true, true]);
  const missed = targetsOf(results({ suiteMs: 10_500, largeMs: 14_000, prismRps: 25_000, faultyMs: 16_000, faultyRequests: 1500 }));
  expect(missed.map((target) => target.met)).toEqual([false, false, false, true, false, false, false]);
  expect(renderMarkdown(results({ suiteMs: 10_500 }))).toContain('| A default verdict in under 10 s | 10.5 s | **missed** |');
});

test("the suite's shape is reported beside the floor, with both ratios", () => {
  const text = renderMarkdown(results({ suiteMs: 8000 }));
  expect(text).toContain("**The suite's shape through Playwright's request context**: 5.0 s: 110 tests sending the same 950 requests");
  expect(text).toContain('That alone is 2.50x the floor');
  expect(text).toContain('the suite takes 1.60x its shape');
});

test('--write-docs replaces the section between the markers, and nothing else', () => {
  const readme = join(freshDir('bench-doc'), 'speed.md');
  writeFileSync(readme, `# Title\n\nbefore\n${SECTION_START}\nold table\n${SECTION_END}\nafter\n`);
  writeDocSection(readme, results());
  const written = readFileSync(readme, 'utf8');
  expect(written.startsWith(`# Title\n\nbefore\n${SECTION_START}\nMeasured 2026-11-21 on 2 cores (a test CPU)`)).toBe(true);
  expect(written).not.toContain('old table');
  expect(written.endsWith(`${SECTION_END}\nafter\n`)).toBe(true);
});

test('docs/speed.md has the markers the benchmark writes between', () => {
  const doc = readFileSync(new URL(`../../${SPEED_DOC}`, import.meta.url), 'utf8');
  expect(doc.indexOf(SECTION_START)).toBeGreaterThan(-1);
  expect(doc.indexOf(SECTION_END)).toBeGreaterThan(doc.indexOf(SECTION_START));
});

test('a failing run is shown beside a clean one, the worst fault naming the target', () => {
  const text = renderMarkdown(results({ faultyMs: 16_000, faultyRequests: 1500 }));
  expect(text).toContain('| A run against one fault within 1.5x of a clean run in time | 1.60x (fault-b) | **missed** |');
  expect(text).toContain('| A run against one fault within 1.5x of a clean run in requests | 1.58x (fault-b) | **missed** |');
  expect(text).toContain('| `fault-a` | 11.0 s | 110 | 960 | 1.10x | 1.01x |');
});
