// A history line: each requirement's outcome under a key of its own, read back against the catalog,
// and a run of the whole catalog under 2 KB (issue 57's target), measured on the worst line a run
// can write: every requirement judged, every reading with every candidate, every coverage dimension.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { DIMENSIONS } from '../../core/coverage/model.ts';
import {
  decodeOutcomes,
  encodeOutcomes,
  HISTORY_FORMAT,
  OUTCOME_CODES,
  requirementKey,
  runLineProblem,
  type HistoryRun,
} from '../../core/history/history-line.ts';
import { runEntry } from '../../core/history/history-file.ts';
import type { RequirementStatus } from '../../core/results/report-model.ts';

const TWO_KB = 2048;
const judgedStatuses = Object.keys(OUTCOME_CODES) as RequirementStatus[];

/** The longest line a run of the whole catalog writes: every id judged, outcomes spread over every letter. */
function wholeCatalogRun(): HistoryRun {
  const catalog = loadCatalog();
  const outcomes = catalog.requirements.map((requirement, index) => ({
    id: requirement.id,
    status: judgedStatuses[index % judgedStatuses.length]!,
  }));
  return {
    format: HISTORY_FORMAT,
    at: '2026-12-06T12:00:00.000Z',
    target: `https://${'a'.repeat(120)}.example/v3 (calls) and https://${'b'.repeat(120)}.example/v3 (chat)`.slice(0, 300),
    suite: `0.1.0+${'f'.repeat(12)}.modified`,
    seed: 2 ** 31 - 1,
    profile: 'strict',
    verdict: 'NON-CONFORMANT',
    ms: 86_400_000,
    mode: 'run',
    outcomes: encodeOutcomes(outcomes),
    readings: Object.fromEntries(catalog.readings.map((reading) => [reading.subject, reading.candidates.map((candidate) => candidate.id)])),
    coverage: Object.fromEntries(Object.keys(DIMENSIONS).map((dimension) => [dimension, 100])),
  };
}

test('a run of the whole catalog is a line under 2 KB, every requirement in it; spelling the ids out would not be', () => {
  const catalog = loadCatalog();
  const run = wholeCatalogRun();
  const bytes = runEntry(run, (text) => text).bytes.length;
  test.info().annotations.push({ type: 'measured', description: `${bytes} bytes for ${catalog.requirements.length} requirements` });
  expect(bytes).toBeLessThan(TWO_KB);
  expect(decodeOutcomes(run.outcomes, catalog.byId.keys()).size).toBe(catalog.requirements.length);
  // The measure tells: with the ids in full, the same line is over the bound.
  const spelled = JSON.stringify({ ...run, outcomes: catalog.requirements.map((requirement) => requirement.id) });
  expect(Buffer.byteLength(spelled)).toBeGreaterThan(TWO_KB);
});

test('every requirement of the catalog has a key of its own, and a line reads back as it was written', () => {
  const ids = loadCatalog().requirements.map((requirement) => requirement.id);
  expect(new Set(ids.map(requirementKey)).size).toBe(ids.length);
  const outcomes = [
    { id: ids[0]!, status: 'pass' as const },
    { id: ids[1]!, status: 'fail' as const },
    { id: ids[2]!, status: 'uncovered' as const },
    { id: ids[3]!, status: 'not-testable' as const },
  ];
  const encoded = encodeOutcomes(outcomes);
  expect(Object.keys(encoded).sort()).toEqual(['f', 'p']);
  expect([...decodeOutcomes(encoded, ids)]).toEqual([
    [ids[0], 'pass'],
    [ids[1], 'fail'],
  ]);
  // A requirement since removed from the catalog keeps its row, by its key.
  expect([...decodeOutcomes(encodeOutcomes([{ id: 'GONE-SINCE', status: 'fail' }]), ids)]).toEqual([
    [`#${requirementKey('GONE-SINCE')}`, 'fail'],
  ]);
});

test('a value that is not a run line of this format says why', () => {
  const run = wholeCatalogRun();
  expect(runLineProblem(run)).toBeUndefined();
  expect(runLineProblem([1])).toBe('is not a JSON object');
  expect(runLineProblem({ tool: 'allure', status: 'passed' })).toContain("another tool's");
  expect(runLineProblem({ ...run, format: 'calls-conformance-history/2' })).toContain('another format');
  expect(runLineProblem({ ...run, seed: -1 })).toContain('"seed"');
  expect(runLineProblem({ ...run, at: 'yesterday' })).toContain('"at"');
  expect(runLineProblem({ ...run, outcomes: { p: 'abc' } })).toContain('"outcomes"');
  expect(runLineProblem({ ...run, readings: { subject: 'one' } })).toContain('"readings"');
});
