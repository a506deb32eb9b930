// List Calls narrows by any combination of its nine filters and onBehalfOf exactly as a naive oracle
// over the store's rows does, in list order, with the matching total.
import fc from 'fast-check';
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import type { CallRow } from '../../reference/data/generate.ts';
import type { Store } from '../../reference/store.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, FILTER_NAMES, INT32_MAX, INT32_MIN, RECEIVER_TYPES } from './spec-values.ts';
import { expectedRows, listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';

interface ScopedQuery {
  query: ListQuery;
  onBehalfOf?: string;
}

type FilterValues = { [K in keyof ListQuery]-?: fc.Arbitrary<NonNullable<ListQuery[K]>> };

/**
 * Some of the filters (any number, from none to all nine: fc.record's optional keys would almost
 * always keep most of them) with a value each, and sometimes an onBehalfOf user.
 */
function someFilters(values: Partial<FilterValues>, onBehalfOf: fc.Arbitrary<string>): fc.Arbitrary<ScopedQuery> {
  const available = FILTER_NAMES.filter((name) => values[name] !== undefined);
  return fc
    .record({
      names: fc.subarray(available),
      values: fc.record(values as FilterValues),
      onBehalfOf: fc.option(onBehalfOf, { nil: undefined, freq: 2 }),
    })
    .map(({ names, values: all, onBehalfOf: user }) => ({
      query: Object.fromEntries(names.map((name) => [name, all[name]])),
      ...(user !== undefined && { onBehalfOf: user }),
    }));
}

/** A timestamp near the data's own, on either side of it, or anywhere in int32. */
const instantNear = (values: readonly number[]) =>
  fc.oneof(
    fc.constantFrom(...values),
    fc.tuple(fc.constantFrom(...values), fc.integer({ min: -86_400, max: 86_400 })).map(([v, d]) => v + d),
    fc.integer({ min: INT32_MIN, max: INT32_MAX }),
  );

/** Any combination of filters, with values from the enums and from the data set. */
function anyQuery(store: Store): fc.Arbitrary<ScopedQuery> {
  const rows = store.data.rows;
  const uids = store.data.users.map((user) => user.uid);
  return someFilters(
    {
      type: fc.constantFrom(...CALL_TYPES),
      mode: fc.constantFrom(...CALL_MODES),
      status: fc.constantFrom(...CALL_STATUSES),
      receiverType: fc.constantFrom(...RECEIVER_TYPES),
      participantsCount: fc.oneof(fc.constantFrom(...rows.map((row) => row.totalParticipants)), fc.nat(60)),
      startedAt: instantNear(rows.map((row) => row.startedAt)),
      endedAt: instantNear(rows.flatMap((row) => (row.endedAt === undefined ? [] : [row.endedAt]))),
      hasRecording: fc.boolean(),
      uid: fc.oneof(fc.constantFrom(...uids), fc.constant('user-that-does-not-exist')),
    },
    fc.constantFrom(...uids),
  );
}

/** Any combination of filters that one given call satisfies, so that the expected answer is never empty. */
function queryMatching(row: CallRow): fc.Arbitrary<ScopedQuery> {
  return someFilters(
    {
      type: fc.constant(row.type),
      mode: fc.constant(row.mode),
      status: fc.constant(row.status),
      receiverType: fc.constant(row.receiverType),
      participantsCount: fc.constant(row.totalParticipants),
      // Often exactly the call's own instant: a bound must include the call that sits on it.
      startedAt: fc.oneof(
        fc.constant(row.startedAt),
        fc.nat(86_400).map((d) => row.startedAt - d),
      ),
      ...(row.endedAt !== undefined && {
        endedAt: fc.oneof(
          fc.constant(row.endedAt),
          fc.nat(86_400).map((d) => row.endedAt! + d),
        ),
      }),
      hasRecording: fc.constant(row.hasRecording),
      uid: fc.constantFrom(...row.uids),
    },
    fc.constantFrom(...row.uids),
  );
}

test('for any combination of filters and onBehalfOf, List Calls answers exactly the calls the oracle selects, in list order', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const rows = reference.store.data.rows;
  const queries = fc.oneof(
    anyQuery(reference.store),
    fc.integer({ min: 0, max: rows.length - 1 }).chain((i) => queryMatching(rows[i]!)),
  );

  await fc.assert(
    fc.asyncProperty(queries, async ({ query, onBehalfOf }) => {
      const answer = await sendAuthorized(listPath(query, { perPage: 1000 }), { headers: onBehalfOf === undefined ? {} : { onBehalfOf } });
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status).toBe(200);
      const expected = expectedRows(rows, query, onBehalfOf);
      expect(answer.body.meta.pagination.total).toBe(expected.length);
      expect(sessionIdsOf(answer.body.data)).toEqual(sessionIdsOf(expected));
    }),
    { numRuns: 100 },
  );
});
