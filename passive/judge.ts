// The passive judge: the suite's own checks applied to traffic it did not send (HAR entries, or
// exchanges passing through the judging proxy), one exchange at a time, in bounded memory.
//
// Usage (the HAR reader and the proxy both do this):
//
//   import { createPassiveJudge } from './judge.ts';
//   import { writePassiveReports } from './passive-report.ts';
//   const judge = createPassiveJudge({ bases: { callsBaseUrl, chatBaseUrl } }); // all options optional
//   judge.add(recordedExchange);            // any number of times, in any order: answers are compared by their recorded times
//   const result = judge.finish();          // synchronous; add() after finish() throws
//   const written = writePassiveReports(result, { dir: reportDirectory(environment()), sources: ['proxy → https://…'], rerun: 'the command that judges it again' });
//   process.stdout.write(written.console);  // verdict line, redacted headers, where the report is
//   process.exitCode = written.exitCode;    // 1 violations found, 0 none, 3 no exchange of the three operations
//
// Options: bases (the configuration's callsBaseUrl/chatBaseUrl; without them operations are found
// by path), profile ('spec' | 'strict'), settleSeconds (checks/settling.ts), limits (DEFAULT_LIMITS
// below). RecordedExchange holds raw headers: hand it over unredacted, the judge redacts it (and
// result.redact scrubs the secrets seen).
//
// add() never throws on what traffic holds (any body, any status): entries it cannot judge are
// counted (result.ignored) and left alone. Raw secrets never leave add(): every exchange is redacted
// first, and result.redact() scrubs any secret value seen from text the caller writes.
//
// What it judges, each with the same pure check the active suite runs (core/checks): every
// answer's JSON and schema; each call's invariants; each list page's pagination and distinct ids;
// each filtered list against the filters its own request carried and the onBehalfOf it carried;
// the error due to a request without an apikey header; a request that carried a key never told it
// had none; a key the target called unknown staying unknown; a success other than 200; a server
// error to a filter value not of its type; Get Call against the same call in a list; Get Call
// answering ERR_CALL_SESSION_NOT_FOUND for a session id other answers showed. Readings the
// specification leaves open are learned from the first calls seen (as core/learning learns them
// from a sample); what only probes can learn (the date filters' meaning) is not judged, and the
// result says so.
//
// Answers are compared with one another in the order they happened, as the recording's times show
// it, not in the order they were recorded (passive/over-time.ts): two answers about one
// call under the one-way rule of core/checks/settling.ts (a call that ended may still gain
// hasRecording, a recording, minutes or leftAt until it has settled on the evidence of the target's
// own clock), a key after it was called unknown, a session id after an answer showed it.
import { createHash, randomUUID } from 'node:crypto';
import { loadCatalog, type Catalog } from '../openapi/catalog.ts';
import { loadContract, type Contract, type OperationId } from '../openapi/contract.ts';
import { checkExchange, CALL_INVARIANTS, type ExchangeContext } from '../core/checks/index.ts';
import { callsIn, isSuccess } from '../core/checks/calls-in.ts';
import {
  carriesErrorCode,
  deployedStatus,
  errorCodesIn,
  DEPLOYED_STATUS,
  listAnswered,
  noServerError,
  succeeds,
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
import { answersCall } from '../core/checks/get-matches-list.ts';
import { getCallEnvelopeConsistency } from '../core/checks/get-call-envelope.ts';
import { OPEN_READINGS, type Readings } from '../core/checks/readings.ts';
import { DEFAULT_SETTLE_SECONDS } from '../core/checks/settling.ts';
import { indexSchemaRequirements } from '../core/checks/schema-requirements.ts';
import { shown, type Violation } from '../core/checks/violation.ts';
import { detectCountReading, detectMinutesReading, detectTimerReading } from '../core/learning/call-readings.ts';
import { detectGetCallEnvelope } from '../core/learning/get-call-envelope.ts';
import { summarize, type DetectionSummary } from '../core/learning/detection.ts';
import type { Exchange } from '../core/transport/exchange.ts';
import type { Profile } from '../core/run/profile.ts';
import { observe, type Observation } from '../core/coverage/observe.ts';
import { emptyTally, mergeTallies, tallyObservation, type CoverageTally } from '../core/coverage/tally.ts';
import { recognise, type Bases } from './operations.ts';
import { isPlaceholderKey, isSecretHeader, redactRecorded, scrub } from './redaction.ts';
import type { ExchangeSink, RecordedExchange } from './recorded-exchange.ts';
import { getMatchesListOverTime, momentOf, orderOf, spanOf, surelyBefore, TargetClock, type KeptAnswer, type Span } from './over-time.ts';

export interface PassiveJudgeOptions {
  /** Base addresses (from the configuration); without them the operations are found by their paths. */
  bases?: Bases;
  profile?: Profile;
  catalog?: Catalog;
  contract?: Contract;
  /** Calls to learn the readings from before judging (default 200); exchanges wait until then, at most `sampleExchanges`. */
  sampleCalls?: number;
  sampleExchanges?: number;
  /** How long after a call's last moment its late fields may still settle (checks/settling.ts; DEFAULT_SETTLE_SECONDS). */
  settleSeconds?: number;
  /**
   * How much older than its arrival an answer may be (MAX_ANSWER_AGE, core/checks/answer-age.ts):
   * a recorded answer is taken to show the target as it was at some moment from this long before
   * its request started to the end of its response, so no order of two answers rests on less. 0 by default.
   */
  maxAnswerAgeSeconds?: number;
  /** Bounds of what cross-exchange checks keep (defaults below). */
  limits?: Partial<PassiveLimits>;
}

export interface PassiveLimits {
  /** Session ids shown by answers, per host: Get Call's ERR_CALL_SESSION_NOT_FOUND is judged against them. */
  shownSessionIds: number;
  /** Answers about calls kept from lists and from Get Call (one per call and view, the latest), for CALLS-GET-MATCHES-LIST. */
  settledCalls: number;
  /** Keys (as hashes) the target answered AUTH_ERR_APIKEY_NOT_FOUND to. */
  unknownKeys: number;
  /** Violations kept in full per requirement (all are counted). */
  examplesPerRequirement: number;
  /** Secret values kept to scrub reports with. */
  secrets: number;
  /** Readings of the target's clock kept (each a recorded time and the newest moment answers had shown by then). */
  clockReadings: number;
}

export const DEFAULT_LIMITS: PassiveLimits = {
  shownSessionIds: 200_000,
  settledCalls: 5_000,
  unknownKeys: 1_000,
  examplesPerRequirement: 10,
  secrets: 1_000,
  clockReadings: 10_000,
};

/** The version of what a judge's state holds (judge-state.ts): a merge refuses any other (2: the learned readings hold the timer's). */
export const STATE_FORMAT = 'calls-conformance passive state 2';

/** What a judge's report carries for a merge of several judges' reports (judge-state.ts merges them). */
export interface PassiveState {
  format: typeof STATE_FORMAT;
  /** The judges this state stands for (one, or those a merge took): a merge refuses one given twice. */
  runs: Array<{ id: string; sources: string[]; startedAt: string }>;
  startedAt: string;
  /** The traffic up to this moment. */
  asOf: string;
  /** False for a report written while its proxy still ran (the traffic so far). */
  final: boolean;
  profile: Profile;
  settleSeconds: number;
  entries: number;
  exchanges: number;
  byOperation: Record<OperationId, number>;
  ignored: Record<string, number>;
  bodiesAbsent: number;
  redacted: string[];
  requirements: Array<[string, RequirementTally]>;
  readings: DetectionSummary[];
  /** The readings judged under (undefined while still learning them). */
  learned: Pick<Readings, 'minutes' | 'participantCount' | 'getCallEnvelope' | 'timer'> | undefined;
  listed: Array<[string, KeptAnswer]>;
  fetched: Array<[string, KeptAnswer]>;
  shown: Array<[string, Sighting]>;
  unknownKeys: Array<[string, Sighting]>;
  keyAnswers: Array<[string, CitedSighting]>;
  notFound: Array<[string, CitedSighting]>;
  clock: Array<[number, number]>;
  /**
   * What the traffic tried of the interface (core/coverage/tally.ts), counted at add(). Absent from
   * the states of versions before it: a merge takes such a state's as empty, and says so.
   */
  coverage?: CoverageTally;
}

/** A violation found in traffic: the check's, with where the exchange came from. */
export interface PassiveViolation extends Violation {
  /** `session.har, entry 12`: the exchange that broke it. */
  source: string;
  /** Other exchanges it rests on (the list a Get Call disagrees with). */
  related?: string[];
}

export interface RequirementTally {
  /** Exchanges (or calls) that could show it. */
  judged: number;
  violations: number;
  /** The first violations, in full (their exchanges redacted, response bodies cut). */
  examples: PassiveViolation[];
}

export interface PassiveResult {
  /** Every entry or exchange handed to the judge. */
  entries: number;
  /** Exchanges of the three operations judged. */
  exchanges: number;
  byOperation: Record<OperationId, number>;
  /** Entries left alone, by why. */
  ignored: Record<string, number>;
  /** Judged exchanges whose response body was not recorded: only what their status shows was judged. */
  bodiesAbsent: number;
  requirements: Map<string, RequirementTally>;
  /** Requirements the traffic could not show, with why (those not in `requirements`, or judged 0 times). */
  notJudged: Map<string, string>;
  /** What was learned from the calls seen, as the reports show readings. */
  readings: DetectionSummary[];
  /** Header and query parameter names whose values were redacted. */
  redacted: string[];
  /** Scrubs every secret value seen (keys, tokens, cookies) from a text. */
  redact: (text: string) => string;
  profile: Profile;
  startedAt: string;
  endedAt: string;
  /**
   * What the traffic tried of the interface (core/coverage/), a copy: every recognised exchange with
   * a response, those still waiting for the readings too (counted as added, not as judged, so that
   * the count does not depend on when the readings are learned). Its `by`s are recorded sources.
   */
  coverage: CoverageTally;
}

export interface PassiveJudge extends ExchangeSink {
  finish(): PassiveResult;
  /**
   * The result so far, the judge going on: for a report written while traffic still flows. Exchanges
   * still waiting for the readings to be learned are counted as waiting, not judged early (learning
   * from fewer calls would change what the final report judges).
   */
  snapshot(): PassiveResult;
  /** What a merge of several judges' reports needs (judge-state.ts), the judge going on; its texts scrubbed of every secret seen. */
  state(sources: string[]): PassiveState;
}

const RESPONSE_TEXT_KEPT = 2_000;

/** The field requirements of a call and its participants: every call seen is judged against them by the schema check. */
const FIELD_REQUIREMENTS = (catalog: Catalog) =>
  catalog.requirements
    .filter((requirement) => requirement.kind === 'field' && /^(CALL|PARTICIPANT)-FIELD-/.test(requirement.id))
    .map((requirement) => requirement.id);

/** Why the requirements passive judging never shows cannot be judged from traffic. */
const NEVER_FROM_TRAFFIC: Readonly<Record<string, string>> = {
  'CALLS-LIST-FILTER-STARTED-AT':
    'which reading of the date filter the target follows (exact or a bound, on startedAt or initiatedAt) is learned by probes a recording does not hold; under every reading at once, any call matches',
  'CALLS-LIST-FILTER-ENDED-AT':
    'which reading of the date filter the target follows is learned by probes a recording does not hold; under every reading at once, any call matches',
  'CALLS-LIST-DATE-FILTER-SEMANTICS': "the date filters' meaning is learned by probes around known calls; a recording does not hold them",
  'CALLS-LIST-FILTER-COMPLETENESS':
    'completeness needs every call of the target and the totals of every value of a filter, which only a walk the suite chooses shows',
  'PAGINATION-PAGES-PARTITION': 'needs a whole walk over every page of one list at one time; recorded pages are not known to form one',
  'PAGINATION-PAGE-PARAMETERS': 'needs requests for chosen pages and page sizes',
  'PAGINATION-SORT-ORDER': 'needs whole walks compared; not shown by the specification',
  'PAGINATION-PAGE-SIZE-BOUNDS': 'needs requests for chosen page sizes',
  'CALLS-LIST-FILTER-VALUES-ACCEPTED':
    'a refusal in traffic may answer a value the client got wrong; only values the suite sends are known to be allowed',
  'CALLS-GET-NOT-FOUND':
    'needs a session id known not to exist; traffic shows ids that exist (a Get Call answering ERR_CALL_SESSION_NOT_FOUND for one of those is judged under CALLS-GET-OK)',
  'CALLS-GET-ON-BEHALF-OF': 'needs a call and a uid known to have taken part in it, sent together',
  'CALLS-GET-ON-BEHALF-OF-OUTSIDER': 'needs a uid known to have taken no part in a call',
  'CHAT-UNREAD-OK':
    'judged on successful answers only (a success must be 200 with the result), and the traffic held none; whether a refused request named a group and message that exist is not known from traffic',
  'CHAT-UNREAD-REQUIRES-FULL-ACCESS': 'which keys lack fullAccess scope is not known from traffic',
  'CHAT-UNREAD-ACTING-USER': 'not shown by the specification; needs chosen requests',
  'CHAT-UNREAD-ERRORS': 'needs requests known to be wrong',
  'AUTH-HEADER-NAME-CASE-INSENSITIVE': 'needs the same request sent with differently cased header names',
  'AUTH-APIKEY-JSON-NAME': 'needs chosen requests',
  'CALLS-LIST-OK': "judged on List Calls answers that succeeded, and the traffic held none; a refusal may answer a client's mistake",
  'RATE-LIMITS': 'needs bursts of requests the suite controls',
};

/** A capped map: the oldest entry goes first when it is full. */
class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }
  entries(): Array<[K, V]> {
    return [...this.map];
  }
}

interface Pending {
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

/** An answer that showed a session id, or called a key unknown: where, and when it happened. */
export interface Sighting {
  source: string;
  span?: Span;
}

/** An answer kept for a merge to judge against other judges' sightings: the sighting, and its exchange (slim) to cite. */
interface CitedSighting extends Sighting {
  exchange: Exchange;
}

/** Whether `candidate` surely started after `kept` did, so that more earlier answers are surely before it. */
export const later = (candidate: Sighting, kept: Sighting | undefined): boolean =>
  kept === undefined || (candidate.span !== undefined && (kept.span === undefined || candidate.span.start > kept.span.start));

/** Whether `candidate` surely ended before `kept` did, so that more later answers are surely after it. */
export const sooner = (candidate: Sighting, kept: Sighting | undefined): boolean =>
  kept === undefined || (candidate.span !== undefined && (kept.span === undefined || candidate.span.end < kept.span.end));

/** A kept copy of an exchange: bodies cut, so that a kept violation or call costs little. */
function slim(exchange: Exchange): Exchange {
  const text =
    exchange.response.text.length > RESPONSE_TEXT_KEPT
      ? `${exchange.response.text.slice(0, RESPONSE_TEXT_KEPT)}… (${exchange.response.text.length} characters)`
      : exchange.response.text;
  return { ...exchange, response: { ...exchange.response, text, body: undefined } };
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

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
const hostOf = (url: string) => new URL(url).origin;

export function createPassiveJudge(options: PassiveJudgeOptions = {}): PassiveJudge {
  const catalog = options.catalog ?? loadCatalog();
  const contract = options.contract ?? loadContract();
  const limits: PassiveLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const sampleCalls = options.sampleCalls ?? 200;
  const sampleExchanges = options.sampleExchanges ?? 100;
  const fieldRequirements = FIELD_REQUIREMENTS(catalog);
  const startedAt = new Date().toISOString();
  // Names this judge's reports, so that a merge refuses the same traffic given twice (an interim and a final report of one proxy).
  const runId = randomUUID();

  let entries = 0;
  let judgedExchanges = 0;
  let bodiesAbsent = 0;
  let finished = false;
  const byOperation: Record<OperationId, number> = { listCalls: 0, getCall: 0, markGroupConversationAsUnread: 0 };
  const ignored: Record<string, number> = {};
  const tallies = new Map<string, RequirementTally>();
  const redactedNames = new Set<string>();
  const secrets = new Set<string>();
  const coverage = emptyTally();

  // Learning: exchanges wait here until enough calls were seen to learn the readings from.
  let context: ExchangeContext | undefined;
  let readingSummaries: DetectionSummary[] = [];
  const waiting: Pending[] = [];
  let waitingCalls = 0;
  let envelopeLearned = false;
  /** Get Call answers judged before the envelope was learned, kept slim: judged for the envelope once it is. */
  const envelopeWaiting: Array<{ exchange: Exchange; source: string }> = [];
  const ENVELOPE_SAMPLE = 20;

  function learnEnvelope(): void {
    envelopeLearned = true;
    const detection = detectGetCallEnvelope(envelopeWaiting.map(({ exchange }) => exchange));
    detection.evidence = `recorded traffic: ${detection.evidence}`;
    readingSummaries = [...readingSummaries.filter((summary) => summary.subject !== 'get-call-envelope'), summarize(detection)];
    context = { ...context!, readings: { ...context!.readings, getCallEnvelope: detection.accepted } };
    for (const { exchange, source } of envelopeWaiting.splice(0)) report(getCallEnvelopeConsistency(exchange, context), source);
  }

  // What cross-exchange checks keep, each bounded.
  // Each keeps the earliest answer that showed an id or called a key unknown, and the latest answer
  // about a call in each view, by the recording's times.
  const shownIds = new Bounded<string, Sighting>(limits.shownSessionIds);
  const listedCalls = new Bounded<string, KeptAnswer>(limits.settledCalls);
  const fetchedCalls = new Bounded<string, KeptAnswer>(limits.settledCalls);
  const unknownKeys = new Bounded<string, Sighting>(limits.unknownKeys);
  // For a merge only (judge-state.ts): the latest answer to each key that was not a refusal, and the
  // latest Get Call that called each id unknown. Another judge's refusal or sighting may come before them.
  const keyAnswers = new Bounded<string, CitedSighting>(limits.unknownKeys);
  const notFound = new Bounded<string, CitedSighting>(limits.unknownKeys);
  const clock = new TargetClock(limits.clockReadings);

  const tally = (requirement: string): RequirementTally => {
    let entry = tallies.get(requirement);
    if (!entry) tallies.set(requirement, (entry = { judged: 0, violations: 0, examples: [] }));
    return entry;
  };
  const judged = (...requirements: string[]) => {
    for (const requirement of requirements) tally(requirement).judged += 1;
  };
  const report = (violations: readonly Violation[], source: string, related?: string[]) => {
    for (const violation of violations) {
      const entry = tally(violation.requirement);
      // A violation may stand for more of its kind in the same answer, counted but not described (violation.ts).
      entry.violations += 1 + (violation.alike ?? 0);
      if (entry.judged === 0) entry.judged = 1;
      if (entry.examples.length < limits.examplesPerRequirement) {
        entry.examples.push({
          ...violation,
          ...(violation.exchange && { exchange: slim(violation.exchange) }),
          source,
          ...(related && { related }),
        });
      }
    }
  };

  function learn(): void {
    const calls = waiting.flatMap((pending) => (pending.bodyAbsent ? [] : callsIn(pending.exchange)));
    const gets = waiting
      .filter((pending) => pending.exchange.operation === 'getCall' && !pending.bodyAbsent)
      .map((pending) => pending.exchange);
    const minutes = detectMinutesReading(calls);
    const participantCount = detectCountReading(calls);
    const timer = detectTimerReading(calls, options.settleSeconds ?? DEFAULT_SETTLE_SECONDS);
    const envelope = detectGetCallEnvelope(gets);
    // No Get Call answer in the sample: the envelope is learned from the first ones that come.
    envelopeLearned = gets.length > 0;
    const readings: Readings = {
      ...OPEN_READINGS,
      minutes: minutes.accepted,
      participantCount: participantCount.accepted,
      getCallEnvelope: envelope.accepted,
      timer: timer.accepted,
    };
    for (const detection of [minutes, participantCount, envelope, timer]) detection.evidence = `recorded traffic: ${detection.evidence}`;
    readingSummaries = [minutes, participantCount, envelope, timer].map(summarize);
    context = {
      contract,
      schemaRequirements: indexSchemaRequirements(catalog, contract.document),
      readings,
      settleSeconds: options.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
    };
    for (const pending of waiting.splice(0)) judgeOne(pending);
  }

  /**
   * One exchange judged; an error of the suite's own on it (no answer's content should cause one,
   * json-text.ts bounds what can) is counted against that exchange, and the judging goes on.
   */
  function judgeOne(pending: Pending): void {
    try {
      judgeExchange(pending);
    } catch (error) {
      const why = `exchanges the judge failed on (an error of the suite's: ${firstLine(error)})`;
      ignored[why] = (ignored[why] ?? 0) + 1;
    }
  }

  function judgeExchange(pending: Pending): void {
    const { exchange, source } = pending;
    const ctx = context!;
    const operation = exchange.operation;
    judgedExchanges += 1;
    byOperation[operation] += 1;
    const host = hostOf(exchange.request.url);
    const success = isSuccess(exchange);
    const codes = pending.bodyAbsent ? [] : errorCodesIn(exchange.response.body);

    // Credentials: a request without a key, a request with one, and a key the target called unknown.
    // Only a request that carried no credential at all: one with a token or a cookie instead of a key
    // may be answered by another scheme, which the specification neither shows nor rules out.
    if (!pending.hasApiKey && !pending.otherCredential) {
      judged('AUTH-EMPTY-KEY');
      if (pending.bodyAbsent) {
        if (success) report(carriesErrorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'), source);
      } else {
        report(carriesErrorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'), source);
        judged('ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT');
        report(noServerError(exchange, 'a request without an apikey header'), source);
      }
    }
    // A request that carried an apikey header (any key, a recording's placeholder too: the header was
    // there) and whose key the target refused: the key was present, so not valid, and
    // AUTH_ERR_APIKEY_NOT_FOUND is the error (AUTH-INVALID-KEY); AUTH_ERR_EMPTY_APIKEY says it was absent.
    const keyRefused =
      pending.hasApiKey && (codes.includes('AUTH_ERR_EMPTY_APIKEY') || codes.includes('AUTH_ERR_APIKEY_NOT_FOUND')) && !success;
    if (keyRefused) {
      judged('AUTH-INVALID-KEY');
      report(presentKeyCalledEmpty(exchange, codes), source);
    }
    if (pending.apiKeyHash !== undefined) {
      const key = `${host} ${pending.apiKeyHash}`;
      const calledUnknown = unknownKeys.get(key);
      // Only an answer that surely came after the refusal: a key may have been valid before it was revoked.
      const after = calledUnknown !== undefined && surelyBefore(calledUnknown.span, pending.span);
      if (after && !keyRefused && (pending.bodyAbsent ? success : true)) {
        judged('AUTH-INVALID-KEY');
        report(unknownKeyAnsweredOtherwise(exchange, calledUnknown), source, [calledUnknown.source]);
      }
      const sighting = { source, ...(pending.span && { span: pending.span }) };
      if (codes.includes('AUTH_ERR_APIKEY_NOT_FOUND') && sooner(sighting, calledUnknown)) unknownKeys.set(key, sighting);
      if (!keyRefused && (pending.bodyAbsent ? success : true) && later(sighting, keyAnswers.get(key)))
        keyAnswers.set(key, { ...sighting, exchange: slim(exchange) });
    }

    if (pending.bodyAbsent) {
      bodiesAbsent += 1;
      return;
    }

    // Every answer, as every answer of a run is judged.
    judged('HTTP-JSON-BODIES');
    if (!success) judged('ERROR-BODY-SHAPE');
    for (const code of codes.filter((candidate) => DEPLOYED_STATUS[candidate] !== undefined).slice(0, 1)) {
      judged('ERROR-STATUS-CODES');
      report(deployedStatus(exchange, code), source);
    }
    const calls = callsIn(exchange);
    if (success && operation === 'listCalls')
      judged(
        'CALLS-LIST-OK',
        'PAGINATION-ENVELOPE',
        'PAGINATION-COUNT-IS-PAGE-SIZE',
        'PAGINATION-COUNT-WITHIN-BOUNDS',
        'PAGINATION-TOTAL-PAGES-CONSISTENT',
        'CALL-SESSION-ID-UNIQUE',
      );
    if (success && operation === 'getCall') judged('CALLS-GET-OK');
    if (success && operation === 'markGroupConversationAsUnread') judged('CHAT-UNREAD-RESULT-SHAPE');
    if (calls.length > 0) {
      // An invariant of what not every call shows is judged on the calls that show it only.
      for (const { requirement, judges } of CALL_INVARIANTS)
        tally(requirement).judged += judges ? calls.filter((seen) => judges.calls(seen, ctx)).length : calls.length;
      for (const requirement of fieldRequirements) tally(requirement).judged += calls.length;
    }
    report(checkExchange(exchange, ctx), source);

    // A success other than the one the operation answers with is wrong whatever the request was; a
    // refusal may answer a client's mistake, which traffic cannot tell apart, so it is not judged.
    if (success && operation === 'listCalls') report(listAnswered(exchange, 'List Calls'), source);
    if (success && operation === 'markGroupConversationAsUnread') {
      judged('CHAT-UNREAD-OK');
      report(succeeds(exchange, 'CHAT-UNREAD-OK', 'Mark Group Conversation As Unread', 200), source);
    }
    // A filter value that is not even of its type is the client's mistake: a server error is never its answer.
    if (operation === 'listCalls' && filtersOf(exchange.request.url).unreadable.length > 0) {
      judged('ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT');
      report(noServerError(exchange, `List Calls with ${filtersOf(exchange.request.url).unreadable.join(', ')} not of its type`), source);
    }

    if (operation === 'listCalls' && success) {
      // Each list against the filters and the scope its own request carried.
      const { filters } = filtersOf(exchange.request.url);
      const given = FILTER_NAMES.filter((name) => filters[name] !== undefined && name !== 'startedAt' && name !== 'endedAt');
      const judgedFilters: Filters = Object.fromEntries(given.map((name) => [name, filters[name]]));
      if (given.length > 0 && Object.keys(filters).length === given.length) {
        judged(...(given.length > 1 ? ['CALLS-LIST-AND-NARROWING'] : given.map((name: FilterName) => FILTER_REQUIREMENTS[name])));
        report(filterNarrowing(exchange, calls, judgedFilters, ctx.readings), source);
      }
      const onBehalfOf = exchange.request.headers.onbehalfof;
      if (onBehalfOf !== undefined && onBehalfOf !== '') {
        judged('CALLS-LIST-ON-BEHALF-OF');
        report(onBehalfOfScope(exchange, calls, onBehalfOf), source);
      }
    }

    if (operation === 'getCall' && success) {
      const onBehalfOf = exchange.request.headers.onbehalfof;
      if (onBehalfOf !== undefined && onBehalfOf !== '') {
        judged('CALLS-GET-ON-BEHALF-OF-SCOPE');
        report(getOnBehalfOfScope(exchange, calls, onBehalfOf), source);
      }
    }

    if (operation === 'getCall' && success && !envelopeLearned) {
      // The body is kept whole until the envelope is learned: at most ENVELOPE_SAMPLE of them.
      envelopeWaiting.push({ exchange, source });
      if (envelopeWaiting.length >= ENVELOPE_SAMPLE) learnEnvelope();
    }

    if (operation === 'getCall' && pending.sessionId !== undefined) {
      if (success) report(answersCall(exchange, pending.sessionId, 'CALLS-GET-OK'), source);
      // A call an answer showed before exists: Get Call must not call it unknown (calls are never deleted).
      const shownBy = shownIds.get(`${host} ${pending.sessionId}`);
      const sighting = { source, ...(pending.span && { span: pending.span }) };
      const notFoundKey = `${host} ${pending.sessionId}`;
      if (
        codes.includes('ERR_CALL_SESSION_NOT_FOUND') &&
        exchange.request.headers.onbehalfof === undefined &&
        later(sighting, notFound.get(notFoundKey))
      )
        notFound.set(notFoundKey, { ...sighting, exchange: slim(exchange) });
      if (
        codes.includes('ERR_CALL_SESSION_NOT_FOUND') &&
        shownBy !== undefined &&
        surelyBefore(shownBy.span, pending.span) &&
        exchange.request.headers.onbehalfof === undefined
      ) {
        report(shownIdCalledUnknown(exchange, pending.sessionId, shownBy), source, [shownBy.source]);
      }
    }

    const moment = momentOf(calls);
    if (moment !== undefined && pending.span) clock.saw(pending.span.end, moment);
    for (const seen of calls) {
      const id = seen.call.sessionId;
      if (typeof id !== 'string' || id === '') continue;
      const key = `${host} ${id}`;
      const sighting = { source, ...(pending.span && { span: pending.span }) };
      if (sooner(sighting, shownIds.get(key))) shownIds.set(key, sighting);
      if (exchange.request.headers.onbehalfof !== undefined || (operation !== 'listCalls' && operation !== 'getCall')) continue;
      // Get Call against the same call in a list, in the order the two answers happened.
      const answer: KeptAnswer = {
        seen: { ...seen, exchange: slim(exchange) },
        source,
        ...(pending.span && { span: pending.span }),
        ...(moment !== undefined && { moment }),
      };
      const [mine, theirs] = operation === 'listCalls' ? [listedCalls, fetchedCalls] : [fetchedCalls, listedCalls];
      const other = theirs.get(key);
      if (other) {
        const comparison = getMatchesListOverTime(other, answer, clock, options.settleSeconds);
        if (comparison.judged) judged('CALLS-GET-MATCHES-LIST');
        report(comparison.violations, comparison.source, comparison.related);
      }
      // The latest answer of each view is kept: an answer recorded late but given earlier does not replace it.
      const previous = mine.get(key);
      if (!previous || orderOf(previous.span, answer.span) !== 'second-earlier') mine.set(key, answer);
    }
  }

  const judge: PassiveJudge = {
    add(recorded: RecordedExchange): void {
      if (finished) throw new Error('the passive judge has finished; add() after finish() is a mistake');
      entries += 1;
      const found = recognise(recorded.request.method, recorded.request.url, options.bases);
      if (typeof found === 'string') {
        ignored[found] = (ignored[found] ?? 0) + 1;
        return;
      }
      if (!Number.isInteger(recorded.response.status) || recorded.response.status <= 0) {
        ignored['no response recorded'] = (ignored['no response recorded'] ?? 0) + 1;
        return;
      }
      const { exchange, redactedNames: names, secrets: values } = redactRecorded(recorded, found.operation);
      for (const name of names) redactedNames.add(name);
      for (const value of values) if (secrets.size < limits.secrets) secrets.add(value);
      const observation = observed(exchange, recorded);
      if (observation !== undefined) tallyObservation(coverage, observation, recorded.source);
      const apiKey = recorded.request.headers.find(([name]) => name.toLowerCase() === 'apikey')?.[1];
      const span = spanOf(recorded.startedAt, recorded.durationMs, (options.maxAnswerAgeSeconds ?? 0) * 1000);
      const pending: Pending = {
        exchange,
        source: recorded.source,
        ...(span && { span }),
        ...(found.sessionId !== undefined && { sessionId: found.sessionId }),
        bodyAbsent: recorded.response.bodyText === undefined,
        hasApiKey: apiKey !== undefined && apiKey.trim() !== '',
        otherCredential: recorded.request.headers.some(
          ([name, value]) => name.toLowerCase() !== 'apikey' && isSecretHeader(name) && value.trim() !== '',
        ),
        // A key the recording replaced with a placeholder names no key: it cannot be followed across exchanges.
        ...(apiKey !== undefined && apiKey.trim() !== '' && !isPlaceholderKey(apiKey.trim()) && { apiKeyHash: hashOf(apiKey.trim()) }),
      };
      if (context) return judgeOne(pending);
      waiting.push(pending);
      if (!pending.bodyAbsent) waitingCalls += callsIn(exchange).length;
      if (waitingCalls >= sampleCalls || waiting.length >= sampleExchanges) learn();
    },
    finish(): PassiveResult {
      if (!finished) {
        if (!context) learn();
        if (!envelopeLearned && envelopeWaiting.length > 0) learnEnvelope();
        finished = true;
      }
      return resultNow();
    },
    snapshot: () => resultNow(),
    state(sources: string[]): PassiveState {
      const result = resultNow();
      // Every text a merge writes passes the scrubber of the secrets this judge saw, since a merge never sees them.
      const clean = <T>(value: T): T => scrubbed(value, result.redact);
      return {
        format: STATE_FORMAT,
        runs: [{ id: runId, sources, startedAt: result.startedAt }],
        startedAt: result.startedAt,
        asOf: result.endedAt,
        final: finished,
        profile: result.profile,
        settleSeconds: options.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
        entries: result.entries,
        exchanges: result.exchanges,
        byOperation: result.byOperation,
        ignored: result.ignored,
        bodiesAbsent: result.bodiesAbsent,
        redacted: result.redacted,
        requirements: clean([...tallies].map(([id, tally]) => [id, { ...tally, examples: [...tally.examples] }])),
        readings: clean(readingSummaries),
        learned: context && {
          minutes: context.readings.minutes,
          participantCount: context.readings.participantCount,
          getCallEnvelope: context.readings.getCallEnvelope,
          timer: context.readings.timer,
        },
        listed: clean(listedCalls.entries()),
        fetched: clean(fetchedCalls.entries()),
        shown: clean(shownIds.entries()),
        unknownKeys: unknownKeys.entries(),
        keyAnswers: clean(keyAnswers.entries()),
        notFound: clean(notFound.entries()),
        clock: clock.readings(),
        // Its keys too: a page size's is the value the request carried.
        coverage: clean({
          ...result.coverage,
          items: Object.fromEntries(Object.entries(result.coverage.items).map(([key, entry]) => [result.redact(key), entry])),
        }),
      };
    },
  };

  function resultNow(): PassiveResult {
    const requirements = new Map(
      [...tallies]
        .filter(([, entry]) => entry.judged > 0 || entry.violations > 0)
        .map(([id, entry]) => [id, { ...entry, examples: [...entry.examples] }]),
    );
    const secretList = [...secrets].sort((a, b) => b.length - a.length);
    const waitingNow = finished ? 0 : waiting.length;
    return {
      entries,
      exchanges: judgedExchanges,
      byOperation: { ...byOperation },
      ignored: { ...ignored, ...(waitingNow > 0 && { [WAITING_FOR_READINGS]: waitingNow }) },
      bodiesAbsent,
      requirements,
      notJudged: notJudgedOf(requirements, catalog),
      readings: readingSummaries,
      redacted: [...redactedNames].sort(),
      redact: (text) => scrub(text, secretList),
      profile: options.profile ?? 'spec',
      startedAt,
      endedAt: new Date().toISOString(),
      coverage: mergeTallies(emptyTally(), coverage),
    };
  }
  return judge;
}

/**
 * What an exchange tried of the interface (core/coverage/observe.ts), from the redacted exchange the
 * checks read, its key header as the recording has it: the redaction names headers in lower case
 * and puts a placeholder in place of every key, an empty one too, where the coverage of the key
 * header's case and of an empty key looks. Only names and the emptiness of a key are taken from the
 * recording, never a value. Undefined should the model fail on it (an error of the suite's): the
 * exchange is still judged, and add() still never throws on what traffic holds.
 */
function observed(exchange: Exchange, recorded: RecordedExchange): Observation | undefined {
  const headers: Record<string, string> = {};
  for (const [name, value] of recorded.request.headers) {
    if (name.startsWith(':')) continue;
    const redacted = exchange.request.headers[name.toLowerCase()];
    if (redacted === undefined || headers[name] !== undefined) continue;
    headers[name] = isSecretHeader(name) && value.trim() === '' ? '' : redacted;
  }
  try {
    return observe({ ...exchange, request: { ...exchange.request, headers } });
  } catch {
    return undefined;
  }
}

/** Exchanges a report written while the judge runs counts as not judged yet: the readings are learned from the first calls first. */
export const WAITING_FOR_READINGS = 'exchanges waiting to be judged until the readings are learned from the first calls';

/** Why each requirement of the catalog that `requirements` does not hold was not judged. */
export function notJudgedOf(requirements: ReadonlyMap<string, RequirementTally>, catalog: Catalog = loadCatalog()): Map<string, string> {
  const notJudged = new Map<string, string>();
  const judgeable = new Set([
    ...JUDGED_FROM_TRAFFIC,
    ...FIELD_REQUIREMENTS(catalog),
    ...CALL_INVARIANTS.map(({ requirement }) => requirement),
    ...Object.values(FILTER_REQUIREMENTS),
  ]);
  for (const requirement of catalog.requirements) {
    if (requirements.has(requirement.id)) continue;
    const reason =
      NEVER_FROM_TRAFFIC[requirement.id] ??
      (judgeable.has(requirement.id)
        ? `the recorded traffic held no exchange that could show it (${WHAT_SHOWS[requirement.id] ?? 'a successful List Calls or Get Call answer carrying calls'})`
        : notShownReason(requirement.kind));
    notJudged.set(requirement.id, reason);
  }
  return notJudged;
}

/** Every string of a value passed through `clean`. */
function scrubbed<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((item) => scrubbed(item, clean)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, clean)])) as T;
  return value;
}

function notShownReason(kind: string): string {
  if (kind === 'not-shown') return 'a "not shown" item: the suite observes it with requests of its own choosing';
  return 'passive mode has no check for it: it needs requests the suite chooses, or knowledge of the target that traffic does not carry';
}

/** The requirements passive mode judges beyond the field, invariant and filter requirements. */
const JUDGED_FROM_TRAFFIC = [
  'HTTP-JSON-BODIES',
  'ERROR-BODY-SHAPE',
  'ERROR-STATUS-CODES',
  'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT',
  'CALLS-LIST-OK',
  'PAGINATION-ENVELOPE',
  'PAGINATION-COUNT-IS-PAGE-SIZE',
  'PAGINATION-COUNT-WITHIN-BOUNDS',
  'PAGINATION-TOTAL-PAGES-CONSISTENT',
  'CALL-SESSION-ID-UNIQUE',
  'CALLS-GET-OK',
  'CHAT-UNREAD-RESULT-SHAPE',
  'CALLS-LIST-AND-NARROWING',
  'CALLS-LIST-ON-BEHALF-OF',
  'AUTH-EMPTY-KEY',
  'AUTH-INVALID-KEY',
  'CALLS-GET-MATCHES-LIST',
  'CHAT-UNREAD-OK',
];

/** What traffic would have to hold to show a requirement passive mode judges. */
const WHAT_SHOWS: Readonly<Record<string, string>> = {
  'HTTP-JSON-BODIES': 'an answer of the three operations with its body recorded',
  'ERROR-BODY-SHAPE': 'an error answer with its body recorded',
  'ERROR-STATUS-CODES': 'an error answer carrying a known error code',
  'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT': 'a request without an apikey header, or a List Calls filter value not of its type',
  'CALLS-LIST-OK': 'a successful List Calls answer',
  'PAGINATION-ENVELOPE': 'a successful List Calls answer',
  'PAGINATION-COUNT-IS-PAGE-SIZE': 'a successful List Calls answer',
  'PAGINATION-COUNT-WITHIN-BOUNDS': 'a successful List Calls answer',
  'PAGINATION-TOTAL-PAGES-CONSISTENT': 'a successful List Calls answer',
  'CALL-SESSION-ID-UNIQUE': 'a successful List Calls answer',
  'CALLS-GET-OK': 'a Get Call answer',
  'CHAT-UNREAD-RESULT-SHAPE': 'a successful Mark Group Conversation As Unread answer',
  'CALLS-LIST-AND-NARROWING': 'a List Calls request with two filters or more (date filters aside)',
  'CALLS-LIST-ON-BEHALF-OF': 'a List Calls request with an onBehalfOf header',
  'AUTH-EMPTY-KEY': 'a request without an apikey header',
  'AUTH-INVALID-KEY':
    'a request with an apikey header refused with AUTH_ERR_APIKEY_NOT_FOUND or AUTH_ERR_EMPTY_APIKEY, or a key answered AUTH_ERR_APIKEY_NOT_FOUND and sent again later',
  'CALLS-GET-MATCHES-LIST': 'a call both listed and fetched, the earlier of the two answers showing it ended',
  ...Object.fromEntries(
    Object.entries(FILTER_REQUIREMENTS).map(([name, id]) => [id, `a List Calls request with the ${name} filter alone`]),
  ),
};

/** AUTH-INVALID-KEY: a key the target called unknown (in `calledUnknown`) was answered otherwise later, in `exchange`. */
export function unknownKeyAnsweredOtherwise(exchange: Exchange, calledUnknown: Sighting): Violation[] {
  return carriesErrorCode(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'AUTH-INVALID-KEY').map((violation) => ({
    ...violation,
    title: `a key the target answered AUTH_ERR_APIKEY_NOT_FOUND to (${calledUnknown.source}) was then answered otherwise`,
  }));
}

/** CALLS-GET-OK: Get Call called a session id unknown that an earlier answer (`shownBy`) showed; calls are never deleted. */
export function shownIdCalledUnknown(exchange: Exchange, sessionId: string, shownBy: Sighting): Violation[] {
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

function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0]!.slice(0, 200);
}
