// On the living reference, for any filters and any moment, List Calls answers exactly the calls of
// the unfiltered list at that same moment that the filters keep (the documented semantics, restated
// in ./list-oracle.ts), in the same order, and its pages partition them with meta that agrees.
import fc from 'fast-check';
import { test, expect } from '../reference-fixtures.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, RECEIVER_TYPES } from '../../reference/model.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import type { CallRow } from '../../reference/data/generate.ts';
import { expectedRows, sessionIdsOf, type ListQuery } from './list-oracle.ts';
import { withLivingReference, type Shown } from './living-reference.ts';

const RATE = 4;
/** Users who take part in live and data-set calls alike on the self-tests' data set (20 users). */
const uid = fc.integer({ min: 1, max: 20 }).map((n) => `user-${String(n).padStart(5, '0')}`);
/** Bounds around the moments asked, so that they cut through the live calls, or through the data set's. */
const bound = fc.oneof(
  fc.integer({ min: DATA_NOW - 120, max: DATA_NOW + 360 }),
  fc.integer({ min: DATA_NOW - 180 * 86_400, max: DATA_NOW }),
);

const values = {
  type: fc.constantFrom(...CALL_TYPES),
  mode: fc.constantFrom(...CALL_MODES),
  status: fc.constantFrom(...CALL_STATUSES),
  receiverType: fc.constantFrom(...RECEIVER_TYPES),
  participantsCount: fc.integer({ min: 0, max: 8 }),
  startedAt: bound,
  endedAt: bound,
  hasRecording: fc.boolean(),
  uid,
};
/** Up to three filters at once: more leave almost nothing to compare. */
const filters: fc.Arbitrary<ListQuery> = fc
  .subarray(Object.keys(values) as Array<keyof typeof values>, { maxLength: 3 })
  .chain((names) =>
    fc.record(Object.fromEntries(names.map((name) => [name, values[name]])) as { [K in keyof typeof values]: fc.Arbitrary<ListQuery[K]> }),
  );

/** A shown call as the oracle reads rows: its fields, and the uids of its entries. */
const asRow = (call: Shown): CallRow =>
  ({ ...call, uids: [...new Set<string>(call.participants.map((entry: Shown) => entry.uid))] }) as unknown as CallRow;

for (const readings of REFERENCE_READINGS) {
  test(`under the ${readings} readings, for any filters, onBehalfOf and moment, the pages hold exactly the calls of the unfiltered list at that moment the filters keep`, async ({
    request,
  }) => {
    await withLivingReference(request, { rate: RATE, readings }, async ({ at, listAll }) => {
      await fc.assert(
        fc.asyncProperty(
          filters,
          fc.option(uid, { nil: undefined }),
          // Up to 360 s: at 4 a second, the calls that have all ended and settled are indexed in chunks from 218 s on, and again from 343 s.
          fc.integer({ min: 0, max: 360 }),
          // Pages of 25 or more: the unfiltered list of a late moment holds about 1,800 calls.
          fc.integer({ min: 25, max: 300 }),
          async (query, onBehalfOf, seconds, perPage) => {
            at(seconds);
            const everything = await listAll({}, 1000);
            const expected = expectedRows(everything.calls.map(asRow), query, onBehalfOf);
            const filtered = await listAll(query, perPage, onBehalfOf);
            expect(sessionIdsOf(filtered.calls)).toEqual(sessionIdsOf(expected));
            expect(filtered.calls).toEqual(expected.map((row) => everything.calls.find((call) => call.sessionId === row.sessionId)));
            for (const [index, page] of filtered.pages.entries()) {
              expect(page.body.meta.pagination).toEqual({
                total: expected.length,
                count: page.body.data.length,
                per_page: perPage,
                current_page: index + 1,
                total_pages: Math.ceil(expected.length / perPage),
              });
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
