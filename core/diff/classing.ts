// Every difference classed against the words (docs/diff.md): the suite's own pure checks run on
// both answers. The candidate breaks a requirement the primary meets: a regression, the requirement
// named. The reverse: a fix. Both conform but a reading learned of each side differs: a reading that
// changed. Both conform and the words are silent: a behaviour change.
import type { Contract } from '../../openapi/contract.ts';
import { checkExchange, type ExchangeContext } from '../checks/index.ts';
import { callsIn } from '../checks/calls-in.ts';
import { errorCode, listAnswered, noServerError, successStatus } from '../checks/errors.ts';
import { describeFilters, filterNarrowing, getOnBehalfOfScope, givenFilters, matchesFilter, onBehalfOfScope } from '../checks/filters.ts';
import { pageOf } from '../checks/pagination.ts';
import { getCallIdentity } from '../checks/get-matches-list.ts';
import { settledBy, targetClock } from '../checks/settling.ts';
import type { Readings } from '../checks/readings.ts';
import type { SchemaRequirementIndex } from '../checks/schema-requirements.ts';
import { shown, type Violation } from '../checks/violation.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { PlannedRequest } from './read-plan.ts';

type VerdictClass = 'regression' | 'fix' | 'reading-changed' | 'behaviour-change';

export interface Classed {
  verdict: VerdictClass;
  /** The requirements one side breaks and the other meets (regression, fix), or the readings that differ. */
  because: string[];
}

/** What a side's answers are judged by: the contract, and the readings learned of that side. */
export interface SideJudging {
  contract: Contract;
  schemaRequirements: SchemaRequirementIndex;
  readings: Readings;
  settleSeconds: number;
}

/** The errors a planned request is due, by requirement: what the suite's auth and not-found tests check. */
const DUE_ERRORS: ReadonlyArray<{ applies: (request: PlannedRequest) => boolean; code: string; requirement: string }> = [
  { applies: (request) => request.key === 'none', code: 'AUTH_ERR_EMPTY_APIKEY', requirement: 'AUTH-EMPTY-KEY' },
  {
    applies: (request) => request.key === 'unknown' || request.key === 'extended',
    code: 'AUTH_ERR_APIKEY_NOT_FOUND',
    requirement: 'AUTH-INVALID-KEY',
  },
  {
    applies: (request) => request.unknown === true && request.key === 'full',
    code: 'ERR_CALL_SESSION_NOT_FOUND',
    requirement: 'CALLS-GET-NOT-FOUND',
  },
];

/**
 * Every violation the suite's pure checks find in one answer to `request`, judged as that side reads
 * the words; `other` is the other side's answer to the same request, which shows calls this one may lack.
 */
export function violationsOf(request: PlannedRequest, exchange: Exchange, other: Exchange, judging: SideJudging): Violation[] {
  const context: ExchangeContext = { ...judging };
  const due = DUE_ERRORS.filter(({ applies }) => applies(request)).flatMap(({ code, requirement }) =>
    errorCode(exchange, code, requirement),
  );
  const success = [
    ...(plainAsk(request) ? successStatus(exchange, 'AUTH-APIKEY-HEADER', `${request.label} with a valid key`) : []),
    ...(request.apiKeyHeader === undefined ? [] : successStatus(exchange, 'AUTH-HEADER-NAME-CASE-INSENSITIVE', request.label)),
    ...(request.inScope === true ? successStatus(exchange, 'CALLS-GET-ON-BEHALF-OF', request.label) : []),
    ...(request.malformed === true ? noServerError(exchange, request.label) : []),
    // A known call asked for is the call answered (the suite's Get Call test checks the same).
    ...(request.operation === 'getCall' && request.unknown !== true ? getCallIdentity(exchange, request.sessionId, 'CALLS-GET-OK') : []),
    // A filter value the specification allows is answered with a list, not refused.
    ...(request.filters === undefined ? [] : listAnswered(exchange, request.label)),
    // The list's own pages are answered 200, as the suite's List Calls test asks.
    ...(request.kind === 'pages' ? listAnswered(exchange, request.label, 'CALLS-LIST-OK') : []),
  ];
  const narrowing = request.filters ? filterNarrowing(exchange, callsIn(exchange), request.filters, judging.readings) : [];
  return [
    ...checkExchange(exchange, context),
    ...due,
    ...success,
    ...narrowing,
    ...scope(request, exchange),
    ...missingMatches(request, exchange, other, judging),
  ];
}

/**
 * The side's own key under the usual header on the plainest ask of each operation (List Calls
 * unfiltered, Get Call on a sampled call, no one acted for): what the suite's AUTH-APIKEY-HEADER test
 * asks, and due a success whatever else the target does.
 */
function plainAsk(request: PlannedRequest): boolean {
  if (request.key !== 'full' || request.apiKeyHeader !== undefined || request.onBehalfOf !== undefined) return false;
  return request.operation === 'listCalls'
    ? Object.keys(request.query ?? {}).length === 0
    : request.unknown !== true && request.sessionId !== undefined;
}

/** On behalf of a user, List Calls and Get Call answer only calls in that user's scope. */
function scope(request: PlannedRequest, exchange: Exchange): Violation[] {
  if (request.onBehalfOf === undefined) return [];
  const check = request.operation === 'listCalls' ? onBehalfOfScope : getOnBehalfOfScope;
  return check(exchange, callsIn(exchange), request.onBehalfOf);
}

/** Whether the answer holds every call it counts: nothing it lacks can be on another page. */
const whole = (exchange: Exchange) => {
  const page = pageOf(exchange);
  return page !== undefined && page.pagination.total === page.items.length;
};

/**
 * A filtered list that lacks a call the other side listed, which matches every filter as this side
 * reads them and had settled (so it cannot have moved between the asks), where both answers hold all
 * they count: this side left out a call its own filters keep (what the suite's search for a sampled
 * call finds, with the other side's answer as the search).
 */
function missingMatches(request: PlannedRequest, exchange: Exchange, other: Exchange, judging: SideJudging): Violation[] {
  const { filters } = request;
  if (filters === undefined || !whole(exchange) || !whole(other)) return [];
  const listed = new Set(callsIn(exchange).map(({ call }) => call.sessionId));
  const clock = targetClock([exchange, other]);
  const names = givenFilters(filters);
  const missing = callsIn(other).filter(
    ({ call }) =>
      !listed.has(call.sessionId) &&
      settledBy(call, clock, judging.settleSeconds) &&
      names.every((name) => matchesFilter(call, name, filters[name], judging.readings)),
  );
  if (missing.length === 0) return [];
  return [
    {
      check: 'filter_completeness',
      requirement: 'CALLS-LIST-FILTER-COMPLETENESS',
      title: `${missing.length} settled call(s) matching ${describeFilters(filters)} were not listed`,
      expected: 'every settled call that matches the filters listed, as the other side lists it',
      received: `missing ${shown(missing.slice(0, 3).map(({ call }) => call.sessionId))}`,
      exchange,
    },
  ];
}

const requirementsOf = (violations: readonly Violation[]) => new Set(violations.map(({ requirement }) => requirement));

/**
 * The class of a difference seen in these pairs (each the primary's and the candidate's answer to
 * one request, with the violations found in each), given the readings that differ between the sides.
 */
export function classDifference(
  pairs: ReadonlyArray<{ primary: readonly Violation[]; candidate: readonly Violation[] }>,
  readingsChanged: readonly string[],
): Classed {
  const broken = { byCandidate: new Set<string>(), byPrimary: new Set<string>() };
  for (const pair of pairs) {
    const [primary, candidate] = [requirementsOf(pair.primary), requirementsOf(pair.candidate)];
    for (const id of candidate) if (!primary.has(id)) broken.byCandidate.add(id);
    for (const id of primary) if (!candidate.has(id)) broken.byPrimary.add(id);
  }
  if (broken.byCandidate.size > 0) return { verdict: 'regression', because: [...broken.byCandidate].sort() };
  if (broken.byPrimary.size > 0) return { verdict: 'fix', because: [...broken.byPrimary].sort() };
  if (readingsChanged.length > 0) return { verdict: 'reading-changed', because: [...readingsChanged] };
  return { verdict: 'behaviour-change', because: [] };
}
