// What the nine List Calls filters mean for one call, and the check that every call a filtered
// list returns matches every filter it was asked for (specification 4.1). Where the words leave a
// filter's meaning open (the date filters' semantics, the count behind participantsCount, who took
// part for uid), a call is judged under the readings the suite found the target to follow.
import type { Exchange } from '../transport/exchange.ts';
import { participantsOf, type CallObject, type SeenCall } from './calls-in.ts';
import { comparedFields, dateReadingMatches, describeDateReadings, type DateField } from './dates.ts';
import { participantsFilterCount, tookPartIndex, tookPartUnder, tookPartUnderAny, type Readings } from './readings.ts';
import { travelsInAHeader } from '../transport/header-value.ts';
import { shown, type Violation } from './violation.ts';
import { pageOf } from './pagination.ts';

export const FILTER_NAMES = [
  'type',
  'mode',
  'status',
  'receiverType',
  'participantsCount',
  'startedAt',
  'endedAt',
  'hasRecording',
  'uid',
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export interface Filters {
  type?: string;
  mode?: string;
  status?: string;
  receiverType?: string;
  participantsCount?: number;
  startedAt?: number;
  endedAt?: number;
  hasRecording?: boolean;
  uid?: string;
}

export type { DateField };

export const FILTER_REQUIREMENTS: Readonly<Record<FilterName, string>> = {
  type: 'CALLS-LIST-FILTER-TYPE',
  mode: 'CALLS-LIST-FILTER-MODE',
  status: 'CALLS-LIST-FILTER-STATUS',
  receiverType: 'CALLS-LIST-FILTER-RECEIVER-TYPE',
  participantsCount: 'CALLS-LIST-FILTER-PARTICIPANTS-COUNT',
  startedAt: 'CALLS-LIST-FILTER-STARTED-AT',
  endedAt: 'CALLS-LIST-FILTER-ENDED-AT',
  hasRecording: 'CALLS-LIST-FILTER-HAS-RECORDING',
  uid: 'CALLS-LIST-FILTER-UID',
};

/** A uid took part in a call under the widest reading: it has a participant entry or initiated the call. */
export function tookPart(call: CallObject, uid: string): boolean {
  return tookPartUnder(call, uid, 'any-entry');
}

export function matchesFilter(call: CallObject, name: FilterName, value: Filters[FilterName], readings: Readings): boolean {
  switch (name) {
    // Without the entries listed, the call's own totalParticipants is all there is to judge by.
    case 'participantsCount':
      return Array.isArray(call.participants)
        ? readings.participantsFilter.some((reading) => participantsFilterCount(call, reading) === value)
        : call.totalParticipants === value;
    case 'uid':
      return tookPartUnderAny(call, String(value), readings.tookPart);
    case 'startedAt':
    case 'endedAt':
      return readings.dates[name].some((reading) => dateReadingMatches(call, name, value as number, reading));
    default:
      return call[name] === value;
  }
}

export function givenFilters(filters: Filters): FilterName[] {
  return FILTER_NAMES.filter((name) => filters[name] !== undefined);
}

/** The query string form of filters, as the client sends them. */
export function filterQuery(filters: Filters): Record<string, string | number | boolean> {
  return Object.fromEntries(givenFilters(filters).map((name) => [name, filters[name]!]));
}

/**
 * Every returned call matches every filter; with several filters a mismatch breaks AND-narrowing,
 * with one it breaks that filter's own requirement.
 */
export function filterNarrowing(exchange: Exchange, calls: readonly SeenCall[], filters: Filters, readings: Readings): Violation[] {
  const names = givenFilters(filters);
  const violations: Violation[] = [];
  for (const seen of calls) {
    const missed = names.filter((name) => !matchesFilter(seen.call, name, filters[name], readings));
    if (missed.length === 0) continue;
    const requirement = names.length > 1 ? 'CALLS-LIST-AND-NARROWING' : FILTER_REQUIREMENTS[missed[0]!];
    violations.push({
      check: 'filter_narrowing',
      requirement,
      title: `call ${shown(seen.call.sessionId)} was returned for ${describeFilters(filters)} but does not match ${missed.join(', ')}`,
      expected: `every call matches ${missed.map((name) => describeExpectation(name, filters[name], readings)).join(' and ')}`,
      received:
        missed.map((name) => `${name === 'uid' ? 'participants' : name} ${shown(observed(seen.call, name, readings))}`).join(', ') +
        ` at ${seen.pointer}`,
      exchange,
    });
  }
  return violations;
}

/**
 * onBehalfOf scopes every returned call to that user (specification 4.1, 5: "calls are scoped to
 * that user"). A one-to-one call is in a user's scope when the user took part in it under the widest
 * reading, or was the one called. A group call is never judged out of scope: a scope that takes in
 * the calls addressed to the user's groups is a reading the words allow, and group membership is not
 * shown, so no answer can prove a user outside the group.
 */
export function onBehalfOfScope(exchange: Exchange, calls: readonly SeenCall[], uid: string): Violation[] {
  return calls
    .filter((seen) => outsideOneToOne(seen.call, uid))
    .map((seen) => ({
      check: 'on_behalf_of_scope',
      requirement: 'CALLS-LIST-ON-BEHALF-OF',
      title: `one-to-one call ${shown(seen.call.sessionId)} was returned on behalf of ${uid}, who neither took part in it nor was called`,
      expected: `only calls in which ${uid} took part, was called, or (group calls) may be a member of the group`,
      received: `initiator ${shown(seen.call.initiator)}, receiver ${shown(seen.call.receiver)}, participants ${shown(participantsOf(seen.call).map((participant) => participant.uid))}`,
      exchange,
    }));
}

/**
 * Get Call on behalf of a user is scoped as List Calls is ("as in 4.1"): it answers no one-to-one call
 * the user neither took part in nor was called in. Which error it answers instead is not shown.
 */
export function getOnBehalfOfScope(exchange: Exchange, calls: readonly SeenCall[], uid: string): Violation[] {
  return calls
    .filter((seen) => outsideOneToOne(seen.call, uid))
    .map((seen) => ({
      check: 'get_on_behalf_of_scope',
      requirement: 'CALLS-GET-ON-BEHALF-OF-SCOPE',
      title: `Get Call answered one-to-one call ${shown(seen.call.sessionId)} on behalf of ${uid}, who neither took part in it nor was called`,
      expected: 'the call not returned (any error: which one is not shown)',
      received: `status ${exchange.response.status} with the call: initiator ${shown(seen.call.initiator)}, receiver ${shown(seen.call.receiver)}`,
      exchange,
    }));
}

/** A one-to-one call that `uid` neither took part in (any entry, or the initiator) nor was called in. */
export function outsideOneToOne(call: CallObject, uid: string): boolean {
  return outsidersOf(call)?.(uid) ?? false;
}

/**
 * Whether a user is outside a one-to-one call, its entries read once (tookPartIndex) for however many
 * users are asked; undefined for a call that is not one-to-one, which has no outsiders the words show.
 */
function outsidersOf(call: CallObject): ((uid: string) => boolean) | undefined {
  if (call.receiverType !== 'user') return undefined;
  const tookPartIn = tookPartIndex(call);
  return (uid) => uid !== call.receiver && !tookPartIn(uid, 'any-entry');
}

/**
 * Pairs of a sampled one-to-one call and a user outside it (outsideOneToOne) that a header can carry,
 * at most `each` users a call, in the order of `uids`. Linear in what was read: each call's entries
 * are read once and the users only until `each` are found, so a call of 100,000 entries asked of
 * 100,000 users costs what reading them costs, not their product.
 */
export function outsidersOfOneToOne(calls: readonly SeenCall[], uids: readonly string[], each = 2): Array<{ seen: SeenCall; uid: string }> {
  const pairs: Array<{ seen: SeenCall; uid: string }> = [];
  for (const seen of calls) {
    const outside = outsidersOf(seen.call);
    if (outside === undefined) continue;
    let found = 0;
    for (let at = 0; at < uids.length && found < each; at += 1) {
      const uid = uids[at]!;
      if (!outside(uid) || !travelsInAHeader(uid)) continue;
      pairs.push({ seen, uid });
      found += 1;
    }
  }
  return pairs;
}

export function describeFilters(filters: Filters): string {
  const names = givenFilters(filters);
  return names.length === 0 ? 'no filter' : names.map((name) => `${name}=${String(filters[name])}`).join('&');
}

function describeExpectation(name: FilterName, value: Filters[FilterName], readings: Readings): string {
  if (name === 'startedAt' || name === 'endedAt') return describeDateReadings(name, readings.dates[name], value);
  if (name === 'uid') return `uid ${String(value)} taking part (${readings.tookPart.join(' or ')})`;
  if (name === 'participantsCount') return `exactly ${String(value)} participants (counting ${readings.participantsFilter.join(' or ')})`;
  return `${name} = ${String(value)}`;
}

function observed(call: CallObject, name: FilterName, readings: Readings): unknown {
  if (name === 'uid')
    return {
      initiator: call.initiator,
      participants: participantsOf(call).map(
        (participant) => `${String(participant.uid)}${participant.isJoined === true ? '' : ' (never joined)'}`,
      ),
    };
  if (name === 'participantsCount')
    return Object.fromEntries(readings.participantsFilter.map((reading) => [reading, participantsFilterCount(call, reading)]));
  // Where the startedAt filter may read initiatedAt, the call's initiatedAt is shown beside it.
  if (name === 'startedAt' || name === 'endedAt') {
    const fields = comparedFields(name, readings.dates[name]);
    return fields.length === 1 ? call[name] : Object.fromEntries(fields.map((field) => [field, call[field]]));
  }
  return call[name];
}

/**
 * Every call has exactly one value of an enumerated field, so the totals of the lists filtered by
 * each value add up to the unfiltered total. More means a filter let in calls of another value
 * (that filter's requirement), fewer that one dropped calls it matches (completeness).
 */
export function valueTotalsPartition(
  name: FilterName,
  unfiltered: Exchange,
  byValue: ReadonlyArray<{ value: string | boolean; exchange: Exchange }>,
): Violation[] {
  const total = pageOf(unfiltered)?.pagination.total;
  const totals = byValue.map(({ value, exchange }) => ({ value, exchange, total: pageOf(exchange)?.pagination.total }));
  if (typeof total !== 'number' || totals.some((entry) => typeof entry.total !== 'number')) return [];
  const sum = totals.reduce((acc, entry) => acc + entry.total!, 0);
  if (sum === total) return [];
  const largest = totals.reduce((a, b) => (b.total! > a.total! ? b : a));
  return [
    {
      check: 'value_totals_partition',
      requirement: sum > total ? FILTER_REQUIREMENTS[name] : 'CALLS-LIST-FILTER-COMPLETENESS',
      title: `the totals of ${name}=${totals.map((entry) => String(entry.value)).join('|')} add up to ${sum}, not to the unfiltered total ${total}`,
      expected: `${total} calls over all values of ${name}, each call counted under its own value`,
      received: totals.map((entry) => `${name}=${String(entry.value)}: ${entry.total}`).join(', '),
      exchange: sum > total ? largest.exchange : unfiltered,
    },
  ];
}
