// Passive judging as a table of rules (passive/judge.ts runs it on each exchange): each entry names
// the requirements it judges, which exchanges it applies to and how it judges them, with the same
// pure checks the active suite runs (core/checks). The entries run in the order of the table, and
// the order matters: the reports list requirements in the order they were first judged, and keep
// the first violations of each.
import { checkExchange, CALL_INVARIANTS, type ExchangeContext } from '../core/checks/index.ts';
import { callsIn, isSuccess, type SeenCall } from '../core/checks/calls-in.ts';
import {
  errorCode,
  errorStatus,
  answerErrorCodes,
  DEPLOYED_STATUS,
  listAnswered,
  noServerError,
  successStatus,
} from '../core/checks/errors.ts';
import {
  FILTER_NAMES,
  FILTER_REQUIREMENTS,
  filterNarrowing,
  getOnBehalfOfScope,
  onBehalfOfScope,
  type FilterName,
  type Filters,
} from '../core/checks/filters.ts';
import { getCallIdentity } from '../core/checks/get-matches-list.ts';
import { shown, type Violation } from '../core/checks/violation.ts';
import { headerOf, type Exchange } from '../core/transport/exchange.ts';
import type { OperationId } from '../openapi/contract.ts';
import { getMatchesListOverTime, momentOf, orderOf, surelyBefore, type KeptAnswer, type Span } from './over-time.ts';
import type { RequirementTallies } from './requirement-tallies.ts';
import type { ListingWalks, WalkSink } from './listing-walks.ts';
import { later, slim, sooner, type Sighting, type Sightings } from './sightings.ts';

/** An exchange as the judge takes it from a recording, redacted, before it is judged. */
export interface Pending {
  exchange: Exchange;
  source: string;
  sessionId?: string;
  bodyAbsent: boolean;
  /** When it happened, as the recording says; undefined when it gave no time. */
  span?: Span;
  apiKeyHash?: string;
  hasApiKey: boolean;
  /** A credential other than the apikey header (authorization, a token, a cookie). */
  otherCredential: boolean;
}

/** What the rules read of one exchange, worked out once. */
interface ExchangeFacts {
  pending: Pending;
  exchange: Exchange;
  source: string;
  operation: OperationId;
  /** The target's origin: what is kept across exchanges is kept per host. */
  host: string;
  success: boolean;
  /** The error codes its body carries (none when the body was not recorded). */
  codes: string[];
  /** A request that carried an apikey header and whose key the target refused. */
  keyRefused: boolean;
  /** The calls its answer shows (none when the body was not recorded). */
  calls: SeenCall[];
  ctx: ExchangeContext;
  /** Where and when it happened, as a sighting is kept. */
  sighting: Sighting;
}

/** What the rules judge with: the tallies they count into and what is kept across exchanges. */
export interface Bench {
  tallies: RequirementTallies;
  sightings: Sightings;
  /** The field requirements of a call and its participants: every call seen is judged against them by the schema check. */
  fieldRequirements: readonly string[];
  settleSeconds: number | undefined;
  /** Whether Get Call's envelope is learned yet. */
  envelopeKnown: () => boolean;
  /** A Get Call answer judged for the envelope once it is learned. */
  awaitEnvelope: (exchange: Exchange, source: string) => void;
  /** The pages of each listing, judged together when their walk closes (listing-walks.ts), and what they report into. */
  walks: ListingWalks;
  walkSink: WalkSink;
}

interface ExchangeRule {
  /** The requirements it judges (the checks say which one each violation breaks). */
  requirements: readonly string[];
  /**
   * What traffic must hold for it to judge, which a report names for a requirement no exchange
   * showed: one text for all its requirements, or one each. Absent where another rule of the same
   * requirements says it. A requirement's texts are those of all its rules.
   */
  shows?: string | Readonly<Record<string, string>>;
  /** Why nothing less than what it shows will do, where a reader would ask (a refusal may answer a client's mistake). */
  onlyBecause?: string;
  /** Judged on exchanges whose answer's body was recorded only, or on every exchange (by what its status shows). */
  needsBody: boolean;
  appliesTo: (facts: ExchangeFacts) => boolean;
  judge: (facts: ExchangeFacts, bench: Bench) => void;
}

const hostOf = (url: string) => new URL(url).origin;

export function factsOf(pending: Pending, ctx: ExchangeContext): ExchangeFacts {
  const { exchange, source } = pending;
  const host = hostOf(exchange.request.url);
  const success = isSuccess(exchange);
  const codes = pending.bodyAbsent ? [] : answerErrorCodes(exchange);
  // A request that carried an apikey header (any key, a recording's placeholder too: the header was
  // there) and whose key the target refused: the key was present, so not valid, and
  // AUTH_ERR_APIKEY_NOT_FOUND is the error (AUTH-INVALID-KEY); AUTH_ERR_EMPTY_APIKEY says it was absent.
  const keyRefused =
    pending.hasApiKey && (codes.includes('AUTH_ERR_EMPTY_APIKEY') || codes.includes('AUTH_ERR_APIKEY_NOT_FOUND')) && !success;
  return {
    pending,
    exchange,
    source,
    operation: exchange.operation,
    host,
    success,
    codes,
    keyRefused,
    calls: pending.bodyAbsent ? [] : callsIn(exchange),
    ctx,
    sighting: { source, ...(pending.span && { span: pending.span }) },
  };
}

/** Runs every rule of the table that applies to an exchange, in the table's order. */
export function judgeByRules(facts: ExchangeFacts, bench: Bench): void {
  for (const rule of EXCHANGE_RULES) {
    if (rule.needsBody && facts.pending.bodyAbsent) continue;
    if (rule.appliesTo(facts)) rule.judge(facts, bench);
  }
}

const succeededAt =
  (operation: OperationId) =>
  ({ success, operation: its }: ExchangeFacts): boolean =>
    success && its === operation;

const onBehalfOfIn = (exchange: Exchange): string | undefined => {
  const onBehalfOf = headerOf(exchange.request.headers, 'onBehalfOf')?.[1];
  return onBehalfOf !== undefined && onBehalfOf !== '' ? onBehalfOf : undefined;
};
/** Whether the request carried an onBehalfOf header at all, empty too (its name in any letter case). */
const scoped = (exchange: Exchange): boolean => headerOf(exchange.request.headers, 'onBehalfOf') !== undefined;

/** The date filters' meaning is learned by probes a recording does not hold (passive/not-judged.ts says so): not judged. */
const JUDGED_FILTERS = FILTER_NAMES.filter((name) => name !== 'startedAt' && name !== 'endedAt');

/** What calls a successful answer shows: the invariants and the catalog's field requirements of calls are judged on them. */
export const CALLS_SHOWN_BY = 'a successful List Calls or Get Call answer carrying calls';

/** What List Calls shows of its pagination and ids, judged on every successful answer. */
const LIST_PAGE_REQUIREMENTS = [
  'CALLS-LIST-OK',
  'PAGINATION-ENVELOPE',
  'PAGINATION-COUNT-IS-PAGE-SIZE',
  'PAGINATION-COUNT-WITHIN-BOUNDS',
  'PAGINATION-TOTAL-PAGES-CONSISTENT',
  'CALL-SESSION-ID-UNIQUE',
];

/** What the pages of one listing show judged together (listing-walks.ts): what a walk judged is counted under each. */
export const WALK_REQUIREMENTS = ['PAGINATION-PAGES-PARTITION', 'PAGINATION-TOTAL-PAGES-CONSISTENT', 'PAGINATION-COUNT-WITHIN-BOUNDS'];

const EXCHANGE_RULES: readonly ExchangeRule[] = [
  // Credentials: a request without a key, a request with one, and a key the target called unknown.
  // Only a request that carried no credential at all: one with a token or a cookie instead of a key
  // may be answered by another scheme, which the specification neither shows nor rules out.
  {
    requirements: ['AUTH-EMPTY-KEY', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
    shows: 'a request without an apikey header',
    needsBody: false,
    appliesTo: ({ pending }) => !pending.hasApiKey && !pending.otherCredential,
    judge: judgeKeyless,
  },
  {
    requirements: ['AUTH-INVALID-KEY'],
    shows: 'a request with an apikey header refused with AUTH_ERR_APIKEY_NOT_FOUND or AUTH_ERR_EMPTY_APIKEY',
    needsBody: false,
    appliesTo: ({ keyRefused }) => keyRefused,
    judge: ({ exchange, codes, source }, { tallies }) => {
      tallies.judged('AUTH-INVALID-KEY');
      tallies.report(presentKeyCalledEmpty(exchange, codes), source);
    },
  },
  {
    requirements: ['AUTH-INVALID-KEY'],
    shows: 'a key answered AUTH_ERR_APIKEY_NOT_FOUND and sent again later',
    needsBody: false,
    appliesTo: ({ pending }) => pending.apiKeyHash !== undefined,
    judge: followKey,
  },
  // Every answer, as every answer of a run is judged.
  {
    requirements: ['HTTP-JSON-BODIES'],
    shows: 'an answer of the three operations with its body recorded',
    needsBody: true,
    appliesTo: () => true,
    judge: (_facts, { tallies }) => tallies.judged('HTTP-JSON-BODIES'),
  },
  {
    requirements: ['ERROR-BODY-SHAPE'],
    shows: 'an error answer with its body recorded',
    needsBody: true,
    appliesTo: ({ success }) => !success,
    judge: (_facts, { tallies }) => tallies.judged('ERROR-BODY-SHAPE'),
  },
  {
    requirements: ['ERROR-STATUS-CODES'],
    shows: 'an error answer carrying a known error code',
    needsBody: true,
    appliesTo: ({ codes }) => codes.some((candidate) => DEPLOYED_STATUS[candidate] !== undefined),
    judge: ({ exchange, codes, source }, { tallies }) => {
      const code = codes.find((candidate) => DEPLOYED_STATUS[candidate] !== undefined)!;
      tallies.judged('ERROR-STATUS-CODES');
      tallies.report(errorStatus(exchange, code), source);
    },
  },
  {
    requirements: LIST_PAGE_REQUIREMENTS,
    shows: 'a successful List Calls answer',
    needsBody: true,
    appliesTo: succeededAt('listCalls'),
    judge: (_facts, { tallies }) => tallies.judged(...LIST_PAGE_REQUIREMENTS),
  },
  {
    requirements: ['CALLS-GET-OK'],
    needsBody: true,
    appliesTo: succeededAt('getCall'),
    judge: (_facts, { tallies }) => tallies.judged('CALLS-GET-OK'),
  },
  {
    requirements: ['CHAT-UNREAD-RESULT-SHAPE'],
    shows: 'a successful Mark Group Conversation As Unread answer',
    needsBody: true,
    appliesTo: succeededAt('markGroupConversationAsUnread'),
    judge: (_facts, { tallies }) => tallies.judged('CHAT-UNREAD-RESULT-SHAPE'),
  },
  {
    // And the catalog's field requirements of calls and participants (Bench.fieldRequirements).
    requirements: CALL_INVARIANTS.map(({ requirement }) => requirement),
    shows: CALLS_SHOWN_BY,
    needsBody: true,
    appliesTo: ({ calls }) => calls.length > 0,
    judge: ({ calls, ctx }, { tallies, fieldRequirements }) => {
      // An invariant of what not every call shows is judged on the calls that show it only.
      for (const { requirement, judges } of CALL_INVARIANTS)
        tallies.tally(requirement).judged += judges ? calls.filter((seen) => judges.calls(seen, ctx)).length : calls.length;
      for (const requirement of fieldRequirements) tallies.tally(requirement).judged += calls.length;
    },
  },
  {
    // Every requirement core/checks judges one exchange by (its JSON, schema, fields, invariants, pagination,
    // error body): the rules around it count them as judged, this one reports what breaks them.
    requirements: [],
    needsBody: true,
    appliesTo: () => true,
    judge: ({ exchange, ctx, source }, { tallies }) => tallies.report(checkExchange(exchange, ctx), source),
  },
  // A success other than the one the operation answers with is wrong whatever the request was; a
  // refusal may answer a client's mistake, which traffic cannot tell apart, so it is not judged.
  {
    requirements: ['CALLS-LIST-OK'],
    onlyBecause: "a refusal may answer a client's mistake",
    needsBody: true,
    appliesTo: succeededAt('listCalls'),
    judge: ({ exchange, source }, { tallies }) => tallies.report(listAnswered(exchange, 'List Calls'), source),
  },
  {
    requirements: ['CHAT-UNREAD-OK'],
    shows: 'a successful Mark Group Conversation As Unread answer',
    onlyBecause:
      'a success must be 200 with the result, and whether a refused request named a group and message that exist is not known from traffic',
    needsBody: true,
    appliesTo: succeededAt('markGroupConversationAsUnread'),
    judge: ({ exchange, source }, { tallies }) => {
      tallies.judged('CHAT-UNREAD-OK');
      tallies.report(successStatus(exchange, 'CHAT-UNREAD-OK', 'Mark Group Conversation As Unread', 200), source);
    },
  },
  // A filter value that is not even of its type is the client's mistake: a server error is never its answer.
  {
    requirements: ['ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
    shows: 'a List Calls filter value not of its type',
    needsBody: true,
    appliesTo: ({ operation, exchange }) => operation === 'listCalls' && filtersOf(exchange.request.url).unreadable.length > 0,
    judge: ({ exchange, source }, { tallies }) => {
      tallies.judged('ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT');
      tallies.report(
        noServerError(exchange, `List Calls with ${filtersOf(exchange.request.url).unreadable.join(', ')} not of its type`),
        source,
      );
    },
  },
  // Each list against the filters and the scope its own request carried.
  {
    requirements: [...JUDGED_FILTERS.map((name) => FILTER_REQUIREMENTS[name]), 'CALLS-LIST-AND-NARROWING'],
    shows: {
      ...Object.fromEntries(
        JUDGED_FILTERS.map((name) => [FILTER_REQUIREMENTS[name], `a List Calls request with the ${name} filter alone`]),
      ),
      'CALLS-LIST-AND-NARROWING': 'a List Calls request with two filters or more (date filters aside)',
    },
    needsBody: true,
    appliesTo: succeededAt('listCalls'),
    judge: judgeFilters,
  },
  {
    requirements: ['CALLS-LIST-ON-BEHALF-OF'],
    shows: 'a List Calls request with an onBehalfOf header',
    needsBody: true,
    appliesTo: (facts) => succeededAt('listCalls')(facts) && onBehalfOfIn(facts.exchange) !== undefined,
    judge: ({ exchange, calls, source }, { tallies }) => {
      tallies.judged('CALLS-LIST-ON-BEHALF-OF');
      tallies.report(onBehalfOfScope(exchange, calls, onBehalfOfIn(exchange)!), source);
    },
  },
  {
    requirements: ['CALLS-GET-ON-BEHALF-OF-SCOPE'],
    shows: 'a successful Get Call answer to a request with an onBehalfOf header',
    needsBody: true,
    appliesTo: (facts) => succeededAt('getCall')(facts) && onBehalfOfIn(facts.exchange) !== undefined,
    judge: ({ exchange, calls, source }, { tallies }) => {
      tallies.judged('CALLS-GET-ON-BEHALF-OF-SCOPE');
      tallies.report(getOnBehalfOfScope(exchange, calls, onBehalfOfIn(exchange)!), source);
    },
  },
  {
    requirements: ['CALLS-GET-OK'],
    needsBody: true,
    // Get Call answers judged before the envelope is learned wait for it (readings-learner.ts).
    appliesTo: succeededAt('getCall'),
    judge: ({ exchange, source }, bench) => {
      if (!bench.envelopeKnown()) bench.awaitEnvelope(exchange, source);
    },
  },
  {
    requirements: ['CALLS-GET-OK'],
    shows: 'a Get Call answer',
    needsBody: true,
    appliesTo: ({ operation, pending }) => operation === 'getCall' && pending.sessionId !== undefined,
    judge: judgeSessionId,
  },
  {
    requirements: ['CALLS-GET-MATCHES-LIST'],
    shows: 'a call both listed and fetched, the earlier of the two answers showing it ended',
    needsBody: true,
    appliesTo: () => true,
    judge: keepCallsSeen,
  },
  {
    // After keepCallsSeen: the target's clock at a page is read from what answers showed before it.
    requirements: WALK_REQUIREMENTS,
    shows:
      'a walk over several pages of one List Calls listing (the same filters, page size, onBehalfOf and key) asked within the settling window (SETTLE_SECONDS)',
    needsBody: true,
    appliesTo: ({ calls, success, operation }) => calls.length > 0 || (success && operation === 'listCalls'),
    judge: keepPage,
  },
];

/** Every requirement a rule of the table judges: what traffic can show, the catalog's field requirements aside. */
export const RULED_REQUIREMENTS: ReadonlySet<string> = new Set(EXCHANGE_RULES.flatMap((rule) => rule.requirements));

/**
 * What traffic would have to hold to show each requirement of the table, from its rules: what each
 * shows ("…, or …" where several do), and why nothing less will do where one says.
 */
export const WHAT_SHOWS: ReadonlyMap<string, { shows: string; onlyBecause?: string }> = (() => {
  const texts = new Map<string, { shows: Set<string>; onlyBecause: Set<string> }>();
  for (const rule of EXCHANGE_RULES) {
    for (const requirement of rule.requirements) {
      const entry = texts.get(requirement) ?? { shows: new Set<string>(), onlyBecause: new Set<string>() };
      const shows = typeof rule.shows === 'string' ? rule.shows : rule.shows?.[requirement];
      if (shows !== undefined) entry.shows.add(shows);
      if (rule.onlyBecause !== undefined) entry.onlyBecause.add(rule.onlyBecause);
      texts.set(requirement, entry);
    }
  }
  return new Map(
    [...texts].map(([requirement, { shows, onlyBecause }]) => [
      requirement,
      { shows: [...shows].join(', or '), ...(onlyBecause.size > 0 && { onlyBecause: [...onlyBecause].join('; ') }) },
    ]),
  );
})();

/** A request that carried no credential at all: AUTH_ERR_EMPTY_APIKEY is its answer, and never a server error. */
function judgeKeyless({ pending, exchange, success, source }: ExchangeFacts, { tallies }: Bench): void {
  tallies.judged('AUTH-EMPTY-KEY');
  if (pending.bodyAbsent) {
    if (success) tallies.report(errorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'), source);
  } else {
    tallies.report(errorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'), source);
    tallies.judged('ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT');
    tallies.report(noServerError(exchange, 'a request without an apikey header'), source);
  }
}

/** A key followed across exchanges: once the target called it unknown, it stays unknown. */
function followKey({ pending, exchange, host, success, codes, keyRefused, source, sighting }: ExchangeFacts, bench: Bench): void {
  const { tallies, sightings } = bench;
  const key = `${host} ${pending.apiKeyHash!}`;
  const calledUnknown = sightings.unknownKeys.get(key);
  // Only an answer that surely came after the refusal: a key may have been valid before it was revoked.
  const after = calledUnknown !== undefined && surelyBefore(calledUnknown.span, pending.span);
  if (after && !keyRefused && (pending.bodyAbsent ? success : true)) {
    tallies.judged('AUTH-INVALID-KEY');
    tallies.report(unknownKeyAnsweredOtherwise(exchange, calledUnknown), source, [calledUnknown.source]);
  }
  if (codes.includes('AUTH_ERR_APIKEY_NOT_FOUND') && sooner(sighting, calledUnknown)) sightings.unknownKeys.set(key, sighting);
  if (!keyRefused && (pending.bodyAbsent ? success : true) && later(sighting, sightings.keyAnswers.get(key)))
    sightings.keyAnswers.set(key, { ...sighting, exchange: slim(exchange) });
}

/** A successful list against the filters its own request carried (the date filters aside: traffic cannot show their meaning). */
function judgeFilters({ exchange, calls, ctx, source }: ExchangeFacts, { tallies }: Bench): void {
  const { filters } = filtersOf(exchange.request.url);
  const given = JUDGED_FILTERS.filter((name) => filters[name] !== undefined);
  const judgedFilters: Filters = Object.fromEntries(given.map((name) => [name, filters[name]]));
  if (given.length > 0 && Object.keys(filters).length === given.length) {
    tallies.judged(...(given.length > 1 ? ['CALLS-LIST-AND-NARROWING'] : given.map((name: FilterName) => FILTER_REQUIREMENTS[name])));
    tallies.report(filterNarrowing(exchange, calls, judgedFilters, ctx.readings), source);
  }
}

/** Get Call for a session id: the call it answers is that one, and one an answer showed before is never called unknown. */
function judgeSessionId({ pending, exchange, host, success, codes, source, sighting }: ExchangeFacts, { tallies, sightings }: Bench): void {
  const sessionId = pending.sessionId!;
  if (success) tallies.report(getCallIdentity(exchange, sessionId, 'CALLS-GET-OK'), source);
  // A call an answer showed before exists: Get Call must not call it unknown (calls are never deleted).
  const shownBy = sightings.shownIds.get(`${host} ${sessionId}`);
  const notFoundKey = `${host} ${sessionId}`;
  if (codes.includes('ERR_CALL_SESSION_NOT_FOUND') && !scoped(exchange) && later(sighting, sightings.notFound.get(notFoundKey)))
    sightings.notFound.set(notFoundKey, { ...sighting, exchange: slim(exchange) });
  if (
    codes.includes('ERR_CALL_SESSION_NOT_FOUND') &&
    shownBy !== undefined &&
    surelyBefore(shownBy.span, pending.span) &&
    !scoped(exchange)
  ) {
    tallies.report(getCallShownId(exchange, sessionId, shownBy), source, [shownBy.source]);
  }
}

/** The calls an answer shows, kept over time: the target's clock, the session ids shown, and each call as each view last showed it. */
function keepCallsSeen(facts: ExchangeFacts, bench: Bench): void {
  const { pending, calls, host, source, sighting, exchange, operation } = facts;
  const { sightings } = bench;
  const moment = momentOf(calls);
  if (moment !== undefined && pending.span) sightings.clock.saw(pending.span.end, moment);
  for (const seen of calls) {
    const id = seen.call.sessionId;
    if (typeof id !== 'string' || id === '') continue;
    const key = `${host} ${id}`;
    if (sooner(sighting, sightings.shownIds.get(key))) sightings.shownIds.set(key, { ...sighting });
    if (scoped(exchange) || (operation !== 'listCalls' && operation !== 'getCall')) continue;
    // Get Call against the same call in a list, in the order the two answers happened.
    const answer: KeptAnswer = {
      seen: { ...seen, exchange: slim(exchange) },
      source,
      ...(pending.span && { span: pending.span }),
      ...(moment !== undefined && { moment }),
    };
    compareWithOtherView(operation, key, answer, bench);
  }
}

/** Every answer's calls read the target's clock; a successful list page joins its listing's walk (listing-walks.ts). */
function keepPage({ pending, exchange, host, success, operation, calls, source }: ExchangeFacts, bench: Bench): void {
  bench.walks.sawAnswer(host, pending.span, calls);
  if (!success || operation !== 'listCalls') return;
  const keyClass = pending.apiKeyHash ?? (pending.hasApiKey ? 'a key the recording did not name' : 'no key');
  const clock = pending.span ? bench.sightings.clock.by(pending.span.start) : undefined;
  bench.walks.keep({ exchange, source, span: pending.span, keyClass }, clock, bench.walkSink);
}

/** An answer about a call against the other view's latest answer about it, then kept as its own view's latest. */
function compareWithOtherView(
  operation: 'listCalls' | 'getCall',
  key: string,
  answer: KeptAnswer,
  { tallies, sightings, settleSeconds }: Bench,
): void {
  const { listedCalls, fetchedCalls } = sightings;
  const [mine, theirs] = operation === 'listCalls' ? [listedCalls, fetchedCalls] : [fetchedCalls, listedCalls];
  const other = theirs.get(key);
  if (other) {
    const comparison = getMatchesListOverTime(other, answer, sightings.clock, settleSeconds);
    if (comparison.judged) tallies.judged('CALLS-GET-MATCHES-LIST');
    tallies.report(comparison.violations, comparison.source, comparison.related);
  }
  // The latest answer of each view is kept: an answer recorded late but given earlier does not replace it.
  const previous = mine.get(key);
  if (!previous || orderOf(previous.span, answer.span) !== 'second-earlier') mine.set(key, answer);
}

/** The filters a List Calls request carried, typed as the checks read them; a value of the wrong type is not judged. */
function filtersOf(url: string): { filters: Filters; unreadable: string[] } {
  const params = new URL(url).searchParams;
  const filters: Record<string, unknown> = {};
  const unreadable: string[] = [];
  for (const name of FILTER_NAMES) {
    const raw = params.get(name);
    if (raw === null) continue;
    if (name === 'participantsCount' || name === 'startedAt' || name === 'endedAt') {
      if (/^-?\d+$/.test(raw)) filters[name] = Number(raw);
      else unreadable.push(name);
    } else if (name === 'hasRecording') {
      if (raw === 'true' || raw === 'false') filters[name] = raw === 'true';
      else unreadable.push(name);
    } else filters[name] = raw;
  }
  return { filters: filters, unreadable };
}

/** AUTH-INVALID-KEY: a key the target called unknown (in `calledUnknown`) was answered otherwise later, in `exchange`. */
export function unknownKeyAnsweredOtherwise(exchange: Exchange, calledUnknown: Sighting): Violation[] {
  return errorCode(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'AUTH-INVALID-KEY').map((violation) => ({
    ...violation,
    title: `a key the target answered AUTH_ERR_APIKEY_NOT_FOUND to (${calledUnknown.source}) was then answered otherwise`,
  }));
}

/** CALLS-GET-OK: Get Call called a session id unknown that an earlier answer (`shownBy`) showed; calls are never deleted. */
export function getCallShownId(exchange: Exchange, sessionId: string, shownBy: Sighting): Violation[] {
  return [
    {
      check: 'get_call_shown_id',
      requirement: 'CALLS-GET-OK',
      title: `Get Call answered ERR_CALL_SESSION_NOT_FOUND for ${shown(sessionId)}, a call ${shownBy.source} showed`,
      expected: `the details of call ${shown(sessionId)}`,
      received: `status ${exchange.response.status}, body ${shown(exchange.response.text, 160)}`,
      exchange,
    },
  ];
}

/**
 * AUTH-INVALID-KEY for a request that carried an apikey header and was refused: the key was there,
 * so the answer is AUTH_ERR_APIKEY_NOT_FOUND; AUTH_ERR_EMPTY_APIKEY means a key absent from the headers.
 */
function presentKeyCalledEmpty(exchange: Exchange, codes: readonly string[]): Violation[] {
  if (!codes.includes('AUTH_ERR_EMPTY_APIKEY')) return [];
  return [
    {
      check: 'error_code',
      requirement: 'AUTH-INVALID-KEY',
      title: `a request that carried an apikey header was answered AUTH_ERR_EMPTY_APIKEY, the error for a key absent from the headers`,
      expected: 'AUTH_ERR_APIKEY_NOT_FOUND for a key that is present but not valid (or the answer to a valid key)',
      received: `status ${exchange.response.status}, codes ${codes.join(', ')}, body ${shown(exchange.response.text, 160)}`,
      exchange,
    },
  ];
}
