// The reference under each of its readings: the deployment's changes the four fields the
// specification leaves to a reading (call minutes and totalParticipants) and what participantsCount
// matches, and nothing else List Calls or Get Call answer.
import { test, expect, expectContractValid, sendRaw, SELF_TEST_CALLS, SELF_TEST_SEED, type Answer } from '../reference-fixtures.ts';
import type { APIRequestContext } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { REFERENCE_READINGS, type ReferenceReadings } from '../../reference/readings.ts';
import type { Contract } from '../../openapi/contract.ts';
import { listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';
import { countedEntries, joinedEntries, totalsUnder, type CallShown } from './readings-oracle.ts';

type Shown = CallShown & { sessionId: string } & Record<string, unknown>;

const totalsOf = ({ totalAudioMinutes, totalVideoMinutes, totalDurationInMinutes, totalParticipants }: Shown) => ({
  totalAudioMinutes,
  totalVideoMinutes,
  totalDurationInMinutes,
  totalParticipants,
});
const withoutTotals = ({
  totalAudioMinutes: _a,
  totalVideoMinutes: _v,
  totalDurationInMinutes: _d,
  totalParticipants: _p,
  ...rest
}: Shown) => rest;

interface Client {
  /** One page of up to 1000 calls: the whole self-test data set. */
  list(query: ListQuery): Promise<Answer>;
  get(sessionId: string): Promise<Answer>;
}

/** A reference with the readings on the self-tests' data set, for the length of `run`. */
async function withReference(
  request: APIRequestContext,
  contract: Contract,
  readings: ReferenceReadings,
  run: (client: Client) => Promise<void>,
): Promise<void> {
  const reference = createServer({ seed: SELF_TEST_SEED, calls: SELF_TEST_CALLS, readings });
  try {
    const base = await reference.listen(0);
    const send = async (path: string, operation: 'listCalls' | 'getCall') => {
      const answer = await sendRaw(request, `${base}${path}`, { headers: { apikey: reference.keys.fullAccess } });
      expectContractValid(contract, operation, answer);
      expect(answer.status, path).toBe(200);
      return answer;
    };
    await run({
      list: (query) => send(listPath(query, { perPage: 1000 }), 'listCalls'),
      get: (sessionId) => send(`/calls/${encodeURIComponent(sessionId)}`, 'getCall'),
    });
  } finally {
    await reference.close();
  }
}

for (const readings of REFERENCE_READINGS) {
  const counted = readings === 'deployment' ? 'joined entries' : 'entries';
  const other = REFERENCE_READINGS.find((name) => name !== readings)!;
  test(`under the ${readings} readings, participantsCount=N lists exactly the calls with N ${counted}, each showing totalParticipants N`, async ({
    request,
    contract,
  }) => {
    await withReference(request, contract, readings, async ({ list }) => {
      const calls: Shown[] = (await list({})).body.data;
      // Every count either reading gives, so that each count the readings disagree on is asked for, and one no call has.
      const counts = [...new Set(calls.flatMap((call) => [call.participants.length, joinedEntries(call).length])), 999];
      let countedOtherwiseByTheOther = 0;
      for (const participantsCount of counts) {
        const answer = await list({ participantsCount });
        const expected = calls.filter((call) => countedEntries(call, readings).length === participantsCount);
        expect(sessionIdsOf(answer.body.data), `participantsCount=${participantsCount}`).toEqual(sessionIdsOf(expected));
        expect(answer.body.meta.pagination.total).toBe(expected.length);
        expect(answer.body.data.filter((call: Shown) => call.totalParticipants !== participantsCount)).toEqual([]);
        countedOtherwiseByTheOther += expected.filter((call) => countedEntries(call, other).length !== participantsCount).length;
      }
      expect(countedOtherwiseByTheOther, `calls the ${other} readings would count otherwise`).toBeGreaterThan(0);
    });
  });
}

test('List Calls and Get Call answer the same calls, participants and order under both readings, each with the totals its readings give', async ({
  request,
  contract,
}) => {
  const listed = {} as Record<ReferenceReadings, Shown[]>;
  const got = {} as Record<ReferenceReadings, Shown[]>;
  for (const readings of REFERENCE_READINGS) {
    await withReference(request, contract, readings, async ({ list, get }) => {
      listed[readings] = (await list({})).body.data;
      got[readings] = [];
      for (const call of listed[readings].slice(0, 40)) got[readings].push((await get(call.sessionId)).body.data);
    });
    const wrong = listed[readings].filter((call) => JSON.stringify(totalsOf(call)) !== JSON.stringify(totalsUnder(call, readings)));
    expect(
      wrong.map((call) => call.sessionId),
      `${readings}: calls whose totals do not follow the readings`,
    ).toEqual([]);
    expect(got[readings].map(totalsOf), `${readings}: Get Call shows the totals List Calls shows`).toEqual(
      listed[readings].slice(0, 40).map(totalsOf),
    );
  }
  expect(listed.deployment.map(withoutTotals)).toEqual(listed.entries.map(withoutTotals));
  expect(got.deployment.map(withoutTotals)).toEqual(got.entries.map(withoutTotals));
});
