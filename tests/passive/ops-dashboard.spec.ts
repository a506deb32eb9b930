// An ops dashboard's traffic recorded in front of a deployment that settles late, judged passively:
// NO VIOLATIONS. The living reference logs a call a second and settles each call's late fields 2 to
// 15 s after it ends (its recording and hasRecording true, its final minutes, leftAt), as a real
// deployment's recording pipeline does. The dashboard lists page 1 every 2 s and fetches every call
// that is new or changed since the page before, through the recording forwarder; the living
// reference's clock runs in real seconds, so the traffic takes DASHBOARD_SECONDS of real time, long
// enough for calls to end and settle late between a list and a Get Call. Before passive mode knew
// time, such traffic was reported as VIOLATIONS FOUND under CALLS-GET-MATCHES-LIST.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import { createPassiveJudge } from '../../passive/judge.ts';
import { bodyTextOf, readHar } from '../../passive/har-reader.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harOf, startRecordingForwarder, type HarEntry } from './recording-forwarder.ts';

const DASHBOARD_SECONDS = 50;
const POLL_MS = 2_000;

test.setTimeout((DASHBOARD_SECONDS + 90) * 1_000);

/** The dashboard: page 1 every POLL_MS, and Get Call for each call new or changed since the page before. */
async function runDashboard(base: string, apikey: string, seconds: number): Promise<void> {
  const shown = new Map<string, string>();
  const until = Date.now() + seconds * 1_000;
  while (Date.now() < until) {
    const tick = Date.now();
    const page = (await (await fetch(`${base}/calls`, { headers: { apikey } })).json()) as { data: Array<{ sessionId: string }> };
    for (const call of page.data) {
      const text = JSON.stringify(call);
      if (shown.get(call.sessionId) === text) continue;
      shown.set(call.sessionId, text);
      await (await fetch(`${base}/calls/${encodeURIComponent(call.sessionId)}`, { headers: { apikey } })).arrayBuffer();
    }
    await sleep(Math.max(0, tick + POLL_MS - Date.now()));
  }
}

/** The dashboard's traffic, recorded in front of the living reference (of `options`) settling late. */
async function recordDashboard(
  options: Pick<ReferenceOptions, 'seed' | 'answerAge'>,
  recording: Parameters<typeof startRecordingForwarder>[1] = {},
): Promise<HarEntry[]> {
  const reference = createServer({ calls: 300, live: { rate: 1, settleDelay: [2, 15] }, ...options });
  const forwarder = await startRecordingForwarder(await reference.listen(0), recording);
  try {
    await runDashboard(forwarder.base, reference.keys.fullAccess, DASHBOARD_SECONDS);
    return forwarder.entries;
  } finally {
    await forwarder.close();
    await reference.close();
  }
}

/** Calls the traffic showed ended without a recording and later (by recorded time) with one: late settling seen. */
function settledLate(entries: HarEntry[]): string[] {
  const firstWithout = new Map<string, number>();
  const late = new Set<string>();
  const ordered = [...entries].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  for (const entry of ordered) {
    const text = bodyTextOf(entry.response.content)?.text;
    if (entry.response.status !== 200 || text === undefined) continue;
    const body = JSON.parse(text) as { data: unknown };
    const calls = (Array.isArray(body.data) ? body.data : [body.data]) as Array<{
      sessionId: string;
      status: string;
      hasRecording: boolean;
    }>;
    for (const call of calls) {
      if (call.status === 'ended' && !call.hasRecording && !firstWithout.has(call.sessionId))
        firstWithout.set(call.sessionId, Date.parse(entry.startedDateTime));
      if (call.hasRecording && firstWithout.has(call.sessionId)) late.add(call.sessionId);
    }
  }
  return [...late];
}

test('CALLS-GET-MATCHES-LIST an ops dashboard recorded against a living reference that settles late: NO VIOLATIONS', async () => {
  const entries = await recordDashboard({ seed: 34 }, { base64Every: 9 });
  const lists = entries.filter((entry) => new URL(entry.request.url).pathname.endsWith('/calls')).length;
  expect(lists).toBeGreaterThanOrEqual(DASHBOARD_SECONDS / 2 - 2);
  expect(entries.length).toBeGreaterThan(lists);
  // The traffic holds what made the false violations: calls that ended, then gained their recording.
  expect(settledLate(entries).length).toBeGreaterThan(0);

  const har = join(freshDir('passive-dashboard'), 'dashboard.har');
  writeFileSync(har, JSON.stringify(harOf(entries)));
  const dir = freshDir('passive-dashboard-report');
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: dir });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  const { results } = readReports(dir);
  expect(results.requirements.find((entry) => entry.id === 'CALLS-GET-MATCHES-LIST')?.status).toBe('pass');

  // The same traffic with every ended call taken as settled at once (no late settling allowed) is
  // flagged: the comparisons above did meet calls settling late.
  const strict = createPassiveJudge({ settleSeconds: 0 });
  await readHar(har, strict);
  expect(strict.finish().requirements.get('CALLS-GET-MATCHES-LIST')?.violations ?? 0).toBeGreaterThan(0);
});

test('CALLS-GET-MATCHES-LIST the same dashboard in front of a deployment whose lists are cached and whose Get Call reads a lagging replica: NO VIOLATIONS under MAX_ANSWER_AGE', async () => {
  // Lists kept 8 s by a cache, Get Call 8 s behind the primary: every answer a true snapshot,
  // older than its arrival (reference/answer-age.ts). The default MAX_ANSWER_AGE (10 s) covers both.
  const entries = await recordDashboard({
    seed: 35,
    answerAge: { list: { mode: 'cache', seconds: 8 }, get: { mode: 'replica', seconds: 8 } },
  });
  const har = join(freshDir('passive-dashboard-old'), 'dashboard.har');
  writeFileSync(har, JSON.stringify(harOf(entries)));
  const dir = freshDir('passive-dashboard-old-report');
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: dir });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  // The report says what the bound did, and claims no age it could not see: it asked nothing again.
  const age = /<section id="answer-age">.*?<\/section>/s.exec(readReports(dir).html)?.[0] ?? '';
  expect(age).toContain('MAX_ANSWER_AGE = 10 s');
  expect(age).toContain('nothing is asked again, so how old the answers were is not learned');
  expect(age).not.toContain('No answer was seen to be older than its arrival');

  // Read as answers as fresh as their arrival, the same traffic is flagged: a Get Call of a call
  // the list had just shown answered from before it was logged, or a list older than a Get Call.
  const fresh = createPassiveJudge({ maxAnswerAgeSeconds: 0 });
  await readHar(har, fresh);
  const flagged = [...fresh.finish().requirements.values()].reduce((sum, entry) => sum + (entry.violations ?? 0), 0);
  expect(flagged).toBeGreaterThan(0);
});
