// What the suite knows of the target's own data before it generates anything: a fixed, small set
// of list pages (unfiltered, and one per status and receiver type so that every kind of call is
// seen even when the newest page holds one kind). Generators draw their values from here, so that
// filtered queries are not always empty. A few of the sampled calls are also fetched alone (Get Call),
// once per run: the field and invariant tests judge those answers with the lists, where each of them
// used to fetch the same calls again. Its cost does not depend on the size of the target's data.
import { lastMomentOf } from '../checks/settling.ts';
import { callsIn, participantsOf, type SeenCall } from '../checks/calls-in.ts';
import { participantsFilterCount, type Readings } from '../checks/readings.ts';
import type { Query } from '../transport/api.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { ListingApi } from './listing-api.ts';
import { listBlocker, type Blocker } from './list-blocker.ts';
import { travelsInAPath } from '../transport/header-value.ts';

const SAMPLE_QUERIES: readonly Query[] = [
  {},
  ...['initiated', 'ongoing', 'ended', 'unanswered', 'rejected', 'canceled'].map((status) => ({ status })),
  { receiverType: 'group' },
  { hasRecording: true },
];

export interface SampledCalls {
  /** The requirement the target broke when it did not list a page of calls: what needs calls cannot be judged. */
  blocked: Blocker | undefined;
  exchanges: readonly Exchange[];
  /** Calls seen, one per sessionId. */
  calls: readonly SeenCall[];
  /** The unfiltered first page. */
  firstPage: Exchange | undefined;
}

export interface FilterValues {
  uids: readonly string[];
  /** The calls' participant counts under every count reading the target may follow. */
  participantsCounts: readonly number[];
  startedAts: readonly number[];
  endedAts: readonly number[];
}

export interface TargetSample extends SampledCalls {
  values: FilterValues;
  /** Get Call's answers for the calls fetched alone (fetchAlone), in the order asked. */
  fetched: readonly Exchange[];
}

export async function sampleCalls(api: ListingApi): Promise<SampledCalls> {
  const exchanges = await Promise.all(SAMPLE_QUERIES.map((query) => api.listCalls(query)));
  const firstPage = exchanges[0]!;
  const blocked = listBlocker(firstPage);

  const bySession = new Map<unknown, SeenCall>();
  for (const exchange of exchanges) {
    for (const seen of callsIn(exchange)) if (!bySession.has(seen.call.sessionId)) bySession.set(seen.call.sessionId, seen);
  }
  return { blocked, exchanges, calls: [...bySession.values()], firstPage };
}

/**
 * The first two calls sampled, and the two with a recording whose last moment is oldest (Get Call may show recordings
 * where the list does not), each fetched alone, all at once. Get Call's envelope is learned from
 * these answers (get-call-envelope.ts).
 */
export async function fetchAlone(api: ListingApi, sampled: readonly SeenCall[]): Promise<Exchange[]> {
  // Only calls a URL can ask for (header-value.ts): an id with a lone surrogate is the schema's to fail.
  const calls = sampled.filter(({ call }) => travelsInAPath(call.sessionId));
  // The recorded calls still the longest: behind a read replica Get Call answers from some seconds
  // back (checks/answer-age.ts), before a recording that has just settled was there.
  const still = ({ call }: SeenCall) => lastMomentOf(call) ?? Number.POSITIVE_INFINITY;
  const recorded = calls
    .filter(({ call }) => call.hasRecording === true)
    .sort((a, b) => still(a) - still(b))
    .slice(0, 2);
  const sessionIds = new Set([...calls.slice(0, 2), ...recorded].map(({ call }) => String(call.sessionId)));
  return Promise.all([...sessionIds].map((sessionId) => api.getCall(sessionId)));
}

/** The filter values the sampled calls hold, counts under the readings the target follows. */
export function filterValuesOf(calls: readonly SeenCall[], readings: Readings): FilterValues {
  const distinct = <T>(values: Array<T | undefined>, keep: (value: unknown) => value is T) => [...new Set(values.filter(keep))].sort();
  // A lone surrogate cannot be put in a URL (encodeURIComponent refuses it): no filter value can hold one.
  const isString = (value: unknown): value is string =>
    typeof value === 'string' && value !== '' && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  const isInteger = (value: unknown): value is number => Number.isInteger(value);
  return {
    uids: distinct(
      calls.flatMap(({ call }) => participantsOf(call).map((participant) => participant.uid as string | undefined)),
      isString,
    ),
    participantsCounts: distinct(
      calls.flatMap(({ call }) => readings.participantsFilter.map((reading) => participantsFilterCount(call, reading))),
      isInteger,
    ),
    startedAts: distinct(
      calls.map(({ call }) => call.startedAt as number | undefined),
      isInteger,
    ),
    endedAts: distinct(
      calls.map(({ call }) => call.endedAt as number | undefined),
      isInteger,
    ),
  };
}
