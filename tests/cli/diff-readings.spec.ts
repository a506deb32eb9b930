// Every reading the reference can serve where the words allow two (reference/alternatives.ts, its
// readings of the totals, Get Call's envelopes, the time the startedAt filter compares), served as the
// candidate beside the clean reference on the same calls (reference/two-doors.ts): each is reported as
// a reading that changed, the reading named, never as a regression, a fix or a behaviour change.
// Mark-unread's own reading is not compared by a read-only diff: nothing differs, exit 0.
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTwoDoors, type SecondDoor } from '../../reference/two-doors.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { childEnv, runScript } from '../runner/run-suite.ts';
import { CLI, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import type { DiffResults } from '../../reports/diff-report.ts';

const READINGS: ReadonlyArray<{ name: string; second: SecondDoor; named: string | undefined }> = [
  { name: 'participants-count-people', second: { alternatives: ['participants-count-people'] }, named: 'participants-count-filter' },
  { name: 'on-behalf-of-groups', second: { alternatives: ['on-behalf-of-groups'] }, named: 'on-behalf-of-scope' },
  { name: 'page-size-limit', second: { alternatives: ['page-size-limit'] }, named: 'page-size-parameter' },
  { name: 'dates-exact', second: { alternatives: ['dates-exact'] }, named: 'started-at-filter' },
  { name: 'oldest-first', second: { alternatives: ['oldest-first'] }, named: 'list-order' },
  { name: 'errors-flat', second: { alternatives: ['errors-flat'] }, named: 'error-body-shape' },
  { name: 'unread-refused-in-result', second: { alternatives: ['unread-refused-in-result'] }, named: undefined },
  { name: 'readings deployment', second: { readings: 'deployment' }, named: 'call-minutes' },
  { name: 'Get Call envelope data-array', second: { getEnvelope: 'data-array' }, named: 'get-call-envelope' },
  { name: 'Get Call envelope bare', second: { getEnvelope: 'bare' }, named: 'get-call-envelope' },
  { name: 'startedAt filter on initiatedAt', second: { startedAtFilter: 'initiatedAt' }, named: 'started-at-filter' },
];

async function diffAgainst(second: SecondDoor): Promise<{ code: number | null; output: string; diff: DiffResults }> {
  const doors = await openTwoDoors({ calls: 300 }, second);
  const dir = mkdtempSync(join(tmpdir(), 'diff-readings-'));
  try {
    const run = await runScript(
      CLI.conformance,
      ['diff'],
      childEnv({
        CALLS_BASE_URL: doors.primary,
        CHAT_BASE_URL: doors.primary,
        API_KEY: DEMO_KEYS.fullAccess,
        CANDIDATE_CALLS_BASE_URL: doors.candidate,
        CANDIDATE_CHAT_BASE_URL: doors.candidate,
        CANDIDATE_API_KEY: DEMO_KEYS.fullAccess,
        REPORT_DIR: dir,
      }),
      SUITE_RUN_TIMEOUT_MS,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { diff: DiffResults };
    return { code: run.code, output: run.stdout + run.stderr, diff: results.diff };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await doors.close();
  }
}

test.describe.configure({ mode: 'parallel', timeout: SUITE_RUN_TIMEOUT_MS });

for (const { name, second, named } of READINGS) {
  test(`the candidate serving ${name}: ${named === undefined ? 'nothing a read-only diff compares differs' : `a reading that changed (${named}), never a violation`}`, async () => {
    const { code, output, diff } = await diffAgainst(second);
    if (named === undefined) {
      expect(code, output).toBe(0);
      expect(diff.findings).toEqual([]);
      return;
    }
    // A reading learned otherwise exits 1 even where no planned answer showed it.
    expect(code, output).toBe(1);
    for (const finding of diff.findings)
      expect(`${finding.operation} ${finding.path} ${finding.verdict}`, output).toMatch(/ reading-changed$/);
    expect(
      [...diff.readingsChanged, ...diff.findings.flatMap((finding) => finding.because)].some((because) => because.startsWith(named)),
      output,
    ).toBe(true);
  });
}
