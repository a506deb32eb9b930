// Coverage in a real run of the suite against the embedded reference: a narrowed run says what it
// did not try and why, and under COVERAGE_MIN the same run is INCONCLUSIVE with a line naming the
// floor, while without a floor coverage changes nothing. The default run's coverage targets are
// checked with its other reports in tests/reports/embedded-run.spec.ts.
import { test, expect } from '@playwright/test';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { LEARNING_CREDIT } from '../../reports/build-report.ts';

test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);
test.describe.configure({ mode: 'default' });

const NARROWED = ['--grep', 'CALLS-LIST-FILTER-MODE'];

test('a run of one requirement reports its coverage, what it left out as not tried in a narrowed run, and stays CONFORMANT', async () => {
  const dir = freshDir('coverage-narrowed');
  const run = await runConformance(dir, NARROWED);
  expect(run.code, run.stdout.slice(-2000)).toBe(0);
  const { results } = readReports(dir);
  expect(results.verdict).toBe('CONFORMANT');
  const coverage = results.coverage!;
  const state = (id: string) => coverage.items.find((item) => item.id === id);
  // What the mode filter's test (and the learning before it) sent covers the mode's values; no key was left out.
  // Each covered item names the test that covered it, by its location (a rerun of just that test) and
  // title, or learning, which sends a list of each mode before any test (and covers mode=call first).
  const byTest = expect.stringMatching(/^suite\/[\w/.-]+\.spec\.ts:\d+ [A-Z]/);
  expect(state('filters/mode=call')).toMatchObject({ state: 'covered', by: LEARNING_CREDIT });
  expect(coverage.items.filter((item) => item.state === 'covered')).toContainEqual(expect.objectContaining({ by: byTest }));
  expect(state('access/key missing')).toMatchObject({ state: 'missing', why: expect.stringContaining('the run was narrowed') });
  expect(coverage.dimensions.find((dimension) => dimension.id === 'access')!.percent).toBe(0);
});

test('under COVERAGE_MIN the same run is INCONCLUSIVE, exit 3, naming each dimension under the floor', async () => {
  const dir = freshDir('coverage-floor');
  const run = await runConformance(dir, NARROWED, { COVERAGE_MIN: '90' });
  expect(run.code, run.stdout.slice(-2000)).toBe(3);
  const { results } = readReports(dir);
  expect(results.verdict).toBe('INCONCLUSIVE');
  expect(results.verdictReason).toMatch(/Coverage under COVERAGE_MIN 90%: .*Keys and acting users: 0% \(0 of 8 covered\)/);
  expect(results.run.coverageMin).toBe(90);
});

test('COVERAGE_MIN outside 0-100 stops the run before any test, naming the variable', async () => {
  const dir = freshDir('coverage-bad-floor');
  const run = await runConformance(dir, NARROWED, { COVERAGE_MIN: '101' });
  expect(run.code).toBe(2);
  expect(`${run.stdout}${run.stderr}`).toContain('COVERAGE_MIN');
});

test("what learning the target sent is credited to learning, not to the test that first took its requests: AUTH-EMPTY-KEY's test, which sends no key, covers no success", async () => {
  const dir = freshDir('coverage-learning');
  const run = await runConformance(dir, ['--grep', 'AUTH-EMPTY-KEY']);
  expect(run.code, run.stdout.slice(-2000)).toBe(0);
  const coverage = readReports(dir).results.coverage!;
  const item = (id: string) => coverage.items.find((entry) => entry.id === id);
  expect(item('operations/listCalls success')).toMatchObject({ state: 'covered', by: LEARNING_CREDIT });
  expect(item('access/key missing')).toMatchObject({ state: 'covered', by: expect.stringContaining('AUTH-EMPTY-KEY') });
  for (const entry of coverage.items.filter((entry) => entry.by?.includes('AUTH-EMPTY-KEY')))
    expect(entry.id, `${entry.label} credited to a test without a key`).not.toMatch(/success|filters|pairs/);
});
