// The diff command with writes allowed (ALLOW_WRITES=true), run as users run it, against the reference
// served through two doors over one store: each side names its own mark-unread fixture (the doors
// share the reference's group); clean against clean compares mark-unread and reports nothing, exit 0,
// no key of either side in any output; a refusal of the restricted key shown in the result rather than
// by status is a reading that changed; a side without its fixture stops the run naming its variable;
// the dry run states the writes and where they go.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTwoDoors, type SecondDoor } from '../../reference/two-doors.ts';
import { UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { childEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import type { DiffResults } from '../../reports/diff-report.ts';

const PRIMARY_KEYS = { fullAccess: 'primary-writes-full-key-5e0c7a2b', readOnly: 'primary-writes-readonly-key-1d9f3c84' };
const CANDIDATE_KEYS = { fullAccess: 'candidate-writes-full-key-a47e6b90', readOnly: 'candidate-writes-readonly-key-38c2d5f1' };

const fixture = (prefix: string) => ({
  [`${prefix}GROUP_GUID`]: UNREAD_FIXTURE.groupGuid,
  [`${prefix}MESSAGE_ID`]: String(UNREAD_FIXTURE.messageId),
  [`${prefix}ACTING_UID`]: UNREAD_FIXTURE.actingUid,
});

const sides = (primary: string, candidate: string) => ({
  CALLS_BASE_URL: primary,
  CHAT_BASE_URL: primary,
  API_KEY: PRIMARY_KEYS.fullAccess,
  RESTRICTED_API_KEY: PRIMARY_KEYS.readOnly,
  CANDIDATE_CALLS_BASE_URL: candidate,
  CANDIDATE_CHAT_BASE_URL: candidate,
  CANDIDATE_API_KEY: CANDIDATE_KEYS.fullAccess,
  CANDIDATE_RESTRICTED_API_KEY: CANDIDATE_KEYS.readOnly,
  ALLOW_WRITES: 'true',
  ...fixture(''),
  ...fixture('CANDIDATE_'),
});

async function diffWithWrites(second: SecondDoor) {
  const doors = await openTwoDoors({ calls: 300, keys: PRIMARY_KEYS }, { keys: CANDIDATE_KEYS, ...second });
  const dir = freshDir('diff-writes-');
  try {
    const run = await runScript(
      CLI.conformance,
      ['diff'],
      childEnv({ ...sides(doors.primary, doors.candidate), REPORT_DIR: dir }),
      SUITE_RUN_TIMEOUT_MS,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { verdict: string; diff: DiffResults };
    const texts = [run.stdout, run.stderr, ...readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'))];
    return { run, results, texts };
  } finally {
    await doors.close();
  }
}

test.describe.configure({ mode: 'parallel', timeout: SUITE_RUN_TIMEOUT_MS });

test('clean against clean with writes: mark-unread compared, nothing beyond noise, exit 0, no key in any output', async () => {
  const { run, results, texts } = await diffWithWrites({});
  expect(run.code, run.stderr + run.stdout).toBe(0);
  expect(results.verdict).toBe('NO-DIFFERENCE');
  expect(results.diff.findings).toEqual([]);
  expect(results.diff.notCompared).toEqual([]);
  const marks = results.diff.operations.find(({ operation }) => operation === 'markGroupConversationAsUnread');
  expect(marks?.comparisons).toBeGreaterThanOrEqual(10);
  expect(run.stdout).toMatch(/markGroupConversationAsUnread \d+ comparisons/);
  for (const text of texts)
    for (const key of [...Object.values(PRIMARY_KEYS), ...Object.values(CANDIDATE_KEYS)]) expect(text.includes(key)).toBe(false);
});

test('the restricted key refused in the result on one side, by status on the other: a reading that changed, never a violation', async () => {
  const { run, results } = await diffWithWrites({ alternatives: ['unread-refused-in-result'] });
  expect(run.code, run.stderr + run.stdout).toBe(1);
  expect(results.verdict).toBe('DIFFERENCES');
  expect(results.diff.findings.length).toBeGreaterThan(0);
  for (const finding of results.diff.findings) {
    expect(`${finding.operation} ${finding.verdict}`).toBe('markGroupConversationAsUnread reading-changed');
    expect(finding.because.join()).toMatch(/^unread-refusal-shown /);
  }
});

test('with writes, a side without its fixture stops the run naming its variable; the dry run states the writes and where they go', async () => {
  const env = sides('http://primary.invalid/v3', 'http://candidate.invalid/v3');
  const missing = await runScript(CLI.conformance, ['diff'], childEnv({ ...env, CANDIDATE_ACTING_UID: '' }));
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim()).toBe(
    'Configuration error: CANDIDATE_ACTING_UID is required when ALLOW_WRITES=true (a member of that group)',
  );
  const dry = await runScript(CLI.conformance, ['diff'], childEnv({ ...env, CONFORMANCE_DRY_RUN: 'true' }));
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toMatch(/the plan of at most \d+ reads and 11 mark-unread writes .* Writes go only to each side's GROUP_GUID/);
});
