// The faults on what the readings decide do what their descriptions say under each reading they run
// under: every call List Calls shows is the clean reference's with exactly the described change, and
// every filtered list the clean reference's with exactly the described calls added or left out.
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { NO_FAULT, readingsOf } from '../../reference/faults/fault.ts';
import type { ReferenceReadings } from '../../reference/readings.ts';
import { createStore } from '../../reference/store.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';
import { withPairedServers, type PairedServers } from './paired-servers.ts';
import { countedEntries, fieldOfType, joinedEntries, spanTotals, summedTotals, type CallShown } from './readings-oracle.ts';

type Shown = CallShown & { sessionId: string; totalParticipants: number } & Record<string, any>;

/** The whole data set as List Calls shows it, from the faulted server and from the clean one. */
async function listBoth(
  servers: PairedServers,
  contract: Parameters<typeof expectContractValid>[0],
  query: ListQuery = {},
): Promise<[faulted: Shown[], clean: Shown[]]> {
  const answers = await servers.both(listPath(query, { perPage: 1000 }));
  for (const answer of answers) {
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(200);
  }
  return [answers[0].body.data, answers[1].body.data];
}

const minuteFields = (call: Shown) => [call.totalAudioMinutes, call.totalVideoMinutes, call.totalDurationInMinutes];
const sameMinutes = (call: Shown, totals: ReturnType<typeof spanTotals>) =>
  JSON.stringify(minuteFields(call)) === JSON.stringify(Object.values(totals));
const isGroup = (call: Shown) => call.receiverType === 'group';

interface ShownCase {
  /** The clean call as the fault must show it, under the server's readings. */
  expected(call: Shown, readings: ReferenceReadings): Shown;
  /** What the description adds about the calls it changes (checked on each of them); nothing by default. */
  holds?(call: Shown): boolean;
}

const SHOWN_CASES: Record<string, ShownCase> = {
  'call-minutes-fit-neither-reading': {
    expected: (call) => {
      if (call.status !== 'ended' || joinedEntries(call).length === 0) return call;
      const field = fieldOfType(call);
      return { ...call, [field]: call[field] + 1, totalDurationInMinutes: call.totalDurationInMinutes + 1 };
    },
    holds: (call) => !sameMinutes(call, spanTotals(call)) && !sameMinutes(call, summedTotals(call)),
  },
  'call-minutes-readings-mixed': {
    expected: (call) => ({ ...call, ...(isGroup(call) ? summedTotals(call) : spanTotals(call)) }),
  },
  'total-participants-fits-neither-count': {
    expected: (call) => (isGroup(call) ? { ...call, totalParticipants: call.participants.length + 1 } : call),
    holds: (call) => call.totalParticipants !== call.participants.length && call.totalParticipants !== joinedEntries(call).length,
  },
  'total-participants-readings-mixed': {
    expected: (call) => ({ ...call, totalParticipants: countedEntries(call, isGroup(call) ? 'entries' : 'deployment').length }),
  },
  'total-participants-counts-users': {
    expected: (call, readings) => ({
      ...call,
      totalParticipants: new Set(countedEntries(call, readings).map((participant) => participant.uid)).size,
    }),
    holds: (call) => new Set(call.participants.map((participant) => participant.uid)).size < call.participants.length,
  },
  'minutes-of-initiator-only': {
    expected: (call) => {
      const initiator = call.participants[0];
      if (!isGroup(call) || !initiator) return call;
      return {
        ...call,
        totalAudioMinutes: initiator.totalAudioMinutes,
        totalVideoMinutes: initiator.totalVideoMinutes,
        totalDurationInMinutes: initiator.totalAudioMinutes + initiator.totalVideoMinutes,
      };
    },
    holds: (call) => {
      const initiator = call.participants[0]!;
      const alone = joinedEntries(call).length === 1;
      const stayedToTheEnd = initiator.leftAt === call.endedAt;
      return (alone || !sameMinutes(call, summedTotals(call))) && (stayedToTheEnd || !sameMinutes(call, spanTotals(call)));
    },
  },
};

for (const [name, { expected, holds }] of Object.entries(SHOWN_CASES)) {
  const fault = findFault(name)!;
  for (const readings of readingsOf(fault)) {
    test(`${name}, under the ${readings} readings, shows each call as its description says`, async ({ request, contract }) => {
      await withPairedServers(request, { fault, readings }, async (servers) => {
        const [faulted, clean] = await listBoth(servers, contract);
        expect(faulted).toEqual(clean.map((call) => expected(call, readings)));
        const changed = faulted.filter((call, position) => JSON.stringify(call) !== JSON.stringify(clean[position]));
        expect(changed.length, 'calls the fault changes').toBeGreaterThan(0);
        if (holds) expect(changed.filter((call) => !holds(call)).map((call) => call.sessionId)).toEqual([]);
        // Get Call shows the call as List Calls does.
        const [got] = await servers.both(`/calls/${encodeURIComponent(changed[0]!.sessionId)}`);
        expect({ ...got.body.data, recordings: undefined, metaData: undefined, tags: undefined }).toEqual({
          ...changed[0],
          recordings: undefined,
          metaData: undefined,
          tags: undefined,
        });
      });
    });
  }
}

test("participant-cap-off-by-one pads the calls of more than 30 entries to 51 users with guests who never joined, and counts them by the server's readings", async ({
  request,
  contract,
}) => {
  const fault = findFault('participant-cap-off-by-one')!;
  for (const readings of readingsOf(fault)) {
    await withPairedServers(request, { fault, readings }, async (servers) => {
      const [faulted, clean] = await listBoth(servers, contract);
      const large = clean.filter((call) => call.participants.length > 30).length;
      expect(large, 'calls of more than 30 entries').toBeGreaterThan(0);
      for (const [position, call] of faulted.entries()) {
        const before = clean[position]!;
        if (before.participants.length <= 30) {
          expect(call).toEqual(before);
          continue;
        }
        const guests = call.participants.slice(before.participants.length);
        expect(new Set(call.participants.map((entry) => entry.uid)).size).toBe(51);
        expect(call.participants.slice(0, before.participants.length)).toEqual(before.participants);
        expect(guests.filter((guest) => guest.isJoined !== false)).toEqual([]);
        expect({ ...call, participants: before.participants }).toEqual({
          ...before,
          totalParticipants: countedEntries(call, readings).length,
        });
      }
    });
  }
});

test("participants-count-mixes-readings: under the deployment's readings participantsCount=N lists the group calls of N entries and the one-to-one calls of N joined entries; under the reference's own it is no fault", async ({
  request,
  contract,
}) => {
  const fault = findFault('participants-count-mixes-readings')!;
  await withPairedServers(request, { fault, readings: 'deployment' }, async (servers) => {
    const [all, cleanAll] = await listBoth(servers, contract);
    expect(all).toEqual(cleanAll);
    expect(all.filter((call) => call.totalParticipants !== joinedEntries(call).length)).toEqual([]);
    const countedByFault = (call: Shown) => (call.receiverType === 'group' ? call.participants.length : joinedEntries(call).length);
    let differing = 0;
    for (const participantsCount of new Set(all.flatMap((call) => [call.participants.length, call.totalParticipants]))) {
      const [faulted, clean] = await listBoth(servers, contract, { participantsCount });
      expect(sessionIdsOf(faulted), `participantsCount=${participantsCount}`).toEqual(
        sessionIdsOf(all.filter((call) => countedByFault(call) === participantsCount)),
      );
      if (JSON.stringify(sessionIdsOf(faulted)) !== JSON.stringify(sessionIdsOf(clean))) differing += 1;
    }
    expect(differing, 'counts for which the fault lists other calls').toBeGreaterThan(0);
  });
  expect(fault.hooks({ store: createStore(5, 20, 'entries'), keys: DEMO_KEYS, readings: 'entries' })).toBe(NO_FAULT);
});

/** The filter faults that follow the readings: what the faulted server lists for a query, from what the clean one lists. */
const LISTED_CASES: Array<{
  name: string;
  queries: ListQuery[];
  expected(clean: (query: ListQuery) => Promise<Shown[]>, query: ListQuery): Promise<Shown[]>;
}> = [
  {
    name: 'participants-count-excludes-initiator',
    queries: [0, 1, 2, 3, 5, 8].map((participantsCount) => ({ participantsCount })),
    expected: (clean, query) => clean({ participantsCount: query.participantsCount! + 1 }),
  },
  {
    name: 'status-drops-large-calls',
    queries: [{ status: 'ended' }, { status: 'ongoing' }, { status: 'ended', type: 'video' }],
    expected: async (clean, query) => (await clean(query)).filter((call) => call.totalParticipants <= 10),
  },
];

for (const { name, queries, expected } of LISTED_CASES) {
  const fault = findFault(name)!;
  for (const readings of readingsOf(fault)) {
    test(`${name}, under the ${readings} readings, lists what its description says`, async ({ request, contract }) => {
      await withPairedServers(request, { fault, readings }, async (servers) => {
        let differing = 0;
        for (const query of queries) {
          const [faulted, clean] = await listBoth(servers, contract, query);
          const want = await expected(async (other) => (await listBoth(servers, contract, other))[1], query);
          expect(sessionIdsOf(faulted), listPath(query)).toEqual(sessionIdsOf(want));
          if (JSON.stringify(sessionIdsOf(faulted)) !== JSON.stringify(sessionIdsOf(clean))) differing += 1;
        }
        expect(differing, 'queries the fault answers otherwise').toBeGreaterThan(0);
      });
    });
  }
}
