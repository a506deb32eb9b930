// The console of real runs, as a user reads it. Against one fault, the failed requirement takes at
// most three lines before the verdict however many tests met it (the full failures are in the
// report, or on the console with CONFORMANCE_CONSOLE=verbose); with writes off, the CONFORMANT verdict
// names the operation that was not exercised, and so do results.json, JUnit, the HTML report's header
// and the example workflow's job summary made from that results.json.
// docs/console-and-verdict.md shows the commands these runs are:
//   CONFORMANCE_CONSOLE=verbose npm run conformance   (runConformance with CONFORMANCE_CONSOLE: 'verbose')
//   ALLOW_WRITES=false npm run conformance            (runConformance with ALLOW_WRITES: 'false')
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS, withReference } from './report-runs.ts';

const FAULT = 'total-pages-rounded-down';
const NOT_EXERCISED = 'Mark Group Conversation As Unread not exercised: ALLOW_WRITES is not true.';

test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

/** The lines after the last progress line ("110/110 tests: … in 9.8 s") and before the verdict. */
function afterProgress(stdout: string): { before: string[]; verdict: string } {
  const lines = stdout.split('\n');
  const end = lines.map((line) => /^\d+\/\d+ tests.* in \d+\.\d s$/.test(line)).lastIndexOf(true);
  const verdictAt = lines.findIndex((line) => line.startsWith('Conformance verdict: '));
  expect(end, stdout.slice(-3000)).toBeGreaterThanOrEqual(0);
  expect(verdictAt).toBeGreaterThan(end);
  return { before: lines.slice(end + 1, verdictAt).filter((line) => line.trim() !== ''), verdict: lines[verdictAt]! };
}

test(`one fault (${FAULT}): progress, then at most 3 lines per failed requirement, then the verdict; verbose gives every failure in full`, async () => {
  const dir = freshDir('console-fault');
  const run = await withReference(FAULT, (base) => runConformance(dir, [], referenceTargetEnv(base)));
  const { results } = readReports(dir);
  expect(run.code, run.stdout.slice(-3000)).toBe(1);
  const failed = results.requirements.filter((result) => result.status === 'fail').map((result) => result.id);
  expect(failed).toEqual(findFault(FAULT)!.requirements);
  // Many tests met it: the reason the console once printed a line for each.
  expect(results.failures.filter((failure) => failure.requirements.includes(failed[0]!)).length).toBeGreaterThan(10);

  const { before, verdict } = afterProgress(run.stdout);
  expect(verdict).toBe(`Conformance verdict: NON-CONFORMANT. ${results.verdictReason}`);
  expect(before[0]).toMatch(/^Failed requirements \(1\)/);
  expect(before.length - 1, before.join('\n')).toBeLessThanOrEqual(3 * failed.length);
  for (const id of failed) expect(before.filter((line) => line.includes(id)).length).toBeLessThanOrEqual(3);
  expect(before[1]).toMatch(
    new RegExp(`^ {2}✘ ${failed[0]} \\(MUST, fail\\): met by \\d+ test\\(s\\); first: suite/calls-list/\\S+:\\d+ "`),
  );
  // Progress was shown, and no test's failure in full.
  expect(run.stdout).toMatch(/^Running \d+ test\(s\) using \d+ worker\(s\)/m);
  expect(run.stdout).toMatch(/^ {2}\d+\/\d+ tests: \d+ passed/m);
  expect(run.stdout).not.toContain('Reproduce with:');
  expect(run.stdout).not.toContain('found while testing');

  const verboseDir = freshDir('console-fault-verbose');
  const verbose = await withReference(FAULT, (base) =>
    runConformance(verboseDir, ['--grep', `${failed[0]} |CALLS-LIST-OK `], { ...referenceTargetEnv(base), CONFORMANCE_CONSOLE: 'verbose' }),
  );
  expect(verbose.code, verbose.stdout.slice(-3000)).toBe(1);
  expect(verbose.stdout).toMatch(/✘ +\d+ \[conformance\] › suite\/calls-list\/pagination\.spec\.ts/);
  expect(verbose.stdout).toMatch(/Reproduce with:\s+curl /);
  expect(verbose.stdout).toContain(`${failed[0]}: found while testing "CALLS-LIST-OK`);
  expect(verbose.stdout).toContain('Conformance verdict: NON-CONFORMANT.');
});

test('writes off: CONFORMANT and exit 0, with the unexercised operation named on the console, in results.json, JUnit, the HTML header and the job summary', async () => {
  const dir = freshDir('console-no-writes');
  const run = await runConformance(dir, [], { ALLOW_WRITES: 'false' });
  const { results, junit, html } = readReports(dir);
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(results.verdict).toBe('CONFORMANT');
  expect(afterProgress(run.stdout).verdict).toMatch(new RegExp(`^Conformance verdict: CONFORMANT\\. .*${NOT_EXERCISED}$`));
  expect(results.unexercised).toEqual([
    { operation: 'markGroupConversationAsUnread', name: 'Mark Group Conversation As Unread', reason: 'ALLOW_WRITES is not true' },
  ]);
  expect(results.verdictReason.endsWith(NOT_EXERCISED)).toBe(true);
  expect(junit).toContain('<property name="unexercised" value="Mark Group Conversation As Unread: ALLOW_WRITES is not true"/>');
  expect(html.slice(0, html.indexOf('</header>'))).toContain(NOT_EXERCISED);

  const summary = jobSummaryOf(join(dir, 'results.json'));
  test.skip(summary === undefined, 'jq is not installed (runner images have it)');
  expect(summary).toContain(`**Verdict: CONFORMANT**. ${results.verdictReason}`);
});

/** The example workflow's job summary step, run as the runner would, on this results.json; undefined without jq. */
function jobSummaryOf(results: string): string | undefined {
  if (spawnSync('jq', ['--version']).status !== 0) return undefined;
  const workflow = parse(readFileSync('.ci/github-actions/conformance-staging.example.yml', 'utf8')) as {
    jobs: Record<string, { steps: Array<{ name?: string; run?: string }> }>;
  };
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .find((candidate) => candidate.name === 'Write the job summary');
  expect(step?.run, 'the example workflow writes a job summary').toBeDefined();
  const work = freshDir('job-summary');
  mkdirSync(join(work, 'conformance-report'));
  copyFileSync(results, join(work, 'conformance-report', 'results.json'));
  const summary = join(work, 'summary.md');
  writeFileSync(summary, '');
  const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run!], {
    cwd: work,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'octo/calls',
      GITHUB_RUN_ID: '1',
      REPORT_URL: '',
      BASELINE_FOUND: 'false',
      BASELINE_URL: '',
      GATE_DECISION: 'pass',
      GATE_WHY: 'CONFORMANT.',
    },
  });
  expect(ran.status, ran.stderr).toBe(0);
  return readFileSync(summary, 'utf8');
}
