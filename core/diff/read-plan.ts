// What the diff asks both sides: the suite's own reads, drawn with fast-check from the primary's data
// as the property tests draw them, under one seed (the same seed against the same data asks the same
// requests). List Calls under each filter alone and under combinations, pages and page sizes, on
// behalf of sampled users; Get Call on sampled and unknown ids; the authentication cases. Reads only.
import fc from 'fast-check';
import type { Query } from '../transport/api.ts';
import { ENUMS, filterCombination, filterValue, usableFilters } from '../arbitraries/call-filters.ts';
import { FILTER_NAMES, filterQuery, type FilterName, type Filters } from '../checks/filters.ts';
import type { LearnedTarget } from '../learning/learn-target.ts';
import type { DiffOperation } from './diff-settings.ts';

/** Which key a planned request carries: the side's own full key, its restricted one, none, or one no side knows. */
type PlannedKey = 'full' | 'restricted' | 'none' | 'unknown';

export interface PlannedRequest {
  operation: DiffOperation;
  /** One line naming what is asked, the same on both sides. */
  label: string;
  query?: Query;
  /** The filters the query holds, for the narrowing check (classing.ts). */
  filters?: Filters;
  sessionId?: string;
  /** A sessionId no call has: Get Call is due to answer ERR_CALL_SESSION_NOT_FOUND. */
  unknown?: true;
  key: PlannedKey;
  onBehalfOf?: string;
}

/** A key that no deployment issued: its answers are compared, and it is no secret. */
export const UNKNOWN_KEY = 'calls-conformance-diff-unknown-key';

const described = (query: Query) =>
  Object.keys(query).length === 0
    ? 'List Calls'
    : `List Calls ${Object.entries(query)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('&')}`;

function listing(query: Query, extra: Partial<PlannedRequest> = {}): PlannedRequest {
  const label = `${described(query)}${extra.onBehalfOf === undefined ? '' : ` onBehalfOf=${extra.onBehalfOf}`}`;
  return { operation: 'listCalls', label, query, key: 'full', ...extra };
}

/** The values each filter is asked alone with: all of an enumerated one's, two of any other's. */
const aloneCount = (name: FilterName) => (name in ENUMS ? ENUMS[name as keyof typeof ENUMS].length : 2);

/**
 * The most requests the plan can hold for `runs` (the dry run's count): pages and sizes, each filter
 * alone, the combinations, on behalf of users, Get Call on sampled, unknown and scoped ids, and the
 * authentication cases. Each is asked three times.
 */
export function planBound(runs: number): number {
  const quarter = Math.max(2, runs / 4);
  const pages = 3 + quarter;
  const alone = FILTER_NAMES.reduce((sum, name) => sum + aloneCount(name), 0);
  return Math.ceil(pages + alone + runs + quarter + runs + 4 + 2 + 4);
}

const filtered = (filters: Filters) => listing(filterQuery(filters), { filters });

/** `runs` draws of each kind, from `learned` (the primary's), under `seed`. */
export function readPlan(learned: LearnedTarget, seed: number, runs: number, restricted: boolean): PlannedRequest[] {
  const { sample, readings, paging } = learned;
  const draws = <T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number) =>
    fc.sample(arbitrary, { seed: seed + offset, numRuns: count });
  // Each filter alone: every value of an enumerated one (the specification lists them all), two drawn for the others.
  const valuesOf = (name: FilterName, index: number): ReadonlyArray<Filters[FilterName]> =>
    name in ENUMS
      ? ENUMS[name as keyof typeof ENUMS]
      : name === 'hasRecording'
        ? [true, false]
        : draws(filterValue(name, sample), 2, index);
  const single = usableFilters(readings).flatMap((name, index) => valuesOf(name, index).map((value) => filtered({ [name]: value })));
  const pairs = draws(filterCombination(sample, readings), runs, 100).map(filtered);
  const sizes = paging.perPage ? draws(fc.integer({ min: 1, max: 50 }), Math.max(2, runs / 4), 200) : [];
  const pages = [
    listing({}),
    ...(paging.page ? [listing({ page: 2 }), listing({ page: 3 })] : []),
    ...sizes.map((size) => listing({ [paging.sizeName]: size, ...(paging.page && { page: 2 }) })),
  ];
  const uids = sample.values.uids.length > 0 ? draws(fc.constantFrom(...sample.values.uids), Math.max(2, runs / 4), 300) : [];
  const ids = sample.calls.map(({ call }) => String(call.sessionId));
  const sampledIds = ids.length > 0 ? draws(fc.constantFrom(...ids), runs, 400) : [];
  // Unknown ids of two shapes: plainly made up, and shaped like the target's own (a sampled id, its tail changed).
  const madeUp = draws(fc.stringMatching(/^[a-z0-9]{8,24}$/), 2, 500).map((id) => `diff-unknown-${id}`);
  const shaped = sampledIds.slice(0, 2).map((id) => `${id.slice(0, -8)}${id.slice(-8).split('').reverse().join('')}0`);
  const get = (sessionId: string, extra: Partial<PlannedRequest> = {}): PlannedRequest => ({
    operation: 'getCall',
    label: `Get Call ${sessionId}${extra.onBehalfOf === undefined ? '' : ` onBehalfOf=${extra.onBehalfOf}`}`,
    sessionId,
    key: 'full',
    ...extra,
  });
  return [
    ...pages,
    ...single,
    ...pairs,
    ...uids.map((uid) => listing({}, { onBehalfOf: uid })),
    ...sampledIds.map((id) => get(id)),
    ...[...madeUp, ...shaped].filter((id) => !ids.includes(id)).map((id) => get(id, { unknown: true })),
    ...uids.slice(0, 2).flatMap((uid, index) => (sampledIds[index] === undefined ? [] : [get(sampledIds[index], { onBehalfOf: uid })])),
    ...authCases(restricted, ids[0]),
  ];
}

function authCases(restricted: boolean, sessionId: string | undefined): PlannedRequest[] {
  const cases: PlannedRequest[] = [
    { operation: 'listCalls', label: 'List Calls without a key', query: {}, key: 'none' },
    { operation: 'listCalls', label: 'List Calls with a key no deployment issued', query: {}, key: 'unknown' },
  ];
  if (sessionId !== undefined) cases.push({ operation: 'getCall', label: 'Get Call without a key', sessionId, key: 'none' });
  if (restricted) cases.push({ operation: 'listCalls', label: 'List Calls with the restricted key', query: {}, key: 'restricted' });
  return cases;
}
