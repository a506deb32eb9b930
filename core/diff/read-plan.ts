// What the diff asks both sides: the suite's own reads, drawn with fast-check from the primary's data
// as the property tests draw them, under one seed (the same seed against the same data asks the same
// requests). List Calls under each filter alone and under combinations, pages and page sizes, on
// behalf of sampled users; Get Call on sampled and unknown ids; the authentication cases. Reads only:
// mark-unread's plan, asked where writes are allowed, is write-plan.ts's.
import fc from 'fast-check';
import type { Query } from '../transport/api.ts';
import { ENUMS, filterCombination, filterValue, participantsUnderEveryReading, usableFilters } from '../arbitraries/call-filters.ts';
import { travelsInAHeader, travelsInAPath } from '../transport/header-value.ts';
import { FILTER_NAMES, filterQuery, outsidersOfOneToOne, type FilterName, type Filters } from '../checks/filters.ts';
import { pageOf } from '../checks/pagination.ts';
import { PARTICIPANTS_FILTER_READINGS, participantsFilterCount } from '../checks/readings.ts';
import { stillFor } from '../checks/answer-age.ts';
import { targetClock } from '../checks/settling.ts';
import type { LearnedTarget } from '../learning/learn-target.ts';
import { headerNameCasing } from '../arbitraries/identifiers.ts';
import { derivedToken } from '../transport/secret-tokens.ts';
import type { DiffOperation } from './diff-settings.ts';

/**
 * Which key a planned request carries: the side's own full key, its restricted one, none, one no
 * side knows, or the side's full key with characters added (a key a prefix match lets through).
 */
type PlannedKey = 'full' | 'restricted' | 'none' | 'unknown' | 'extended';

export interface PlannedRequest {
  operation: DiffOperation;
  /** The kind of request (the plan's part it comes from): noise is judged within each kind too (diff-tally.ts). */
  kind: string;
  /** One line naming what is asked, the same on both sides. */
  label: string;
  query?: Query;
  /** The filters the query holds, for the narrowing check (classing.ts). */
  filters?: Filters;
  sessionId?: string;
  /** A sessionId no call has: Get Call is due to answer ERR_CALL_SESSION_NOT_FOUND. */
  unknown?: true;
  key: PlannedKey;
  /** The header the key goes under, in another letter case than `apikey`: it is due to be accepted. */
  apiKeyHeader?: string;
  /** A malformed parameter: the client's mistake, never to be answered with a server error. */
  malformed?: true;
  /** On behalf of a user who joined the call asked for: Get Call is due to find it. */
  inScope?: true;
  onBehalfOf?: string;
  /** Mark-unread, on each side's own fixture (write-plan.ts): asked only where ALLOW_WRITES=true. */
  mark?: PlannedMark;
}

/** Mark-unread on the side's own fixture: the body it carries, and whether it goes on behalf of the fixture's member. */
export interface PlannedMark {
  /** `fixture`: the side's MESSAGE_ID; `unknown-message`: a message id no group holds; else the raw body, sent as it is. */
  body: 'fixture' | 'unknown-message' | { raw: unknown };
  actingUser: boolean;
}

/** A key that no deployment issued: its answers are compared, and it is no secret. */
export const UNKNOWN_KEY = 'calls-conformance-diff-unknown-key';

/** Each side's own full key with characters added, sent as a token its wire resolves (the key never in an exchange). */
export const EXTENDED_KEY = derivedToken('$API_KEY', [{ kind: 'append', text: '-diff-extended' }]);

/** The numeric parameters of List Calls, each asked once with a malformed value. */
const NUMERIC_PARAMETERS = ['participantsCount', 'startedAt', 'endedAt', 'page', 'perPage'] as const;
const MALFORMED_NUMBERS = ['abc', 'NaN', '1.5x', '--1', '1e', 'twelve'];

const described = (query: Query) =>
  Object.keys(query).length === 0
    ? 'List Calls'
    : `List Calls ${Object.entries(query)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('&')}`;

function listing(kind: string, query: Query, extra: Partial<PlannedRequest> = {}): PlannedRequest {
  const label = `${described(query)}${extra.onBehalfOf === undefined ? '' : ` onBehalfOf=${extra.onBehalfOf}`}`;
  return { operation: 'listCalls', kind, label, query, key: 'full', ...extra };
}

/**
 * The values each filter is asked alone with: all of an enumerated one's, two of any other's, the
 * middle of a date's, and each count a telling call is given for participantsCount.
 */
const aloneCount = (name: FilterName) =>
  name in ENUMS
    ? ENUMS[name as keyof typeof ENUMS].length
    : name === 'startedAt' || name === 'endedAt'
      ? 3
      : name === 'participantsCount'
        ? 2 + PARTICIPANTS_FILTER_READINGS.length
        : 2;

/**
 * For participantsCount, each count the readings give the first sampled call they disagree on (one
 * with a never-joined entry, or a user on two devices): only such a count parts the readings, and a
 * target that counts one way for some calls and another way for others shows it there. Drawn counts
 * seldom land on one.
 */
function tellingCounts(name: FilterName, sample: LearnedTarget['sample']): number[] {
  if (name !== 'participantsCount') return [];
  for (const { call } of sample.calls) {
    const counts = new Set(PARTICIPANTS_FILTER_READINGS.map((reading) => participantsFilterCount(call, reading)));
    if (counts.size > 1 && !counts.has(undefined)) return [...counts] as number[];
  }
  return [];
}

/**
 * A date filter's bound in the middle of the times the sample showed: it keeps some calls and drops
 * others, where a drawn bound may keep all or none (a filter then ignored shows nothing).
 */
function middleOf(name: FilterName, sample: LearnedTarget['sample']): number[] {
  const seen = name === 'startedAt' ? sample.values.startedAts : name === 'endedAt' ? sample.values.endedAts : [];
  const sorted = [...seen].sort((a, b) => a - b);
  return sorted.length === 0 ? [] : [sorted[Math.floor(sorted.length / 2)]!];
}

/**
 * The most requests the plan can hold for `runs` (the dry run's count): pages and sizes, each filter
 * alone, the combinations, on behalf of users, Get Call on sampled, unknown and scoped ids, and the
 * authentication cases. Each is asked three times.
 */
export function planBound(runs: number): number {
  const quarter = Math.max(2, runs / 4);
  // Pages 1 to 3, the page after the last as each side counts, and the drawn sizes.
  const pages = 5 + quarter;
  const alone = FILTER_NAMES.reduce((sum, name) => sum + aloneCount(name), 0);
  // Unknown ids (made up, shaped, with unusual characters, long), on behalf of a user, of one who
  // joined and of one outside a one-to-one call, the authentication cases (with the header's case and
  // the extended key), malformed numbers.
  return Math.ceil(pages + alone + runs + quarter + runs + 6 + 2 + 2 + OUTSIDERS + 8 + NUMERIC_PARAMETERS.length);
}

const filtered = (kind: string) => (filters: Filters) => listing(kind, filterQuery(filters), { filters });

type Draws = <T>(arbitrary: fc.Arbitrary<T>, count: number, offset: number) => T[];

const drawsUnder =
  (seed: number): Draws =>
  (arbitrary, count, offset) =>
    fc.sample(arbitrary, { seed: seed + offset, numRuns: count });

/**
 * `runs` draws of each kind, from `learned` (the primary's), under `seed`; `others` (the candidate's
 * learning) add only the page after their own last; `answerAgeSeconds` is MAX_ANSWER_AGE.
 */
export function readPlan(
  learned: LearnedTarget,
  seed: number,
  runs: number,
  restricted: boolean,
  others: readonly LearnedTarget[] = [],
  answerAgeSeconds = 0,
): PlannedRequest[] {
  const { sample, readings, paging } = learned;
  // Get Call asks for calls still for longer than MAX_ANSWER_AGE only (as the suite's own tests do):
  // behind a read replica a call logged just before learning may not be there yet, and a side would
  // be blamed for a call not found.
  const known = { ...learned, sample: { ...sample, calls: stillFor(sample.calls, targetClock(sample.exchanges), answerAgeSeconds) } };
  const draws = drawsUnder(seed);
  // Each filter alone: every value of an enumerated one (the specification lists them all), two drawn for the others.
  const valuesOf = (name: FilterName, index: number): ReadonlyArray<Filters[FilterName]> =>
    name in ENUMS
      ? ENUMS[name as keyof typeof ENUMS]
      : name === 'hasRecording'
        ? [true, false]
        : [...draws(filterValue(name, sample), 2, index), ...middleOf(name, sample), ...tellingCounts(name, sample)];
  const single = usableFilters(readings).flatMap((name, index) =>
    valuesOf(name, index).map((value) => filtered('filter')({ [name]: value })),
  );
  const pairs = draws(filterCombination(sample, readings), runs, 100).map(filtered('filters'));
  const sizes = paging.perPage ? draws(fc.integer({ min: 1, max: 50 }), Math.max(2, runs / 4), 200) : [];
  const pages = [
    listing('pages', {}),
    ...(paging.page ? [listing('pages', { page: 2 }), listing('pages', { page: 3 })] : []),
    ...pagesAfterLast(learned, others),
    ...sizes.map((size) => listing('page-sizes', { [paging.sizeName]: size, ...(paging.page && { page: 2 }) })),
  ];
  const uids = sample.values.uids.length > 0 ? draws(fc.constantFrom(...sample.values.uids), Math.max(2, runs / 4), 300) : [];
  const ids = known.sample.calls.map(({ call }) => String(call.sessionId));
  const sampledIds = ids.length > 0 ? draws(fc.constantFrom(...ids), runs, 400) : [];
  const everyId = sample.calls.map(({ call }) => String(call.sessionId));
  return [
    ...pages,
    ...single,
    ...pairs,
    ...uids.map((uid) => listing('on-behalf-of', {}, { onBehalfOf: uid })),
    ...sampledIds.map((id) => get('get', id)),
    ...unknownIds(draws, everyId, sampledIds).map((id) => get('unknown-id', id, { unknown: true })),
    ...uids
      .slice(0, 2)
      .flatMap((uid, index) => (sampledIds[index] === undefined ? [] : [get('get-on-behalf-of', sampledIds[index], { onBehalfOf: uid })])),
    ...joinedScopes(draws, known).map(({ sessionId, uid }) => get('get-on-behalf-of', sessionId, { onBehalfOf: uid, inScope: true })),
    ...outsiderScopes(draws, known).map(({ sessionId, uid }) => get('get-on-behalf-of', sessionId, { onBehalfOf: uid })),
    ...authCases(draws, restricted, ids[0]),
    ...malformed(draws),
  ];
}

function get(kind: string, sessionId: string, extra: Partial<PlannedRequest> = {}): PlannedRequest {
  const label = `Get Call ${sessionId}${extra.onBehalfOf === undefined ? '' : ` onBehalfOf=${extra.onBehalfOf}`}`;
  return { operation: 'getCall', kind, label, sessionId, key: 'full', ...extra };
}

/**
 * Unknown ids of four shapes: plainly made up, shaped like the target's own (a sampled id, its tail
 * changed), holding characters other than letters and digits, and longer than any id the target shows.
 */
function unknownIds(draws: Draws, ids: readonly string[], sampledIds: readonly string[]): string[] {
  const madeUp = draws(fc.stringMatching(/^[a-z0-9]{8,24}$/), 4, 500);
  const shaped = sampledIds.slice(0, 2).map((id) => `${id.slice(0, -8)}${id.slice(-8).split('').reverse().join('')}0`);
  const unusual = `diff unknown:${madeUp[2]}~`;
  const long = `diff-unknown-${madeUp[3]!.padEnd(24, '0').repeat(4)}`;
  return [...madeUp.slice(0, 2).map((id) => `diff-unknown-${id}`), ...shaped, unusual, long].filter((id) => !ids.includes(id));
}

/** Sampled calls, each with a user who took part in it under every reading (what the suite's own Get Call on-behalf test asks). */
function joinedScopes(draws: Draws, learned: LearnedTarget): Array<{ sessionId: string; uid: string }> {
  const joined = learned.sample.calls.flatMap((seen) => {
    // Not its initiator: a target that finds calls only for who started them is what this shows.
    const [uid] = participantsUnderEveryReading(seen, learned.readings).filter(
      (uid) => uid !== seen.call.initiator && travelsInAHeader(uid),
    );
    return uid === undefined ? [] : [{ sessionId: String(seen.call.sessionId), uid }];
  });
  return joined.length === 0 ? [] : draws(fc.constantFrom(...joined), 2, 600);
}

/**
 * The page after the last of the unfiltered list at its default size, as each side's first page
 * counted them when it was learned (where more than the three pages asked), each page once: no call
 * is due there. A total that stops short of the calls (a capped count) shows only so, the pages
 * before it holding calls either way: what the suite's own walk to the last page finds
 * (pages-partition.ts), asked of both sides so that the answers compare.
 */
function pagesAfterLast(primary: LearnedTarget, others: readonly LearnedTarget[]): PlannedRequest[] {
  if (!primary.paging.page) return [];
  const after = new Set<number>();
  for (const { sample } of [primary, ...others]) {
    const first = sample.firstPage === undefined ? undefined : pageOf(sample.firstPage);
    const size = first?.pagination.per_page ?? first?.items.length;
    if (first === undefined || size === undefined || !(size > 0) || !Number.isSafeInteger(first.pagination.total)) continue;
    const page = Math.ceil(first.pagination.total / size) + 1;
    if (page > 3) after.add(page);
  }
  return [...after].map((page) => listing('pages', { page }));
}

/** Sampled one-to-one calls asked on behalf of a user who neither took part in nor was called in one. */
const OUTSIDERS = 2;

/**
 * Sampled one-to-one calls, each with a user who neither took part in it nor was called (what the
 * suite's own CALLS-GET-ON-BEHALF-OF-SCOPE test asks): Get Call is due not to answer it. Group calls
 * are not asked: group membership is not shown, so no outsider of one is known.
 */
function outsiderScopes(draws: Draws, learned: LearnedTarget): Array<{ sessionId: string; uid: string }> {
  const fetchable = learned.sample.calls.filter(({ call }) => travelsInAPath(call.sessionId));
  const uids = learned.sample.values.uids.filter((uid) => travelsInAHeader(uid));
  const pairs = outsidersOfOneToOne(fetchable, uids, 1).map(({ seen, uid }) => ({ sessionId: String(seen.call.sessionId), uid }));
  return pairs.length === 0 ? [] : draws(fc.constantFrom(...pairs), OUTSIDERS, 650);
}

/** List Calls with each numeric parameter malformed: a client's mistake, never a server error. */
const malformed = (draws: Draws): PlannedRequest[] =>
  NUMERIC_PARAMETERS.map((name, index) => {
    const [value] = draws(fc.constantFrom(...MALFORMED_NUMBERS), 1, 700 + index);
    return listing('malformed', { [name]: value! }, { malformed: true });
  });

function authCases(draws: Draws, restricted: boolean, sessionId: string | undefined): PlannedRequest[] {
  // The header's name in another letter case than the usual one: the key is due to be accepted.
  const [header] = draws(
    headerNameCasing().filter((name) => name !== 'apikey'),
    1,
    800,
  );
  const cases: PlannedRequest[] = [
    { operation: 'listCalls', kind: 'auth', label: 'List Calls without a key', query: {}, key: 'none' },
    { operation: 'listCalls', kind: 'auth', label: 'List Calls with a key no deployment issued', query: {}, key: 'unknown' },
    { operation: 'listCalls', kind: 'auth', label: 'List Calls with the key and characters added', query: {}, key: 'extended' },
    {
      operation: 'listCalls',
      kind: 'header-case',
      label: `List Calls with the key under ${header!}`,
      query: {},
      key: 'full',
      apiKeyHeader: header!,
    },
  ];
  if (sessionId !== undefined)
    cases.push(
      { operation: 'getCall', kind: 'auth', label: 'Get Call without a key', sessionId, key: 'none' },
      { operation: 'getCall', kind: 'auth', label: 'Get Call with a key no deployment issued', sessionId, key: 'unknown' },
      {
        operation: 'getCall',
        kind: 'header-case',
        label: `Get Call with the key under ${header!}`,
        sessionId,
        key: 'full',
        apiKeyHeader: header!,
      },
    );
  if (restricted)
    cases.push({ operation: 'listCalls', kind: 'auth', label: 'List Calls with the restricted key', query: {}, key: 'restricted' });
  return cases;
}
