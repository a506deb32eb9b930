// The exit codes of `npm run conformance` that no verdict of a completed run gives: 2 for a
// configuration error (one line, before any test, and no report), 3 for a target that cannot be
// reached (an INCONCLUSIVE report, within seconds, with no stack trace). 0 and 1 are checked with
// the runs that give them (embedded-run.spec.ts, faulty-run.spec.ts). And a listing is no run.
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort, referenceTargetEnv, runScript, runSuite } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from './report-runs.ts';

test('a configuration error exits 2 with one line naming the variable, and writes no report', async () => {
  const dir = freshDir('report-config');
  const run = await runConformance(dir, [], { CONFORMANCE_PROFILE: 'lenient' });
  expect(run.code).toBe(2);
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes('CONFORMANCE_PROFILE'));
  expect(lines).toEqual(['Configuration error: CONFORMANCE_PROFILE must be one of spec, strict (got "lenient")']);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(join(dir, 'results.json'))).toBe(false);
});

test('a target that cannot be reached exits 3 with an INCONCLUSIVE report that says so, without a stack trace', async () => {
  const dir = freshDir('report-unreachable');
  const base = `http://127.0.0.1:${await freeLoopbackPort()}/v3`;
  const started = Date.now();
  const run = await runConformance(dir, [], referenceTargetEnv(base));
  expect(run.code, run.stderr).toBe(3);
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(run.stdout).toContain('Conformance verdict: INCONCLUSIVE.');
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at /);
  // No test ran, and none is announced; the reason is said once, by the verdict.
  expect(run.stdout).not.toContain('Running 0 test(s)');
  expect(`${run.stdout}${run.stderr}`.split('The target cannot be reached').length - 1).toBe(1);

  const { results, junit, html } = readReports(dir);
  expect(results).toMatchObject({ verdict: 'INCONCLUSIVE', exitCode: 3 });
  expect(results.verdictReason).toContain(`The target cannot be reached: GET ${base}/calls?perPage=1 failed (ECONNREFUSED)`);
  expect(results.summary.tests.passed + results.summary.tests.failed).toBe(0);
  expect(junit).toContain('<property name="verdict" value="INCONCLUSIVE"/>');
  expect(html).toContain('data-verdict="INCONCLUSIVE"');
});

test('a run whose conformance reporter was replaced exits 2 and says why there is no verdict', async () => {
  const dir = freshDir('report-replaced');
  const run = await runConformance(dir, ['--reporter=dot', '--grep', 'CALLS-GET-NOT-FOUND ']);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('No conformance verdict: the suite ended (exit 0) without writing');
});

test('listing the tests (--list) writes no report and leaves the last one as it was', async () => {
  const dir = freshDir('report-list');
  writeFileSync(join(dir, 'results.json'), '{"verdict":"CONFORMANT"}');
  const run = await runSuite(['--project=conformance', '--list'], { REPORT_DIR: dir });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).not.toContain('Conformance verdict');
  expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('{"verdict":"CONFORMANT"}');
  expect(existsSync(join(dir, 'index.html'))).toBe(false);
});

test('Ctrl-C during a run ends it with an INCONCLUSIVE report and exit 3, the tests run so far kept', async () => {
  const dir = freshDir('report-interrupted');
  // The console's progress lines ("  28/110 tests: 28 passed (6.2 s)") say when at least ten have passed.
  const run = await runScript(
    CLI.conformance,
    [`--output=${freshDir('artefacts')}`],
    { REPORT_DIR: dir },
    {
      timeoutMs: SUITE_RUN_TIMEOUT_MS,
      interruptWhen: (line) => Number(/^\s+\d+\/\d+ tests: (\d+) passed/.exec(line)?.[1] ?? 0) >= 10,
    },
  );
  expect(run.code, run.stderr).toBe(3);
  const { results } = readReports(dir);
  expect(results).toMatchObject({ verdict: 'INCONCLUSIVE', verdictReason: 'The run was interrupted before it ended.' });
  expect(results.summary.tests.passed).toBeGreaterThanOrEqual(10);
  expect(results.summary.requirements.uncovered).toBeGreaterThan(0);
});
