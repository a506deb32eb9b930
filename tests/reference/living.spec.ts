// The living reference (reference/live/): calls are logged at RATE a second ahead of the data set's,
// ring, go ongoing with growing minutes and joining participants, and end, some with recordings.
// The clock is the test's, so each moment is chosen; every answer is held to the contract and to the
// suite's own per-answer checks as it arrives (./living-reference.ts).
import { test, expect, sendRaw } from '../reference-fixtures.ts';
import { createServer } from '../../reference/server.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { findFault, FAULTS } from '../../reference/faults/catalog.ts';
import { loggedAt, loggedBy } from '../../reference/live/live-call.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import { NO_SETTLE_DELAY } from '../../reference/live/settle-delay.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { disagreements } from '../../core/checks/get-matches-list.ts';
import { sessionIdsOf } from './list-oracle.ts';
import { isLive, withLivingReference, type Shown } from './living-reference.ts';

const RATE = 5;
const joinedCount = (call: Shown) => call.participants.filter((entry: Shown) => entry.isJoined).length;

test('live call n is logged at the first second at or after DATA_NOW + n / RATE, for whole and fractional rates', () => {
  for (const rate of [0.2, 0.3, 1, 3, 7.5, 50]) {
    for (let n = 1; n <= 400; n += 1) {
      const at = loggedAt(n, rate);
      expect(at - DATA_NOW, `rate ${rate}, call ${n}`).toBe(Math.ceil(Math.round((n / rate) * 1e6) / 1e6));
      expect(loggedBy(at, rate) >= n && loggedBy(at - 1, rate) < n, `rate ${rate}, call ${n}`).toBe(true);
    }
  }
  expect(loggedBy(DATA_NOW + 10, 0.2)).toBe(2);
  expect(loggedBy(DATA_NOW - 5, 1)).toBe(0);
});

for (const readings of REFERENCE_READINGS) {
  test(`under the ${readings} readings, the total grows by the calls logged, and they come first, newest first, ahead of an unchanged list`, async ({
    request,
  }) => {
    await withLivingReference(request, { rate: RATE, readings }, async ({ at, list }) => {
      at(0);
      const still = await list();
      expect(still.body.meta.pagination.total).toBe(400);
      expect(still.body.data.some(isLive)).toBe(false);
      let before = still.body.data as Shown[];
      let previous = 0;
      // Past 193 s, the calls that have all ended and settled are indexed in chunks (reference/live/living-calls.ts).
      for (const seconds of [1, 2, 7, 30, 100, 190, 300, 420]) {
        at(seconds);
        const answer = await list();
        const calls: Shown[] = answer.body.data;
        expect(answer.body.meta.pagination.total).toBe(400 + RATE * seconds);
        expect(calls).toHaveLength(Math.min(1000, 400 + RATE * seconds));
        const fresh = RATE * (seconds - previous);
        expect(
          calls.slice(0, fresh).every((call) => call.initiatedAt > DATA_NOW + previous && call.initiatedAt <= DATA_NOW + seconds),
        ).toBe(true);
        expect(calls[0]!.initiatedAt).toBe(DATA_NOW + seconds);
        expect(sessionIdsOf(calls.slice(fresh)), `behind the calls logged by DATA_NOW + ${seconds} s`).toEqual(
          sessionIdsOf(before).slice(0, calls.length - fresh),
        );
        previous = seconds;
        before = calls;
      }
    });
  });

  test(`under the ${readings} readings, a live call rings, goes ongoing with minutes growing and participants joining, then ends with its recordings (settling as it ends: settleDelay 0), every answer agreeing with the list`, async ({
    request,
  }) => {
    await withLivingReference(request, { rate: RATE, readings, settleDelay: NO_SETTLE_DELAY }, async ({ at, list, get, exchangeOf }) => {
      // A group call that was answered, that members joined after it started, and that left a recording.
      at(300);
      const ended: Shown[] = (await list({ status: 'ended', hasRecording: true, receiverType: 'group' })).body.data;
      const call = ended.find(
        (candidate) =>
          isLive(candidate) &&
          new Set(candidate.participants.filter((entry: Shown) => entry.isJoined).map((entry: Shown) => entry.joinedAt)).size > 1,
      );
      expect(call, 'a live group call with a recording that members joined one after another').toBeDefined();
      const statuses: string[] = [];
      const seen: Shown[] = [];
      for (let moment = call!.initiatedAt; moment <= call!.endedAt + 1; moment += 1) {
        at(moment - DATA_NOW);
        const answer = await get(call!.sessionId);
        const fetched: Shown = answer.body.data;
        const listed = callsIn(exchangeOf('listCalls', '/calls', await list({ uid: call!.initiator, status: fetched.status }))).find(
          (seen) => seen.call.sessionId === call!.sessionId,
        );
        expect(listed, `listed at ${moment} under its status ${fetched.status}`).toBeDefined();
        expect(disagreements(listed!, callsIn(exchangeOf('getCall', '/calls/x', answer))[0]!)).toEqual([]);
        if (statuses.at(-1) !== fetched.status) statuses.push(fetched.status);
        seen.push(fetched);
      }
      expect(statuses).toEqual(['initiated', 'ongoing', 'ended']);
      const ongoing = seen.filter((shown) => shown.status === 'ongoing');
      const minutes = ongoing.map((shown) => shown.totalDurationInMinutes);
      expect(
        minutes.every((value, index) => index === 0 || value > minutes[index - 1]!),
        `minutes grow every second: ${minutes.join(', ')}`,
      ).toBe(true);
      const joined = ongoing.map(joinedCount);
      expect(joined.every((value, index) => index === 0 || value >= joined[index - 1]!)).toBe(true);
      expect(joined.at(-1), 'members joined during the call').toBeGreaterThan(joined[0]);
      for (const shown of seen) {
        expect(shown.hasRecording).toBe(shown.status === 'ended');
        expect(shown.recordings !== undefined).toBe(shown.status === 'ended');
      }
      expect(seen.at(-1)).toEqual(seen.at(-2));
    });
  });

  test(`under the ${readings} readings, at each moment Get Call answers every live call as the list shows it`, async ({ request }) => {
    await withLivingReference(request, { rate: RATE, readings }, async ({ at, list, get, exchangeOf }) => {
      for (const seconds of [3, 11, 40, 90]) {
        at(seconds);
        const answer = await list({ perPage: 60 });
        for (const listed of callsIn(exchangeOf('listCalls', '/calls', answer)).filter((seen) => isLive(seen.call as Shown))) {
          const fetched = await get(String(listed.call.sessionId));
          const [seenFetched] = callsIn(exchangeOf('getCall', '/calls/x', fetched));
          expect(disagreements(listed, seenFetched!), `at DATA_NOW + ${seconds} s`).toEqual([]);
        }
      }
    });
  });
}

test('on behalf of a participant Get Call answers a live call, on behalf of anyone else ERR_CALL_SESSION_NOT_FOUND, and the scoped list agrees', async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE }, async ({ at, list, get }) => {
    at(50);
    for (const call of ((await list({ perPage: 40 })).body.data as Shown[]).filter(isLive)) {
      const uids = new Set<string>(call.participants.map((entry: Shown) => entry.uid));
      const outsider = Array.from({ length: 20 }, (_, n) => `user-${String(n + 1).padStart(5, '0')}`).find((uid) => !uids.has(uid))!;
      const insider = [...uids][uids.size - 1]!;
      expect((await get(call.sessionId, insider)).body.data.sessionId).toBe(call.sessionId);
      const refused = await get(call.sessionId, outsider);
      expect([refused.status, refused.body.error.code]).toEqual([404, 'ERR_CALL_SESSION_NOT_FOUND']);
      expect(sessionIdsOf((await list({ perPage: 1000 }, insider)).body.data)).toContain(call.sessionId);
      expect(sessionIdsOf((await list({ perPage: 1000 }, outsider)).body.data)).not.toContain(call.sessionId);
    }
  });
});

test('every status and outcome appears among the live calls, and ongoing calls show minutes up to the moment', async ({ request }) => {
  await withLivingReference(request, { rate: RATE }, async ({ at, list }) => {
    at(200);
    const live = ((await list()).body.data as Shown[]).filter(isLive);
    expect(new Set(live.map((call) => call.status))).toEqual(
      new Set(['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled']),
    );
    for (const call of live.filter((shown) => shown.status === 'ongoing')) {
      const [hours, minutes, seconds] = call.totalDuration.split(':').map(Number);
      expect(hours * 3600 + minutes * 60 + seconds).toBe(DATA_NOW + 200 - call.startedAt);
    }
  });
});

test('answers depend only on the moment: moments asked out of order, or again, answer the same bytes as a fresh server', async ({
  request,
}) => {
  // At 5 a second, the calls are indexed in chunks of 500 once all have ended and settled (78 s
  // after the last is logged, and the longest settle delay, 15 s): from 193 s on, again from 293 s, and from 393 s.
  const moments = [120, 15, 60, 15, 200, 400, 120, 295];
  const answers: string[][] = [[], []];
  for (const [run, order] of [moments, [...moments].sort((a, b) => a - b)].entries()) {
    await withLivingReference(request, { rate: RATE }, async ({ at, list }) => {
      for (const seconds of order) {
        at(seconds);
        answers[run]!.push(
          `${seconds} ${(await list({ perPage: 200 })).text} ${(await list({ status: 'ended', hasRecording: true, page: 2, perPage: 100 })).text}`,
        );
      }
    });
  }
  expect(answers[1]).toEqual([...answers[0]!].sort((a, b) => Number(a.split(' ')[0]) - Number(b.split(' ')[0])));
});

test('a fault of the catalog combines with the living: presenter-includes-meet returns the live meet calls too, in list order', async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE, fault: findFault('mode-presenter-includes-meet')! }, async ({ at, list }) => {
    at(100);
    const calls: Shown[] = (await list({ mode: 'presenter' })).body.data;
    expect(calls.some((call) => isLive(call) && call.mode === 'meet')).toBe(true);
    const order = calls.map((call) => [-call.initiatedAt, call.sessionId] as const);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)));
  });
});

test('every fault of the catalog still answers List Calls and Get Call on a living reference', async ({ request }) => {
  for (const fault of FAULTS) {
    await withLivingReference(request, { rate: RATE, fault, calls: fault.calls ?? 400 }, async ({ at, list, get }) => {
      at(60);
      const answer = await list({ perPage: 50, type: 'video', mode: 'meet' });
      expect(answer.status, fault.name).not.toBe(500);
      const live = ((await list({ perPage: 50 })).body.data ?? []).filter(isLive);
      for (const call of live.slice(0, 3)) expect((await get(call.sessionId)).status, fault.name).not.toBe(500);
    });
  }
});

test('with its own clock, a living reference at 50 calls a second logs calls as real time passes', async ({ request }) => {
  const reference = createServer({ seed: 7, calls: 100, live: { rate: 50 } });
  try {
    const base = await reference.listen(0);
    const total = async () =>
      (await sendRaw(request, `${base}/calls?perPage=1`, { headers: { apikey: reference.keys.fullAccess } })).body.meta.pagination.total;
    const first = await total();
    await expect.poll(total, { timeout: 5_000 }).toBeGreaterThanOrEqual(first + 50);
  } finally {
    await reference.close();
  }
});
