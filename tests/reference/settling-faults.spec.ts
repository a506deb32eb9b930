// The faults a suite that lets late fields settle must still catch (reference/faults/settling.ts):
// each makes Get Call disagree with List Calls on the data set's calls, which ended long before the
// newest moment any answer shows and so are settled on evidence, where the suite's one-way rule
// (core/checks/settling.ts) allows no difference at all; and each shows on a living reference too.
import { test, expect } from '../reference-fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import { callsIn, type SeenCall } from '../../core/checks/calls-in.ts';
import { checkExchange } from '../../core/checks/index.ts';
import { DEFAULT_SETTLE_SECONDS, overTime, settledBy, targetClock } from '../../core/checks/settling.ts';
import { checkContext, isLive, withLivingReference, type LivingClient, type Shown } from './living-reference.ts';

const RATE = 1;

/** The calls a list answers and Get Call's answer for each that `pick` keeps, as the suite would see them, with the target's clock they show. */
async function listedAndFetched(
  { list, get, exchangeOf }: Pick<LivingClient, 'list' | 'get' | 'exchangeOf'>,
  pick: (call: Shown) => boolean,
  query: Parameters<LivingClient['list']>[0] = {},
) {
  // The target's clock as the suite reads it, from the newest calls too, not only the ones the query keeps.
  const newest = exchangeOf('listCalls', '/calls', await list({ perPage: 20 }));
  const listing = exchangeOf('listCalls', '/calls', await list({ perPage: 400, ...query }));
  const pairs: Array<{ listed: SeenCall; fetched: SeenCall }> = [];
  for (const listed of callsIn(listing).filter((seen) => pick(seen.call as Shown))) {
    const fetched = exchangeOf('getCall', '/calls/x', await get(String(listed.call.sessionId)));
    pairs.push({ listed, fetched: callsIn(fetched)[0]! });
  }
  return { pairs, clock: targetClock([newest, listing]) };
}

test('recording-disappears: Get Call answers hasRecording false and no recording on calls whose recording the list shows, a loss the one-way rule refuses settled or not', async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE, fault: findFault('recording-disappears')! }, async (client) => {
    // At 0 s no call has been logged yet: the data set as the standing reference serves it. At 150 s, live calls too.
    for (const moment of [0, 150]) {
      client.at(moment);
      const { pairs, clock } = await listedAndFetched(client, (call) => call.hasRecording === true, { hasRecording: true });
      expect(pairs.some(({ listed }) => isLive(listed.call as Shown))).toBe(moment > 0);
      expect(pairs.some(({ listed }) => !isLive(listed.call as Shown))).toBe(true);
      for (const { listed, fetched } of pairs) {
        expect([fetched.call.hasRecording, fetched.call.recordings]).toEqual([false, undefined]);
        const settled = settledBy(listed.call, clock, DEFAULT_SETTLE_SECONDS);
        expect(settled).toBe(!isLive(listed.call as Shown));
        for (const asSettled of [settled, false]) {
          expect(overTime(listed.call, fetched.call, asSettled, 'shared').breaks, String(listed.call.sessionId)).toContainEqual({
            path: '/hasRecording',
            earlier: true,
            later: false,
          });
        }
      }
    }
  });
});

test('has-recording-without-recording: Get Call answers hasRecording true with no recording on ended calls the list shows without one, which only a settled call shows to be wrong', async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE, fault: findFault('has-recording-without-recording')! }, async (client) => {
    for (const moment of [0, 150]) {
      client.at(moment);
      const { pairs, clock } = await listedAndFetched(client, (call) => call.hasRecording === false, { status: 'ended' });
      expect(pairs.length).toBeGreaterThan(0);
      for (const { listed, fetched } of pairs) {
        expect([fetched.call.hasRecording, fetched.call.recordings]).toEqual([true, undefined]);
        const { gains, breaks } = overTime(listed.call, fetched.call, settledBy(listed.call, clock, DEFAULT_SETTLE_SECONDS), 'shared');
        // A call still settling may yet gain its recording: the list first, Get Call then, is a gain. Settled, it is a break.
        expect(isLive(listed.call as Shown) ? gains : breaks).toEqual([{ path: '/hasRecording', earlier: false, later: true }]);
      }
    }
  });
});

for (const readings of REFERENCE_READINGS) {
  test(`minutes-change-after-settled under the ${readings} readings: Get Call answers settled calls with their entries' minutes rounded, up and down, still keeping the invariants, while live calls agree`, async ({
    request,
  }) => {
    await withLivingReference(request, { rate: RATE, readings, fault: findFault('minutes-change-after-settled')! }, async (client) => {
      client.at(150);
      const { pairs, clock } = await listedAndFetched(client, (call) => call.status === 'ended', { status: 'ended' });
      const directions = new Set<string>();
      for (const { listed, fetched } of pairs) {
        expect(checkExchange(fetched.exchange, checkContext(readings)), String(listed.call.sessionId)).toEqual([]);
        const settled = settledBy(listed.call, clock, DEFAULT_SETTLE_SECONDS);
        expect(settled).toBe(!isLive(listed.call as Shown));
        const { breaks } = overTime(listed.call, fetched.call, settled, 'shared');
        if (!settled) expect(breaks, 'a live call is answered alike').toEqual([]);
        for (const { path, earlier, later } of breaks) {
          expect(path).toMatch(/^(\/participants\/\d+)?\/total(Audio|Video|DurationIn)?Minutes$|^\/participants\/\d+\/totalDuration$/);
          directions.add(Number(later) > Number(earlier) ? 'up' : 'down');
        }
      }
      expect(directions).toEqual(new Set(['up', 'down']));
    });
  });
}
