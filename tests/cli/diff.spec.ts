// The diff command run as users run it, against the reference served through two doors over one store
// (reference/two-doors.ts): clean against clean says nothing beyond noise, standing and living;
// clean against a fault of the catalog names the difference and the requirement the fault breaks;
// clean against a reading the words allow says the reading changed; a DIFF_IGNORE rule that would
// silence a whole answer is refused; no key of either side reaches any file written.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTwoDoors, type SecondDoor } from '../../reference/two-doors.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import type { ReferenceOptions } from '../../reference/server.ts';
import { childEnv, runScript, type RunResult } from '../runner/run-suite.ts';
import { CLI, freshDir, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import type { DiffResults } from '../../reports/diff-report.ts';
import { planBound } from '../../core/diff/read-plan.ts';

const PRIMARY_KEYS = { fullAccess: 'primary-side-full-key-7f3a9c1e', readOnly: 'primary-side-readonly-key-2b8d4e6f' };
const CANDIDATE_KEYS = { fullAccess: 'candidate-side-full-key-91c0ab55', readOnly: 'candidate-side-readonly-key-6e2f0d13' };

interface DiffRun {
  run: RunResult;
  dir: string;
  results: { exitCode: number; diff: DiffResults } | undefined;
}

async function diff(second: SecondDoor, options: ReferenceOptions = {}, env: Record<string, string> = {}): Promise<DiffRun> {
  const doors = await openTwoDoors({ calls: 300, ...options, keys: PRIMARY_KEYS }, { keys: CANDIDATE_KEYS, ...second });
  const dir = freshDir('diff-');
  try {
    const run = await runScript(
      CLI.conformance,
      ['diff'],
      childEnv({
        CALLS_BASE_URL: doors.primary,
        CHAT_BASE_URL: doors.primary,
        API_KEY: PRIMARY_KEYS.fullAccess,
        RESTRICTED_API_KEY: PRIMARY_KEYS.readOnly,
        CANDIDATE_CALLS_BASE_URL: doors.candidate,
        CANDIDATE_CHAT_BASE_URL: doors.candidate,
        CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
        CANDIDATE_RESTRICTED_API_KEY: CANDIDATE_KEYS.readOnly,
        REPORT_DIR: dir,
        // One pacer holds both sides: high enough not to slow the test, set so that the pacing is on.
        MAX_RPS: '400',
        ...env,
      }),
      SUITE_RUN_TIMEOUT_MS,
    );
    const path = join(dir, 'results.json');
    const results = run.code === 2 ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as DiffRun['results']);
    return { run, dir, results };
  } finally {
    await doors.close();
  }
}

const KEYS = [...Object.values(PRIMARY_KEYS), ...Object.values(CANDIDATE_KEYS)];

function expectNoKeyIn(run: DiffRun): void {
  const texts = [run.run.stdout, run.run.stderr, ...readdirSync(run.dir).map((name) => readFileSync(join(run.dir, name), 'utf8'))];
  for (const text of texts) for (const key of KEYS) expect(text.includes(key), `a key in the outputs`).toBe(false);
}

const lines = (results: DiffResults) =>
  results.findings.map((finding) => `${finding.verdict} ${finding.operation} ${finding.path} ${finding.kind} ${finding.because.join(',')}`);

test.describe.configure({ mode: 'parallel', timeout: SUITE_RUN_TIMEOUT_MS });

test('clean against clean: no difference beyond noise, exit 0, and no key of either side in any output', async () => {
  const run = await diff({});
  expect(run.run.code, run.run.stderr + run.run.stdout).toBe(0);
  expect(run.results!.diff.findings).toEqual([]);
  expect(run.run.stdout).toContain('NO DIFFERENCE BEYOND NOISE');
  // Read-only by default: mark-unread is never sent, and named as not compared.
  expect(run.results!.diff.notCompared).toEqual([
    { operation: 'markGroupConversationAsUnread', reason: 'not compared: read-only (ALLOW_WRITES is not true)' },
  ]);
  expect(run.results!.diff.operations.map(({ operation }) => operation).sort()).toEqual(['getCall', 'listCalls']);
  expect(run.run.stdout).toContain('markGroupConversationAsUnread: not compared: read-only (ALLOW_WRITES is not true)');
  // The dry run's count is a bound of what was asked (CONFORMANCE_RUNS unset: 20).
  expect(run.results!.diff.requests).toBeLessThanOrEqual(3 * planBound(20));
  expectNoKeyIn(run);
  expect(readFileSync(join(run.dir, 'index.html'), 'utf8')).toContain('<h2>Differences beyond noise</h2>');
  expect(readFileSync(join(run.dir, 'junit.xml'), 'utf8')).toContain('<testsuite name="diff"');
});

test('clean against clean on a living reference (a new call a second): nothing beyond noise, exit 0', async () => {
  const run = await diff({}, { live: { rate: 1 } });
  expect(run.run.code, run.run.stderr + run.run.stdout).toBe(0);
  expect(run.results!.diff.findings).toEqual([]);
});

const FAULTS: ReadonlyArray<{ fault: string; finding: string }> = [
  // A missing field, on group calls only.
  { fault: 'receiver-missing-for-groups', finding: 'regression listCalls data[].receiver missing-field CALL-FIELD-RECEIVER' },
  // A filter that keeps the wrong calls: the lists differ in who is in them, and the narrowing check names it.
  { fault: 'receiver-type-inverted', finding: 'regression listCalls data[] membership CALLS-LIST-AND-NARROWING' },
  // An unknown id answered as an empty call: a status that changed.
  { fault: 'not-found-as-empty-call', finding: 'regression getCall (status) status' },
];

for (const { fault, finding } of FAULTS) {
  test(`clean against the fault ${fault}: the difference classed a regression, its requirement named, exit 1`, async () => {
    const run = await diff({ fault: findFault(fault)! });
    expect(run.run.code, run.run.stderr + run.run.stdout).toBe(1);
    expect(lines(run.results!.diff).some((line) => line.startsWith(finding))).toBe(true);
    expect(run.results!.diff.findings.every((found) => found.verdict === 'regression')).toBe(true);
    if (fault === 'not-found-as-empty-call') expect(run.results!.diff.findings[0]!.because).toContain('CALLS-GET-NOT-FOUND');
    expectNoKeyIn(run);
  });
}

test('clean against a reading the words allow (oldest first): a reading that changed, never a regression', async () => {
  const run = await diff({ alternatives: ['oldest-first'] });
  expect(run.run.code, run.run.stderr + run.run.stdout).toBe(1);
  expect(run.results!.diff.readingsChanged).toEqual(['list-order: newest-first → oldest-first']);
  expect(run.results!.diff.findings.length).toBeGreaterThan(0);
  expect(run.results!.diff.findings.every((found) => found.verdict === 'reading-changed')).toBe(true);
});

test('a DIFF_IGNORE rule is counted where it silenced something; one that would silence a whole answer is refused, exit 2', async () => {
  const ignored = await diff(
    { fault: findFault('receiver-missing-for-groups')! },
    {},
    { DIFF_IGNORE: 'listCalls:data[].receiver;getCall:data.receiver' },
  );
  expect(ignored.run.code, ignored.run.stderr + ignored.run.stdout).toBe(0);
  const rule = ignored.results!.diff.ignored.find(({ path }) => path === 'data[].receiver')!;
  expect(rule.suppressed).toBeGreaterThan(0);
  expect(ignored.run.stdout).toContain(`DIFF_IGNORE listCalls:data[].receiver suppressed differences in ${rule.suppressed} comparisons`);
  const hostile = await diff({}, {}, { DIFF_IGNORE: 'listCalls:data[]' });
  expect(hostile.run.code).toBe(2);
  expect(hostile.run.stderr.trim()).toBe(
    'Configuration error: DIFF_IGNORE refuses "data[]": it would silence a whole answer, not one field of it',
  );
});

test('the dry run states what a diff would send, paced by MAX_RPS, and sends nothing', async () => {
  const run = await runScript(
    CLI.conformance,
    ['diff'],
    childEnv({
      CALLS_BASE_URL: 'http://primary.invalid/v3',
      CHAT_BASE_URL: 'http://primary.invalid/v3',
      API_KEY: PRIMARY_KEYS.fullAccess,
      CANDIDATE_CALLS_BASE_URL: 'http://candidate.invalid/v3',
      CANDIDATE_CHAT_BASE_URL: 'http://candidate.invalid/v3',
      CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
      CONFORMANCE_DRY_RUN: 'true',
      MAX_RPS: '5',
    }),
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(
    /^Dry run: diff would send about \d+ requests to each side to learn it, then at most \d+ .* at MAX_RPS=5 about \d+ s\. Reads only; nothing sent\.\n$/,
  );
});
