// Passive judging knows time (docs/passive.md, "Time"): two recorded answers are compared in the
// order their recorded times say, not the order of the file, and answers about one call follow the
// one-way rule of core/checks/settling.ts. A call that ended recently may gain hasRecording (and
// minutes, leftAt, a recording) between two answers; it may not lose them; a call settled on the
// evidence of the target's own clock (its last moment 300 s or more before the newest moment the
// traffic had shown by then) may not change at all. Hand-made HARs of the deployed API's published
// payloads (tests/real-payloads/), whose calls are clean, with only what each case changes.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createPassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { readHar } from '../../passive/har-reader.ts';
import { TargetClock } from '../../passive/over-time.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harEntry, writeHar, type EntrySpec } from './har-entries.ts';
import type { HarEntry } from './recording-forwarder.ts';

const payload = (name: string) => JSON.parse(readFileSync(new URL(`../real-payloads/${name}`, import.meta.url), 'utf8')) as { data: any };
const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const KEY = 'passive-time-order-key-5e4d3c';
const headers = { apikey: KEY };

const [NEWEST, RECENT] = payload('list-calls.json').data as [any, any];
/** RECENT ended 53 s before NEWEST: in traffic showing both, neither has settled. */
const withRecording = (call: any, hasRecording: boolean) => ({ ...call, hasRecording });
/** A call 400 s after NEWEST: once an answer has shown it, RECENT (and NEWEST) have settled on the evidence of the target's clock. */
const LATER_CALL = shifted(NEWEST, 400, 'v1.us.31780434a95d45.1692368568passivetimeorderlatercall0000000000000000');

function shifted(call: any, seconds: number, sessionId: string): any {
  const moved = (value: unknown) => (typeof value === 'number' ? value + seconds : value);
  return {
    ...call,
    sessionId,
    initiatedAt: moved(call.initiatedAt),
    startedAt: moved(call.startedAt),
    endedAt: moved(call.endedAt),
    participants: call.participants.map((entry: any) => ({ ...entry, joinedAt: moved(entry.joinedAt), leftAt: moved(entry.leftAt) })),
  };
}

const page = (calls: any[]) => ({
  data: calls,
  meta: { pagination: { total: calls.length, count: calls.length, total_pages: 1, current_page: 1 } },
});
const listAt = (at: number, calls: any[], more: Partial<EntrySpec> = {}) =>
  harEntry({ url: `${CALLS}/calls`, headers, status: 200, body: page(calls), at, ...more });
const getAt = (at: number, call: any, more: Partial<EntrySpec> = {}) =>
  harEntry({ url: `${CALLS}/calls/${call.sessionId}`, headers, status: 200, body: { data: call }, at, ...more });

async function judged(entries: HarEntry[]): Promise<PassiveResult> {
  const judge = createPassiveJudge();
  await readHar(writeHar(entries), judge);
  return judge.finish();
}
const violationsOf = (result: PassiveResult, id = 'CALLS-GET-MATCHES-LIST') => result.requirements.get(id)?.violations ?? 0;
const everyViolation = (result: PassiveResult) => [...result.requirements].filter(([, tally]) => tally.violations > 0).map(([id]) => id);

test('CALLS-GET-MATCHES-LIST hasRecording going false → true once, 2 to 98 s apart, on calls that ended recently: NO VIOLATIONS', async () => {
  // An ops dashboard: page 1 every few seconds, Get Call for the calls that are new or changed.
  const entries = [
    listAt(0, [withRecording(NEWEST, false), withRecording(RECENT, false)]),
    getAt(2, withRecording(RECENT, false)),
    listAt(4, [withRecording(NEWEST, false), withRecording(RECENT, true)]),
    getAt(6, withRecording(RECENT, true)),
    listAt(8, [withRecording(NEWEST, false), withRecording(RECENT, true)]),
    getAt(98, withRecording(NEWEST, true)),
    listAt(100, [withRecording(NEWEST, true), withRecording(RECENT, true)]),
  ];
  const result = await judged(entries);
  expect(everyViolation(result)).toEqual([]);
  expect(result.requirements.get('CALLS-GET-MATCHES-LIST')?.judged).toBeGreaterThanOrEqual(4);

  // The same traffic through the command line: the verdict a team reads.
  const dir = freshDir('passive-time-order');
  const run = await runScript(CLI.conformance, ['har', writeHar(entries)], { REPORT_DIR: dir });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  expect(readReports(dir).results.requirements.find((entry) => entry.id === 'CALLS-GET-MATCHES-LIST')?.status).toBe('pass');
});

test('CALLS-GET-MATCHES-LIST hasRecording going true → false is a violation, whichever view came first', async () => {
  const listedFirst = await judged([listAt(0, [NEWEST, withRecording(RECENT, true)]), getAt(5, withRecording(RECENT, false))]);
  expect(violationsOf(listedFirst)).toBe(1);
  const [example] = listedFirst.requirements.get('CALLS-GET-MATCHES-LIST')!.examples;
  expect(example!.title).toContain('disagree at /hasRecording');
  expect(example!.expected).toContain('true');
  expect(example!.received).toContain('false');
  expect(example!.received).toContain('5 s after the earlier answer');
  expect(example!.source).toBe('traffic.har, entry 2');
  expect(example!.related).toEqual(['traffic.har, entry 1']);

  const fetchedFirst = await judged([getAt(0, withRecording(RECENT, true)), listAt(30, [NEWEST, withRecording(RECENT, false)])]);
  expect(violationsOf(fetchedFirst)).toBe(1);
  expect(fetchedFirst.requirements.get('CALLS-GET-MATCHES-LIST')!.examples[0]!.exchange?.operation).toBe('listCalls');
});

test("CALLS-GET-MATCHES-LIST a call settled on the evidence of the target's clock may not change at all; one not yet settled may gain minutes", async () => {
  const grown = { ...RECENT, totalAudioMinutes: 0.5, totalDurationInMinutes: 0.5 };
  // An earlier answer showed a call 400 s after RECENT's end: by the list at 5 s, RECENT had settled.
  const settled = await judged([listAt(0, [LATER_CALL]), listAt(5, [RECENT]), getAt(10, grown)]);
  expect(violationsOf(settled)).toBe(2);
  const [example] = settled.requirements.get('CALLS-GET-MATCHES-LIST')!.examples;
  expect(example!.title).toContain('/totalAudioMinutes');
  expect(example!.title).toContain('settled');

  // Without that evidence, or with it only in an answer given after the two compared, minutes that grow are a late tally.
  expect(violationsOf(await judged([listAt(5, [RECENT]), getAt(10, grown)]))).toBe(0);
  expect(violationsOf(await judged([listAt(20, [LATER_CALL]), listAt(5, [RECENT]), getAt(10, grown)]))).toBe(0);
  // Shrinking minutes are never a late tally.
  const shrunk = { ...RECENT, totalAudioMinutes: 0.1, totalDurationInMinutes: 0.1 };
  expect(violationsOf(await judged([listAt(5, [RECENT]), getAt(10, shrunk)]))).toBe(2);
});

test('CALLS-GET-MATCHES-LIST records out of file order are judged in the order their recorded times say', async () => {
  // Written Get Call first, but the list was answered 50 s before it: false → true, a late recording.
  expect(violationsOf(await judged([getAt(50, withRecording(RECENT, true)), listAt(0, [NEWEST, withRecording(RECENT, false)])]))).toBe(0);
  // Written false first, but the false answer came later: true → false.
  const lost = await judged([listAt(50, [NEWEST, withRecording(RECENT, false)]), getAt(0, withRecording(RECENT, true))]);
  expect(violationsOf(lost)).toBe(1);
  expect(lost.requirements.get('CALLS-GET-MATCHES-LIST')!.examples[0]!.source).toBe('traffic.har, entry 1');
  // A late Get Call written after a newer list does not replace the newer answer kept for that call.
  const kept = await judged([
    getAt(60, withRecording(RECENT, true)),
    getAt(0, withRecording(RECENT, false)),
    listAt(70, [NEWEST, withRecording(RECENT, false)]),
  ]);
  expect(violationsOf(kept)).toBe(1);
  // Two answers that overlapped in time have no known order: a difference one order explains is not a violation.
  const overlapping = [listAt(0, [NEWEST, withRecording(RECENT, true)], { time: 3_000 }), getAt(1, withRecording(RECENT, false))];
  expect(violationsOf(await judged(overlapping))).toBe(0);
  const changed = await judged([listAt(0, [NEWEST, RECENT], { time: 3_000 }), getAt(1, { ...RECENT, type: 'video' })]);
  expect(violationsOf(changed)).toBe(1);
  expect(changed.requirements.get('CALLS-GET-MATCHES-LIST')!.examples[0]!.title).toContain('which answer came first is not known');
});

test('the other cross-exchange checks follow recorded time too: a shown id, a key called unknown', async () => {
  const notFound = (at: number) =>
    harEntry({
      url: `${CALLS}/calls/${RECENT.sessionId}`,
      headers,
      status: 404,
      body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'not found' } },
      at,
    });
  // Not found after a list showed the call: wrong (calls are never deleted); before it, the call may not have been logged yet.
  expect(violationsOf(await judged([listAt(0, [NEWEST, RECENT]), notFound(10)]), 'CALLS-GET-OK')).toBe(1);
  expect(violationsOf(await judged([notFound(0), listAt(10, [NEWEST, RECENT])]), 'CALLS-GET-OK')).toBe(0);
  expect(violationsOf(await judged([listAt(10, [NEWEST, RECENT]), notFound(0)]), 'CALLS-GET-OK')).toBe(0);

  const other = 'passive-time-order-other-key-9a8b';
  const refused = (at: number) =>
    harEntry({
      url: `${CALLS}/calls`,
      headers: { apikey: other },
      status: 401,
      body: { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'unknown key' } },
      at,
    });
  const served = (at: number) => listAt(at, [NEWEST, RECENT], { headers: { apikey: other } });
  // Refused, then served: the key was called unknown and then was not. Served, then refused: revoked, not judged.
  expect(violationsOf(await judged([refused(0), served(10)]), 'AUTH-INVALID-KEY')).toBe(1);
  expect(violationsOf(await judged([refused(10), served(0)]), 'AUTH-INVALID-KEY')).toBe(0);
});

test("the target's clock kept for settling is bounded: past its cap, older readings are thinned, which only ever lowers the clock at a moment", () => {
  const full = new TargetClock(100_000);
  const capped = new TargetClock(50);
  for (let second = 0; second < 1_000; second += 1) {
    // Answers ending each second, showing calls up to that second, with one reading recorded late (out of order).
    const end = second === 500 ? 990_500 : second * 1_000;
    full.saw(end, 1_700_000_000 + second);
    capped.saw(end, 1_700_000_000 + second);
  }
  expect(capped.size).toBeLessThanOrEqual(50);
  expect(full.by(-1)).toBeUndefined();
  expect(full.by(10_500)).toBe(1_700_000_010);
  expect(full.by(499_999)).toBe(1_700_000_499);
  // The reading recorded late counts from when its answer ended, not from where the file put it.
  expect(full.by(500_000)).toBe(1_700_000_499);
  for (const moment of [0, 1_000, 250_000, 600_000, 999_000, 2_000_000]) {
    expect(capped.by(moment) ?? 0).toBeLessThanOrEqual(full.by(moment) ?? 0);
  }
  expect(capped.by(999_000)).toBe(full.by(999_000));
});

test("an invariant of what not every call shows is judged on the calls that show it: a timer once its call has settled by the answer's clock, a recording where one is shown", async () => {
  // The published calls alone: no recording, and neither has settled by the newest moment shown.
  const alone = await judged([listAt(0, [NEWEST, RECENT])]);
  for (const id of ['RECORDING-FIELDS', 'RECORDING-MEANS-HAS-RECORDING', 'CALL-TOTAL-DURATION-IS-ITS-DURATION'])
    expect(alone.requirements.has(id), id).toBe(false);
  // Beside a call 400 s later, both have settled: their timers are judged, and one showing seconds as minutes fails.
  const settled = await judged([listAt(0, [LATER_CALL, { ...NEWEST, totalDuration: '00:19:00' }, RECENT])]);
  expect(settled.requirements.get('CALL-TOTAL-DURATION-IS-ITS-DURATION')).toMatchObject({ judged: 2, violations: 1 });
  expect(everyViolation(settled)).toEqual(['CALL-TOTAL-DURATION-IS-ITS-DURATION']);
});
