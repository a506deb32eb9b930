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
//
// Its parts: exchange-rules.ts (the table of rules each exchange is judged by), readings-learner.ts
// (the readings learned from the first calls, while exchanges wait), sightings.ts (what is kept
// across exchanges) and requirement-tallies.ts (the counts and examples per requirement).
import { createHash, randomUUID } from 'node:crypto';
import { loadCatalog, type Catalog } from '../openapi/catalog.ts';
import { loadContract, type Contract, type OperationId } from '../openapi/contract.ts';
import { getCallEnvelopeConsistency } from '../core/checks/get-call-envelope.ts';
import type { Readings } from '../core/checks/readings.ts';
import { DEFAULT_SETTLE_SECONDS } from '../core/checks/settling.ts';
import type { DetectionSummary } from '../core/learning/detection.ts';
import type { Exchange } from '../core/transport/exchange.ts';
import type { Profile } from '../core/run/profile.ts';
import { observe, type Observation } from '../core/coverage/observe.ts';
import { emptyTally, mergeTallies, tallyObservation, type CoverageTally } from '../core/coverage/tally.ts';
import { factsOf, judgeByRules, WALK_REQUIREMENTS, type Bench, type Pending } from './exchange-rules.ts';
import { ListingWalks, type WalkSink } from './listing-walks.ts';
import { FIELD_REQUIREMENTS, notJudgedOf } from './not-judged.ts';
import { recognise, type Bases } from './operations.ts';
import { ReadingsLearner } from './readings-learner.ts';
import { isPlaceholderKey, isSecretHeader, redactRecorded, scrub } from './redaction.ts';
import type { ExchangeSink, RecordedExchange } from './recorded-exchange.ts';
import { RequirementTallies, type RequirementTally } from './requirement-tallies.ts';
import { Sightings, type CitedSighting, type Sighting } from './sightings.ts';
import { spanOf, type KeptAnswer } from './over-time.ts';
import { errorLine } from '../core/results/visible.ts';

export { later, sooner } from './sightings.ts';
export { getCallShownId, unknownKeyAnsweredOtherwise } from './exchange-rules.ts';
export type { PassiveViolation, RequirementTally } from './requirement-tallies.ts';

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
  /** Walks of a listing's pages open at once (listing-walks.ts): past it the oldest is judged and closed. */
  openListings: number;
  /** Session ids the open walks keep, all together: past it the oldest walks are judged and closed. */
  listingIds: number;
}

export const DEFAULT_LIMITS: PassiveLimits = {
  shownSessionIds: 200_000,
  settledCalls: 5_000,
  unknownKeys: 1_000,
  examplesPerRequirement: 10,
  secrets: 1_000,
  clockReadings: 10_000,
  openListings: 200,
  listingIds: 100_000,
};

/** How the walks of listings' pages came out (listing-walks.ts): how many were judged, and how many were not, by why. */
export interface WalkCounts {
  judged: number;
  notJudged: Record<string, number>;
}

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
  /** The walks of listings' pages judged and not judged. Absent from the states of versions before it (none counted). */
  walks?: WalkCounts;
  /**
   * What the traffic tried of the interface (core/coverage/tally.ts), counted at add(). Absent from
   * the states of versions before it: a merge takes such a state's as empty, and says so.
   */
  coverage?: CoverageTally;
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
  /** The walks of listings' pages: judged, or not judged and why (those still open when a snapshot is taken are in neither). */
  walks: WalkCounts;
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

/**
 * A key's name in what the judge keeps: its hash, never the key. Traffic carries the same few keys
 * again and again, and hashing each request's cost a twentieth of the judging: the names of the keys
 * last seen are kept (at most KEY_HASHES_KEPT, all dropped when full).
 */
const keyHashes = new Map<string, string>();
const KEY_HASHES_KEPT = 1_000;
function hashOf(value: string): string {
  let hash = keyHashes.get(value);
  if (hash === undefined) {
    if (keyHashes.size >= KEY_HASHES_KEPT) keyHashes.clear();
    hash = createHash('sha256').update(value).digest('hex').slice(0, 32);
    keyHashes.set(value, hash);
  }
  return hash;
}

/** Everything one judge keeps while traffic flows. */
interface JudgeRun {
  options: PassiveJudgeOptions;
  catalog: Catalog;
  limits: PassiveLimits;
  startedAt: string;
  /** Names this judge's reports, so that a merge refuses the same traffic given twice (an interim and a final report of one proxy). */
  runId: string;
  entries: number;
  judgedExchanges: number;
  bodiesAbsent: number;
  finished: boolean;
  byOperation: Record<OperationId, number>;
  ignored: Record<string, number>;
  tallies: RequirementTallies;
  redactedNames: Set<string>;
  secrets: Set<string>;
  coverage: CoverageTally;
  learner: ReadingsLearner;
  sightings: Sightings;
  /** What the rules of exchange-rules.ts judge with. */
  bench: Bench;
  walks: WalkCounts;
}

export function createPassiveJudge(options: PassiveJudgeOptions = {}): PassiveJudge {
  const run = startRun(options);
  return {
    add: (recorded: RecordedExchange): void => addExchange(run, recorded),
    finish: (): PassiveResult => finishRun(run),
    snapshot: () => resultOf(run),
    state: (sources: string[]): PassiveState => stateOf(run, sources),
  };
}

function startRun(options: PassiveJudgeOptions): JudgeRun {
  const catalog = options.catalog ?? loadCatalog();
  const contract = options.contract ?? loadContract();
  const limits: PassiveLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const tallies = new RequirementTallies(limits.examplesPerRequirement);
  const sightings = new Sightings(limits);
  const walks: WalkCounts = { judged: 0, notJudged: {} };
  const learner = new ReadingsLearner({
    catalog,
    contract,
    settleSeconds: options.settleSeconds,
    sampleCalls: options.sampleCalls ?? 200,
    sampleExchanges: options.sampleExchanges ?? 100,
  });
  const run: JudgeRun = {
    options,
    catalog,
    limits,
    startedAt: new Date().toISOString(),
    runId: randomUUID(),
    entries: 0,
    judgedExchanges: 0,
    bodiesAbsent: 0,
    finished: false,
    byOperation: { listCalls: 0, getCall: 0, markGroupConversationAsUnread: 0 },
    ignored: {},
    tallies,
    redactedNames: new Set<string>(),
    secrets: new Set<string>(),
    coverage: emptyTally(),
    learner,
    sightings,
    walks,
    bench: {
      tallies,
      sightings,
      fieldRequirements: FIELD_REQUIREMENTS(catalog),
      settleSeconds: options.settleSeconds,
      envelopeKnown: () => learner.envelopeKnown,
      awaitEnvelope: (exchange, source) => {
        if (learner.holdForEnvelope(exchange, source)) learnEnvelope(run);
      },
      walks: new ListingWalks(limits, options.settleSeconds ?? DEFAULT_SETTLE_SECONDS, options.maxAnswerAgeSeconds ?? 0),
      walkSink: walkSinkOf(tallies, walks),
    },
  };
  return run;
}

const ignore = (run: JudgeRun, why: string): void => {
  run.ignored[why] = (run.ignored[why] ?? 0) + 1;
};

function addExchange(run: JudgeRun, recorded: RecordedExchange): void {
  if (run.finished) throw new Error('the passive judge has finished; add() after finish() is a mistake');
  run.entries += 1;
  const found = recognise(recorded.request.method, recorded.request.url, run.options.bases);
  if (typeof found === 'string') return ignore(run, found);
  if (!Number.isInteger(recorded.response.status) || recorded.response.status <= 0) return ignore(run, 'no response recorded');
  const { exchange, redactedNames: names, secrets: values } = redactRecorded(recorded, found.operation);
  for (const name of names) run.redactedNames.add(name);
  for (const value of values) if (run.secrets.size < run.limits.secrets) run.secrets.add(value);
  const observation = observed(exchange, recorded);
  if (observation !== undefined) tallyObservation(run.coverage, observation, recorded.source);
  const pending = pendingOf(recorded, exchange, found.sessionId, run.options.maxAnswerAgeSeconds ?? 0);
  if (run.learner.context) return judgeOne(run, pending);
  if (run.learner.hold(pending)) learnReadings(run);
}

/** A recorded exchange as the rules read it: its redacted exchange, when it happened, and what credentials it carried. */
function pendingOf(recorded: RecordedExchange, exchange: Exchange, sessionId: string | undefined, maxAnswerAgeSeconds: number): Pending {
  const apiKey = recorded.request.headers.find(([name]) => name.toLowerCase() === 'apikey')?.[1];
  const span = spanOf(recorded.startedAt, recorded.durationMs, maxAnswerAgeSeconds * 1000);
  return {
    exchange,
    source: recorded.source,
    ...(span && { span }),
    ...(sessionId !== undefined && { sessionId }),
    bodyAbsent: recorded.response.bodyText === undefined,
    hasApiKey: apiKey !== undefined && apiKey.trim() !== '',
    // A source that does not record the apikey header (an access log without it) says nothing of the
    // credentials: the request is taken as one that may have carried another scheme's, which no rule judges.
    otherCredential:
      (recorded.request.headersRecorded !== undefined && !recorded.request.headersRecorded.includes('apikey')) ||
      recorded.request.headers.some(([name, value]) => name.toLowerCase() !== 'apikey' && isSecretHeader(name) && value.trim() !== ''),
    // A key the recording replaced with a placeholder names no key: it cannot be followed across exchanges.
    ...(apiKey !== undefined && apiKey.trim() !== '' && !isPlaceholderKey(apiKey.trim()) && { apiKeyHash: hashOf(apiKey.trim()) }),
  };
}

function finishRun(run: JudgeRun): PassiveResult {
  if (!run.finished) {
    if (!run.learner.context) learnReadings(run);
    if (run.learner.envelopeAwaited) learnEnvelope(run);
    run.bench.walks.closeAll(run.bench.walkSink);
    run.finished = true;
  }
  return resultOf(run);
}

/** The readings learned from the exchanges that waited for them, which are then judged. */
function learnReadings(run: JudgeRun): void {
  for (const pending of run.learner.learn()) judgeOne(run, pending);
}

/** Get Call's envelope learned from the answers that waited for it, which are then judged for it. */
function learnEnvelope(run: JudgeRun): void {
  for (const { exchange, source } of run.learner.learnEnvelope())
    run.tallies.report(getCallEnvelopeConsistency(exchange, run.learner.context!), source);
}

/**
 * One exchange judged; an error of the suite's own on it (no answer's content should cause one,
 * json-text.ts bounds what can) is counted against that exchange, and the judging goes on.
 */
function judgeOne(run: JudgeRun, pending: Pending): void {
  try {
    judgeExchange(run, pending);
  } catch (error) {
    ignore(run, `exchanges the judge failed on (an error of the suite's: ${errorLine(error)})`);
  }
}

function judgeExchange(run: JudgeRun, pending: Pending): void {
  run.judgedExchanges += 1;
  run.byOperation[pending.exchange.operation] += 1;
  judgeByRules(factsOf(pending, run.learner.context!), run.bench);
  // Only what its status shows was judged of an answer whose body was not recorded.
  if (pending.bodyAbsent) run.bodiesAbsent += 1;
}

function resultOf(run: JudgeRun): PassiveResult {
  const requirements = new Map(run.tallies.copies().filter(([, entry]) => entry.judged > 0 || entry.violations > 0));
  const secretList = [...run.secrets].sort((a, b) => b.length - a.length);
  const waitingNow = run.finished ? 0 : run.learner.waitingCount;
  return {
    entries: run.entries,
    exchanges: run.judgedExchanges,
    byOperation: { ...run.byOperation },
    ignored: { ...run.ignored, ...(waitingNow > 0 && { [WAITING_FOR_READINGS]: waitingNow }) },
    bodiesAbsent: run.bodiesAbsent,
    requirements,
    notJudged: withWalks(notJudgedOf(requirements, run.catalog), run.walks),
    walks: { judged: run.walks.judged, notJudged: { ...run.walks.notJudged } },
    readings: run.learner.summaries,
    redacted: [...run.redactedNames].sort(),
    redact: (text) => scrub(text, secretList),
    profile: run.options.profile ?? 'spec',
    startedAt: run.startedAt,
    endedAt: new Date().toISOString(),
    coverage: mergeTallies(emptyTally(), run.coverage),
  };
}

function stateOf(run: JudgeRun, sources: string[]): PassiveState {
  const result = resultOf(run);
  const { context } = run.learner;
  const { sightings } = run;
  // Every text a merge writes passes the scrubber of the secrets this judge saw, since a merge never sees them.
  const clean = <T>(value: T): T => scrubbed(value, result.redact);
  return {
    format: STATE_FORMAT,
    runs: [{ id: run.runId, sources, startedAt: result.startedAt }],
    startedAt: result.startedAt,
    asOf: result.endedAt,
    final: run.finished,
    profile: result.profile,
    settleSeconds: run.options.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
    entries: result.entries,
    exchanges: result.exchanges,
    byOperation: result.byOperation,
    ignored: result.ignored,
    bodiesAbsent: result.bodiesAbsent,
    redacted: result.redacted,
    requirements: clean(run.tallies.copies()),
    readings: clean(run.learner.summaries),
    learned: context && {
      minutes: context.readings.minutes,
      participantCount: context.readings.participantCount,
      getCallEnvelope: context.readings.getCallEnvelope,
      timer: context.readings.timer,
    },
    listed: clean(sightings.listedCalls.entries()),
    fetched: clean(sightings.fetchedCalls.entries()),
    shown: clean(sightings.shownIds.entries()),
    unknownKeys: sightings.unknownKeys.entries(),
    keyAnswers: clean(sightings.keyAnswers.entries()),
    notFound: clean(sightings.notFound.entries()),
    clock: sightings.clock.readings(),
    walks: result.walks,
    // Its keys too: a page size's is the value the request carried.
    coverage: clean({
      ...result.coverage,
      items: Object.fromEntries(Object.entries(result.coverage.items).map(([key, entry]) => [result.redact(key), entry])),
    }),
  };
}

/**
 * What an exchange tried of the interface (core/coverage/observe.ts), from the redacted exchange the
 * checks read: it keeps the key header's name as recorded and an empty key empty, which is all the
 * coverage of the header's case and of an empty key looks at. Undefined should the model fail on it
 * (an error of the suite's): the exchange is still judged, and add() still never throws on what
 * traffic holds.
 */
function observed(exchange: Exchange, recorded: RecordedExchange): Observation | undefined {
  // Coverage says how each request carried its key: a source that does not record the apikey header
  // (an access log without it) cannot say, and credits nothing rather than a request without a key.
  const { headersRecorded } = recorded.request;
  if (headersRecorded !== undefined && !headersRecorded.includes('apikey')) return undefined;
  try {
    return observe(exchange);
  } catch {
    return undefined;
  }
}

/** What the walks of listings' pages report into: the tallies, and the counts of walks judged and not. */
function walkSinkOf(tallies: RequirementTallies, walks: WalkCounts): WalkSink {
  return {
    judged: () => {
      walks.judged += 1;
      tallies.judged(...WALK_REQUIREMENTS);
    },
    report: (violations, source, related) => tallies.report(violations, source, related),
    notJudged: (reason) => {
      walks.notJudged[reason] = (walks.notJudged[reason] ?? 0) + 1;
    },
  };
}

/** PAGINATION-PAGES-PARTITION not judged: the reason says how many listings the traffic held, and why none could be. */
export function withWalks(notJudged: Map<string, string>, walks: WalkCounts): Map<string, string> {
  const reason = notJudged.get('PAGINATION-PAGES-PARTITION');
  const counted = Object.entries(walks.notJudged);
  if (reason === undefined || counted.length === 0) return notJudged;
  const counts = counted.map(([why, count]) => `${count} × ${why}`).join('; ');
  return new Map([...notJudged, ['PAGINATION-PAGES-PARTITION', `${reason}; not judged: ${counts}`]]);
}

/** Exchanges a report written while the judge runs counts as not judged yet: the readings are learned from the first calls first. */
export const WAITING_FOR_READINGS = 'exchanges waiting to be judged until the readings are learned from the first calls';

/** Every string of a value passed through `clean`. */
function scrubbed<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === 'string') return clean(value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((item) => scrubbed(item, clean)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, clean)])) as T;
  return value;
}
