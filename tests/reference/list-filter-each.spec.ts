// Each filter of List Calls, alone, is honoured on the calls answered: every returned call shows the
// value asked for, and no call of the data set that shows it is left out.
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, RECEIVER_TYPES } from './spec-values.ts';
import { expectedRows, listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';

/** What a returned call must show for one filter value, read from the call itself, not from the store. */
type Shows = (call: any) => boolean;

interface FilterCase {
  query: ListQuery;
  onBehalfOf?: string;
  shows: Shows;
}

/** A few timestamps spread over the data set, from its first to its last. */
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [0, 0.1, 0.5, 0.9, 1].map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
};

test('every value of every single filter, and of onBehalfOf, narrows List Calls to exactly the calls that show it', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const { rows, users } = reference.store.data;
  const tookPart =
    (uid: string): Shows =>
    (call) =>
      call.participants.some((participant: { uid: string }) => participant.uid === uid);
  const cases: FilterCase[] = [
    ...CALL_TYPES.map((type) => ({ query: { type }, shows: (call: any) => call.type === type })),
    ...CALL_MODES.map((mode) => ({ query: { mode }, shows: (call: any) => call.mode === mode })),
    ...CALL_STATUSES.map((status) => ({ query: { status }, shows: (call: any) => call.status === status })),
    ...RECEIVER_TYPES.map((receiverType) => ({ query: { receiverType }, shows: (call: any) => call.receiverType === receiverType })),
    ...[true, false].map((hasRecording) => ({ query: { hasRecording }, shows: (call: any) => call.hasRecording === hasRecording })),
    ...[...new Set(rows.map((row) => row.totalParticipants))].map((participantsCount) => ({
      query: { participantsCount },
      shows: (call: any) => call.totalParticipants === participantsCount,
    })),
    ...spread(rows.map((row) => row.startedAt)).map((startedAt) => ({
      query: { startedAt },
      shows: (call: any) => call.startedAt >= startedAt,
    })),
    ...spread(rows.flatMap((row) => row.endedAt ?? [])).map((endedAt) => ({
      query: { endedAt },
      shows: (call: any) => call.endedAt !== undefined && call.endedAt <= endedAt,
    })),
    ...users.map(({ uid }) => ({ query: { uid }, shows: tookPart(uid) })),
    ...users.map(({ uid }) => ({ query: {}, onBehalfOf: uid, shows: tookPart(uid) })),
  ];

  for (const { query, onBehalfOf, shows } of cases) {
    const answer = await sendAuthorized(listPath(query, { perPage: 1000 }), { headers: onBehalfOf === undefined ? {} : { onBehalfOf } });
    const label = `${listPath(query)} onBehalfOf=${onBehalfOf}`;
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status, label).toBe(200);
    expect(
      answer.body.data.filter((call: any) => !shows(call)),
      label,
    ).toEqual([]);
    const expected = expectedRows(rows, query, onBehalfOf);
    expect(expected.length, `${label} selects some calls of the data set`).toBeGreaterThan(0);
    expect(sessionIdsOf(answer.body.data), label).toEqual(sessionIdsOf(expected));
    expect(answer.body.meta.pagination.total, label).toBe(expected.length);
  }
});
