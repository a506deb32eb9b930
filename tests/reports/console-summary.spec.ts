// What the console says when a run ends, from hand-made reports: one line per failed requirement
// however many tests met it, one line of what was seen, and the per-test list only when asked for.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { buildReport } from '../../reports/build-report.ts';
import { consoleSummary, whatWasSeen } from '../../reports/console-summary.ts';
import { describeProgress, describeStart } from '../../reports/console-reporter.ts';
import type { TestRecord } from '../../core/results/report-model.ts';
import { metadata, testRecord } from './report-records.ts';

const BROKEN = 'PAGINATION-TOTAL-PAGES-CONSISTENT';
const VIOLATION = `${BROKEN} [pagination_consistency] total_pages is not total / per_page rounded up\n  Expected: total_pages 1 (total 82, per_page 100)\n  Received: total_pages 0 in {"total":82}\n  GET http://target/v3/calls → 200\n  Reproduce with:\n  curl -sS 'http://target/v3/calls'`;

/** The test that holds the requirement fails; thirty others meet the same violation on the way and credit it. */
function oneFaultRun(): TestRecord[] {
  const own = testRecord({
    requirements: [BROKEN],
    title: `${BROKEN} holds on every list page`,
    location: 'suite/calls-list/pagination.spec.ts:19',
    status: 'failed',
    violations: [{ requirement: BROKEN, text: 'total_pages' }],
    errors: [`ConformanceFailure: ${VIOLATION}`],
  });
  const others = Array.from({ length: 30 }, (_, index) =>
    testRecord({
      requirements: ['CALLS-LIST-OK'],
      title: `CALLS-LIST-OK test ${index}`,
      location: `suite/calls-list/other-${String(index).padStart(2, '0')}.spec.ts:${index + 1}`,
      violations: [{ requirement: BROKEN, text: 'total_pages' }],
      credited: [{ requirement: BROKEN, message: VIOLATION }],
    }),
  );
  return [...others, own];
}

const report = (tests: TestRecord[]) =>
  buildReport(loadCatalog(), { metadata, tests, startedAt: new Date(), durationMs: 1, runnerStatus: 'failed', runnerErrors: [] });

test('one broken requirement met by 31 tests: two lines for it, then the verdict', () => {
  const text = consoleSummary(report(oneFaultRun()), { mode: 'compact', reportPath: 'conformance-report/index.html' });
  const lines = text.split('\n');
  const verdictAt = lines.findIndex((line) => line.startsWith('Conformance verdict: NON-CONFORMANT.'));
  const mentions = lines.slice(0, verdictAt).filter((line) => line.includes(BROKEN));
  expect(mentions).toHaveLength(1);
  expect(mentions[0]).toBe(
    `  ✘ ${BROKEN} (MUST, fail): met by 31 test(s); first: suite/calls-list/pagination.spec.ts:19 "${BROKEN} holds on every list page"`,
  );
  const at = lines.indexOf(mentions[0]!);
  expect(lines[at + 1]).toBe(
    '      total_pages is not total / per_page rounded up; Expected: total_pages 1 (total 82, per_page 100); Received: total_pages 0 in {"total":82}',
  );
  // Header, the requirement's two lines, the verdict and where the report is; no curl, no per-test list.
  expect(lines.filter((line) => line !== '')).toEqual([
    expect.stringMatching(/^Failed requirements \(1\)/),
    mentions[0],
    lines[at + 1],
    lines[verdictAt],
    'Report: conformance-report/index.html',
  ]);
  expect(text).not.toContain('found while testing');
  expect(text).not.toContain('curl');
});

test('verbose adds the list of every test that met a credited violation', () => {
  const text = consoleSummary(report(oneFaultRun()), { mode: 'verbose', reportPath: 'r/index.html' });
  expect(text.split('\n').filter((line) => line.includes(`${BROKEN}: found while testing`))).toHaveLength(30);
  expect(text).toMatch(/each of the report's \d+ test failure\(s\) is there in full and above/);
});

test('a requirement met only by credit names the first test by place; an intermittent one says in how many attempts', () => {
  const credited = oneFaultRun().slice(0, 3);
  const text = consoleSummary(report(credited), { mode: 'compact', reportPath: 'r' });
  expect(text).toContain(`  ✘ ${BROKEN} (MUST, fail): met by 3 test(s); first: suite/calls-list/other-00.spec.ts:1 "CALLS-LIST-OK test 0"`);

  const flaky = testRecord({
    requirements: ['CALLS-GET-NOT-FOUND'],
    status: 'passed',
    attempts: [
      {
        status: 'failed',
        violated: ['CALLS-GET-NOT-FOUND'],
        errors: ['CALLS-GET-NOT-FOUND [status] not 404\n  Expected: 404\n  Received: 500'],
      },
      { status: 'passed', violated: [], errors: [] },
    ],
  });
  expect(consoleSummary(report([flaky]), { mode: 'compact', reportPath: 'r' })).toMatch(
    / {2}✘ CALLS-GET-NOT-FOUND \(MUST, intermittent, 1 of 2 attempts\): met by 1 test\(s\); first: .*\n {6}not 404; Expected: 404; Received: 500\n/,
  );
});

test("what was seen: the requirement's first violation on one line, or the first line of an error", () => {
  expect(whatWasSeen(`Found while testing "x", which holds Y:\n${VIOLATION}`, BROKEN)).toBe(
    'total_pages is not total / per_page rounded up; Expected: total_pages 1 (total 82, per_page 100); Received: total_pages 0 in {"total":82}',
  );
  expect(whatWasSeen('TimeoutError: the target did not answer within 10000 ms\n    at wire.ts:12', 'CALLS-GET-OK')).toBe(
    'the target did not answer within 10000 ms',
  );
});

test('the progress line counts each test once, by how its last attempt ended as results.json does, leaving out zeros', () => {
  expect(
    describeProgress(
      40,
      110,
      new Map([
        ['passed', 38],
        ['failed', 1],
        ['skipped', 1],
      ]),
    ),
  ).toBe('40/110 tests: 38 passed, 1 failed, 1 skipped');
  expect(describeProgress(0, 110, new Map())).toBe('0/110 tests');
  expect(describeProgress(2, 2, new Map([['timedOut', 2]]))).toBe('2/2 tests: 2 timed out');
});

test('the first line never names more workers than tests', () => {
  expect(describeStart(1, 3)).toMatch(/^Running 1 test\(s\) using 1 worker\(s\) /);
  expect(describeStart(110, 3)).toMatch(/^Running 110 test\(s\) using 3 worker\(s\) /);
});
