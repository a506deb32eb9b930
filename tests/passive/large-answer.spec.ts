// One answer of 100,000 participant entries, judged as `npm run conformance -- har FILE` judges it
// (issue 46, item 2: such a page made the active run spin for 15 minutes and more, and the passive
// judging of one such entry took 220 s and 529 MB). The run ends with its verdict and its three
// reports, every entry judged: each one missing a field is counted, the two views of the call are
// compared entry by entry. How long it takes is the bench's to measure (`npm run bench --
// --answer-size-only`, tests/bench/answer-size.ts), not a test's.
import { test, expect } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { writeHar } from './har-entries.ts';
import { largeAnswerEntries } from './large-answers.ts';

const ENTRIES = 100_000;
/** Far above what it takes: a busy two-core machine runs several such judgings at once. */
const TIMEOUT_MS = 240_000;

test.describe.configure({ timeout: TIMEOUT_MS + 30_000 });

async function judged(file: string) {
  const dir = freshDir('large-answer-report');
  const run = await runScript(CLI.conformance, ['har', file], { REPORT_DIR: dir }, TIMEOUT_MS);
  for (const name of ['index.html', 'results.json', 'junit.xml']) expect(existsSync(join(dir, name)), name).toBe(true);
  return { run, ...readReports(dir) };
}

const requirement = (results: ReturnType<typeof readReports>['results'], id: string) =>
  results.requirements.find((entry) => entry.id === id);

test(`a call of ${ENTRIES.toLocaleString('en')} participant entries each missing a field: every one counted in both views, the views compared, the verdict and reports written`, async () => {
  const { run, results, html, junit } = await judged(writeHar(largeAnswerEntries(ENTRIES, 'missing-fields'), 'missing-fields.har'));
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain('Passive verdict: VIOLATIONS FOUND.');
  expect(results.verdict).toBe('VIOLATIONS FOUND');
  expect(results.passive?.byOperation).toEqual({ listCalls: 1, getCall: 1, markGroupConversationAsUnread: 0 });
  // Each added entry lacks state and its two minutes, in the list and in Get Call: each is counted.
  for (const id of ['PARTICIPANT-FIELD-STATE', 'PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES', 'PARTICIPANT-FIELD-TOTAL-VIDEO-MINUTES']) {
    expect(requirement(results, id)?.status, id).toBe('fail');
    const failure = results.failures.find((entry) => entry.requirements.includes(id));
    // Judged on the calls of the two answers: the list's two and Get Call's one.
    expect(failure?.message, id).toContain(`${2 * ENTRIES} violation(s) of ${id} in 3 recorded exchange(s) or call(s) judged`);
    expect(failure?.message, id).toContain('/data/0/participants/5 must have required property');
  }
  expect(requirement(results, 'CALL-PARTICIPANTS-AT-MOST-50')?.status).toBe('fail');
  // The two views hold the same entries in another order: paired one by one, they agree.
  expect(requirement(results, 'CALLS-GET-MATCHES-LIST')?.status).toBe('pass');
  expect(html).toContain('VIOLATIONS FOUND');
  expect(junit).toContain('PARTICIPANT-FIELD-STATE');
});

test(`a call of two users joined on ${ENTRIES.toLocaleString('en')} devices: each user's devices told apart, the views compared, no violation`, async () => {
  const { run, results } = await judged(writeHar(largeAnswerEntries(ENTRIES, 'multi-device'), 'multi-device.har'));
  expect(run.code, run.stderr).toBe(0);
  expect(results.verdict).toBe('NO VIOLATIONS IN 2 EXCHANGES');
  for (const id of ['CALL-MULTI-DEVICE-DISTINCT-DEVICES', 'CALLS-GET-MATCHES-LIST', 'PARTICIPANT-FIELD-DEVICE-ID'])
    expect(requirement(results, id)?.status, id).toBe('pass');
});
