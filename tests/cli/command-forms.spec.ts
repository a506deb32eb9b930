// Every command line the suite prints runs where it is printed (issue 54): in the suite's clone,
// `npm run conformance -- …`; installed in a project, `npx calls-conformance …` (tests/package/
// installed.spec.ts pastes those there). Here: where the suite takes itself to run (suitePlace), a
// fresh clone's `npx calls-conformance` (no dist/: one line saying what to run, exit 2, no stack
// trace), and a failure's rerun line pasted into a shell in the clone, failing the same requirement again.
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suitePlace } from '../../core/run/package-paths.ts';
import { commandLine, runCommand } from '../../core/results/replay-command.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { childEnv, PROJECT_ROOT, referenceTargetEnv, type RunResult } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS, withReference } from '../reports/report-runs.ts';

const FAULT = 'get-answers-next-call';

test('the suite runs in the clone from its sources, or compiled from the clone’s folder; compiled anywhere else, installed', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'suite-place-'));
  try {
    expect(suitePlace(elsewhere, false)).toBe('clone');
    expect(suitePlace(PROJECT_ROOT, true)).toBe('clone');
    expect(suitePlace(elsewhere, true)).toBe('installed');
    // A project of its own, even one with a conformance script, is not the suite's clone.
    writeFileSync(join(elsewhere, 'package.json'), JSON.stringify({ name: 'my-app', scripts: { conformance: 'calls-conformance' } }));
    expect(suitePlace(elsewhere, true)).toBe('installed');
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
  expect(commandLine('clone')).toBe('npm run conformance --');
  expect(commandLine('installed')).toBe('npx calls-conformance');
  expect(runCommand('clone')).toBe('npm run conformance -- run');
  expect(runCommand('installed')).toBe('npx calls-conformance run');
  expect(runCommand('playwright')).toBe('npx playwright test --project=conformance');
});

/** A fresh clone: the project's files, with bin/ copied (Node would follow a link back here, to a dist/ an `npm pack` left), the other folders linked, no dist/. */
function freshClone(): string {
  const clone = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
  const left = new Set(['.git', 'dist', '.env', 'conformance-report', 'test-results', 'blob-report', 'playwright-report']);
  for (const entry of readdirSync(PROJECT_ROOT)) {
    if (left.has(entry) || entry.endsWith('.tgz')) continue;
    const source = join(PROJECT_ROOT, entry);
    if (lstatSync(source).isFile() || entry === 'bin') cpSync(source, join(clone, entry), { recursive: true });
    else symlinkSync(source, join(clone, entry));
  }
  return clone;
}

/** A command line as a user pastes it: one bash script in `cwd`. */
function shell(line: string, cwd: string, env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, stopped: false }));
  });
}

test('npx calls-conformance in a fresh clone, before any build, says in one line to run npm run conformance -- there: exit 2, no stack trace', async () => {
  test.setTimeout(120_000);
  const clone = freshClone();
  try {
    for (const args of ['--help', 'run --grep @get-call']) {
      const run = await shell(`npx calls-conformance ${args}`, clone, {});
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^calls-conformance: .*`npm run conformance -- \[COMMAND\]`.*npm run build.*\n$/);
      expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|\n\s+at /);
    }
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});

test(`in the clone, a failure's rerun line is npm run conformance -- run FILE:LINE, and pasted as printed it fails the same requirement again (${FAULT})`, async () => {
  test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);
  const declared = findFault(FAULT)!.requirements;
  const dir = freshDir('command-forms');
  const { failure, again } = await withReference(FAULT, async (base) => {
    const run = await runConformance(dir, ['--grep', '@get-call'], referenceTargetEnv(base));
    expect(run.code, run.stderr).toBe(1);
    const failure = readReports(dir).results.failures.find((entry) => entry.requirements.some((id) => declared.includes(id)));
    const rerunDir = freshDir('command-forms-rerun');
    const pasted = await shell(failure!.rerun, PROJECT_ROOT, { ...referenceTargetEnv(base), REPORT_DIR: rerunDir });
    return { failure: failure!, again: { run: pasted, results: readReports(rerunDir).results } };
  });
  expect(failure.rerun).toMatch(/^CONFORMANCE_SEED=\d+ npm run conformance -- run suite\/\S+\.spec\.ts:\d+$/);
  expect(again.run.code, again.run.stderr).toBe(1);
  expect(again.results.summary.mustFailed.filter((id) => failure.requirements.includes(id)).length).toBeGreaterThan(0);
});
