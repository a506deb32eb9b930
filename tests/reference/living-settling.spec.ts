// The living reference settles late (reference/live/, settleDelay): a call's recording, with
// hasRecording true, arrives a drawn delay after its end, and its minutes stand at the last tally
// until the final one arrives, as a deployment's recording pipeline and billing tally do. Each moment
// still answers a pure function of the plans and the moment, every answer keeps the invariants
// (./living-reference.ts holds each to the suite's checks), and between two moments a call only
// gains what the suite's one-way rule lets it gain (core/checks/settling.ts).
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { test, expect } from '../reference-fixtures.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import { liveCallAt, settledAt } from '../../reference/live/live-call.ts';
import { DEFAULT_SETTLE_DELAY, NO_SETTLE_DELAY, parseSettleDelay, type SettleDelay } from '../../reference/live/settle-delay.ts';
import { createServer } from '../../reference/server.ts';
import { overTime, TERMINAL_STATUSES } from '../../core/checks/settling.ts';
import { checkExchange } from '../../core/checks/index.ts';
import type { Violation } from '../../core/checks/violation.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { OperationId } from '../../openapi/contract.ts';
import type { ReferenceReadings } from '../../reference/readings.ts';
import type { StoredCall } from '../../reference/model.ts';
import { checkContext, isLive, livePlans, withLivingReference, type Shown } from './living-reference.ts';

/** Two new calls a second: enough calls of every kind in two minutes, few enough to step through each second of each. */
const RATE = 2;
const MINUTE_FIELDS = ['totalAudioMinutes', 'totalVideoMinutes', 'totalDurationInMinutes'] as const;
const seconds = (timer: string) => timer.split(':').reduce((total, part) => total * 60 + Number(part), 0);

test('--settle-delay and REFERENCE_SETTLE_DELAY spell MIN-MAX or N in whole seconds up to 300, MIN not above MAX', () => {
  expect(parseSettleDelay('2-15')).toEqual([2, 15]);
  expect(parseSettleDelay('0')).toEqual([0, 0]);
  expect(parseSettleDelay('7')).toEqual([7, 7]);
  expect(parseSettleDelay('0-300')).toEqual([0, 300]);
  for (const bad of ['', '15-2', '2-', '-2', '2.5', '2-15.0', 'x', '301', '0-301', '2 - 15', '2--15', '1e2'])
    expect(parseSettleDelay(bad), bad).toBeUndefined();
});

test('createServer refuses a settle delay out of order, out of bounds or not in whole seconds, saying what it takes', () => {
  for (const settleDelay of [
    [15, 2],
    [-1, 2],
    [0, 301],
    [0.5, 2],
  ] as unknown as SettleDelay[]) {
    const reference = createServer({ calls: 20, live: { rate: 1, settleDelay } });
    expect(() => reference.store, JSON.stringify(settleDelay)).toThrow(/settleDelay must be whole seconds MIN-MAX/);
  }
});

test('a live call that ends shows hasRecording false and no recording, in the list and in Get Call, until its drawn delay, then both together from then on', async ({
  request,
}) => {
  const plans = livePlans({ rate: RATE, settleDelay: DEFAULT_SETTLE_DELAY }, 300);
  await withLivingReference(request, { rate: RATE }, async ({ at, list, get }) => {
    at(300);
    const recorded: Shown[] = (await list({ status: 'ended', hasRecording: true })).body.data.filter(isLive).slice(0, 8);
    expect(recorded.length).toBeGreaterThanOrEqual(4);
    const delays = new Set<number>();
    for (const call of recorded) {
      const plan = plans.get(call.sessionId)!;
      const delay = plan.recordingsAt - call.endedAt;
      expect(delay).toBeGreaterThanOrEqual(DEFAULT_SETTLE_DELAY[0]);
      expect(delay).toBeLessThanOrEqual(DEFAULT_SETTLE_DELAY[1]);
      delays.add(delay);
      for (let moment = call.endedAt - 1; moment <= plan.recordingsAt + 2; moment += 1) {
        at(moment - DATA_NOW);
        const fetched: Shown = (await get(call.sessionId)).body.data;
        const listed = ((await list({ uid: call.initiator, status: fetched.status })).body.data as Shown[]).find(
          (candidate) => candidate.sessionId === call.sessionId,
        )!;
        const shown = fetched.status === 'ended' && moment >= plan.recordingsAt;
        expect(
          [fetched.hasRecording, listed.hasRecording, fetched.recordings !== undefined],
          `at its end + ${moment - call.endedAt} s`,
        ).toEqual([shown, shown, shown]);
        if (shown) expect(fetched.recordings).toEqual(plan.recordings);
      }
    }
    expect(delays.size, 'each call draws its own delay').toBeGreaterThan(1);
  });
});

/** The entries of `later` whose minutes are fewer than the same entry's (same uid, device and join) in `earlier`. */
function entriesShrinking(earlier: Shown, later: Shown): string[] {
  const key = (entry: Shown) => JSON.stringify([entry.uid, entry.deviceId, entry.joinedAt]);
  const before = new Map<string, Shown>(
    earlier.participants.filter((entry: Shown) => entry.isJoined).map((entry: Shown) => [key(entry), entry]),
  );
  return (later.participants as Shown[])
    .filter((entry) => entry.isJoined && MINUTE_FIELDS.some((field) => entry[field] < (before.get(key(entry))?.[field] ?? 0)))
    .map((entry) => `participant ${entry.uid}'s minutes`);
}

/** The first calls a living reference logs at RATE a second, each planned as it is drawn. */
const PLANNED_SECONDS = 120;

/** A call as List Calls and Get Call show it at one moment, held to the suite's per-answer checks. */
function violationsOf(shown: StoredCall, readings: ReferenceReadings): Violation[] {
  const answer = (operation: OperationId, body: unknown): Exchange => ({
    operation,
    request: { method: 'GET', url: `http://reference.invalid/v3/calls`, headers: { apikey: '$API_KEY' } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body), isJson: true },
    durationMs: 1,
  });
  const pagination = { total: 1, count: 1, per_page: 100, current_page: 1, total_pages: 1 };
  return [
    ...checkExchange(answer('listCalls', JSON.parse(JSON.stringify({ data: [shown.call], meta: { pagination } }))), checkContext(readings)),
    ...checkExchange(
      answer('getCall', JSON.parse(JSON.stringify({ data: { ...shown.call, recordings: shown.recordings, metaData: [], tags: [] } }))),
      checkContext(readings),
    ),
  ];
}

for (const readings of REFERENCE_READINGS) {
  test(`under the ${readings} readings, from one second to the next a live call's and its entries' minutes and its timer only grow, once it has ended it only gains what the suite's one-way rule allows, and at each of those moments it passes the suite's checks`, () => {
    const plans = [...livePlans({ rate: RATE, readings, settleDelay: DEFAULT_SETTLE_DELAY }, PLANNED_SECONDS).values()];
    const grew = { minutes: 0, timer: 0, leftAt: 0, recording: 0 };
    // Tens of thousands of moments: what goes wrong is gathered, and asserted once.
    const wrong: Array<{ where: string; what: unknown }> = [];
    for (const plan of plans) {
      let earlier = liveCallAt(plan, plan.initiatedAt, readings).call as unknown as Shown;
      let checked = '';
      for (let now = plan.initiatedAt + 1; now <= settledAt(plan) + 2; now += 1) {
        const shown = liveCallAt(plan, now, readings);
        const later = shown.call as unknown as Shown;
        const where = `${plan.sessionId} at its end + ${now - plan.endAt} s`;
        const shrank: string[] = MINUTE_FIELDS.filter((field) => later[field] < earlier[field]);
        if (seconds(later.totalDuration) < seconds(earlier.totalDuration)) shrank.push('totalDuration');
        shrank.push(...entriesShrinking(earlier, later));
        if (shrank.length > 0) wrong.push({ where, what: `shrank: ${shrank.join(', ')}` });
        // Across a change of status, or while it rings or runs, a call moves on: the one-way rule is for what settles after.
        if (earlier.status === later.status && TERMINAL_STATUSES.has(later.status)) {
          const { gains, breaks } = overTime(earlier, later, now - 1 >= settledAt(plan));
          if (breaks.length > 0) wrong.push({ where, what: breaks });
          for (const { path } of gains) {
            if (path === '/totalDurationInMinutes') grew.minutes += 1;
            if (path === '/totalDuration') grew.timer += 1;
            if (path.endsWith('/leftAt')) grew.leftAt += 1;
            if (path === '/hasRecording') grew.recording += 1;
          }
          // Each state it passes through once: it stands still between the moments its late fields arrive.
          const state = JSON.stringify(shown);
          const violations = state === checked ? [] : violationsOf(shown, readings);
          if (violations.length > 0) wrong.push({ where, what: violations.map((violation) => violation.title) });
          checked = state;
        }
        earlier = later;
      }
    }
    expect(wrong).toEqual([]);
    // Under the deployment's readings a call's minutes and timer are its span, known at its end: only its entries' minutes settle late.
    expect(grew.minutes > 0 && grew.timer > 0, JSON.stringify(grew)).toBe(readings === 'entries');
    expect(grew.leftAt, 'leftAt arrives late on the entries still in the call at its end').toBeGreaterThan(0);
    expect(grew.recording, 'hasRecording turns true after the end').toBeGreaterThan(0);
  });

  test(`under the ${readings} readings, while a live call settles it shows no more than its final minutes, and once settled it shows what it would have shown settling the moment it ended`, () => {
    const late = livePlans({ rate: RATE, readings, settleDelay: DEFAULT_SETTLE_DELAY }, PLANNED_SECONDS);
    const atOnce = livePlans({ rate: RATE, readings, settleDelay: NO_SETTLE_DELAY }, PLANNED_SECONDS);
    let provisional = 0;
    const wrong: string[] = [];
    for (const [sessionId, plan] of late) {
      const final = liveCallAt(atOnce.get(sessionId)!, plan.endAt, readings);
      if (!isDeepStrictEqual(liveCallAt(plan, settledAt(plan), readings), final)) wrong.push(`${sessionId} settled otherwise`);
      for (let now = plan.endAt; now < settledAt(plan); now += 1) {
        const { call } = liveCallAt(plan, now, readings);
        const above = MINUTE_FIELDS.filter((field) => call[field] > final.call[field]);
        if (above.length > 0) wrong.push(`${sessionId} at its end + ${now - plan.endAt} s: ${above.join(', ')} above the final`);
        if (call.totalDurationInMinutes < final.call.totalDurationInMinutes) provisional += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(provisional > 0).toBe(readings === 'entries');
  });

  test(`under the ${readings} readings, every live call the list answers is its plan at the moment asked, in the chunks indexed once their calls have settled too`, async ({
    request,
  }) => {
    // A long delay, so that chunks indexed by their calls' end alone would hold calls not yet
    // settled: at 2 a second, the first chunk of 500 calls is indexed at 250 + 78 + 60 = 388 s.
    const settleDelay: SettleDelay = [0, 60];
    const plans = livePlans({ rate: RATE, readings, settleDelay }, 420);
    await withLivingReference(request, { rate: RATE, readings, settleDelay }, async ({ at, listAll }) => {
      for (const moment of [350, 390, 420]) {
        at(moment);
        const calls = (await listAll({}, 1000)).calls.filter(isLive);
        expect(calls).toHaveLength(RATE * moment);
        const planned = calls.map((call) =>
          JSON.parse(JSON.stringify(liveCallAt(plans.get(call.sessionId)!, DATA_NOW + moment, readings).call)),
        );
        expect(
          calls.filter((call, index) => !isDeepStrictEqual(call, planned[index])).map((call) => call.sessionId),
          `at ${moment} s`,
        ).toEqual([]);
      }
    });
  });
}

// The digests of these answers, at five new calls a second, as the living reference gave them before it settled late (commit
// bf32e7e): with settleDelay [0, 0] not one byte of them changed, and the streams every call is
// drawn from are the same, so every other call is as it was.
const BEFORE_LATE_SETTLING = {
  entries: 'ba321ce15cfc96cbc00ba85355131007658bf48d9a71fa5a41a155d8404aa86b',
  deployment: '2c22562cd5eb47555def5b2b6342fbf116cb474026d6212f7919a97d15ab4045',
};

for (const readings of REFERENCE_READINGS) {
  test(`under the ${readings} readings, with settleDelay [0, 0] the living reference answers, byte for byte, what it answered before it settled late`, async ({
    request,
  }) => {
    const hash = createHash('sha256');
    await withLivingReference(request, { rate: 5, readings, settleDelay: NO_SETTLE_DELAY }, async ({ at, list, get }) => {
      for (const moment of [0, 3, 40, 77, 150, 260, 420]) {
        at(moment);
        const answer = await list({ perPage: 1000 });
        hash.update(answer.text);
        for (const call of (answer.body.data as Shown[]).filter(isLive).slice(0, 60)) hash.update((await get(call.sessionId)).text);
      }
    });
    expect(hash.digest('hex')).toBe(BEFORE_LATE_SETTLING[readings]);
  });
}
