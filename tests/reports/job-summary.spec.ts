// The job summary of an active run (reports/job-summary.ts), from a results.json whose words came
// from the target: a table stays a table, nothing opens HTML where GitHub renders it, and long
// lists are cut with a pointer to the HTML report.
import { test, expect } from '@playwright/test';
import { renderRunSummary } from '../../reports/job-summary.ts';
import type { ConformanceReport, RequirementResult } from '../../core/results/report-model.ts';

function requirement(id: string, overrides: Partial<RequirementResult> = {}): RequirementResult {
  return {
    id,
    section: '4.1',
    level: 'MUST',
    specLevel: 'MUST',
    kind: 'behaviour',
    text: `what ${id} asks`,
    status: 'pass',
    observations: [],
    warnings: [],
    tests: [],
    readings: [],
    ...overrides,
  } as RequirementResult;
}

function report(requirements: RequirementResult[], overrides: Partial<ConformanceReport> = {}): ConformanceReport {
  return {
    verdict: 'NON-CONFORMANT',
    verdictReason: 'A MUST requirement failed.',
    run: { targetAddresses: ['https://staging.example/v3'], seeds: [7] },
    requirements,
    ...overrides,
  } as ConformanceReport;
}

test('the failed requirements, their level and outcome, the target and the seed; intermittent with its counts', () => {
  const summary = renderRunSummary(
    report([
      requirement('CALLS-GET-NOT-FOUND', { status: 'fail' }),
      requirement('CALLS-LIST-OK', { status: 'intermittent', attempts: { violated: 1, judged: 2 } }),
      requirement('CALLS-GET-OK'),
    ]),
    'https://ci.example/runs/1',
  );
  expect(summary).toMatch(/^## Conformance: NON-CONFORMANT\n\nA MUST requirement failed\.\n/);
  expect(summary).toContain('Target: `https://staging.example/v3`; seed 7.');
  expect(summary).toContain('### Failed (2)');
  expect(summary).toContain('| `CALLS-GET-NOT-FOUND` | MUST | fail | what CALLS-GET-NOT-FOUND asks |');
  expect(summary).toContain('| `CALLS-LIST-OK` | MUST | intermittent (1 of 2 attempts) |');
  expect(summary).not.toContain('CALLS-GET-OK');
  expect(summary).toContain('Report: https://ci.example/runs/1');
});

test('words from the target keep the table whole and open no HTML', () => {
  const summary = renderRunSummary(
    report([requirement('X', { status: 'fail', text: 'a | b\n<script>alert(1)</script>' })], {
      verdictReason: 'why <img src=x onerror=alert(1)>',
    }),
  );
  expect(summary).not.toContain('<script>');
  expect(summary).not.toContain('<img');
  expect(summary).toContain('| `X` | MUST | fail | a \\| b &lt;script>alert(1)&lt;/script> |');
});

test('a long list is cut at twenty with a pointer to the HTML report; a passing run says nothing failed', () => {
  const failed = Array.from({ length: 25 }, (_, index) => requirement(`R-${index}`, { status: 'fail' }));
  const summary = renderRunSummary(
    report(failed, { expectations: { file: 'k.yaml', expectedFailures: ['E-1'], unexpectedPasses: [], expired: [] } }),
  );
  expect(summary).toContain('### Failed (25)');
  expect(summary).toContain('- … and 5 more: see the HTML report');
  expect(summary).not.toContain('`R-20`');
  expect(summary).toContain('### Expected failures (1)\n\n- E-1');
  expect(renderRunSummary(report([requirement('A')], { verdict: 'CONFORMANT' }))).toContain('No requirement failed.');
});

test("the history's flaky requirements and new failures, when HISTORY_FILE kept one", () => {
  const history = {
    file: 'h.jsonl',
    runs: 3,
    problems: [],
    shown: [],
    grid: [],
    flaky: ['A'],
    flakyForSure: ['B'],
    newFailures: ['C'],
    fixed: [],
    readingsChanged: [],
  };
  const summary = renderRunSummary(report([requirement('C', { status: 'fail' })], { history }));
  expect(summary).toContain('### Flaky across runs (HISTORY_FILE) (2)\n\n- A\n- B (for sure: same suite and seed, two outcomes)');
  expect(summary).toContain('### New failures since the last run (1)\n\n- C');
  expect(renderRunSummary(report([]))).not.toContain('Flaky');
});
