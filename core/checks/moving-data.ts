// A living target logs new calls, ends ongoing ones and grows their minutes while the suite runs, so
// two answers taken a moment apart may differ because the data moved, not because the target is
// wrong. Every check that compares answers taken at different moments, off ground that cannot move
// (learning/still-ground.ts), runs through one of two judgements:
// - `judgeStill`, for comparisons of whole answers (totals, pages): an attempt (the requests of one
//   comparison) that shows no movement and breaks nothing is judged at once, so a target that stands
//   still costs nothing more; an attempt that breaks something, or whose answers show the data moved
//   (one list answering two totals, one call answering two states), is taken again. What it found is
//   judged only once a retake confirms it: a retake that answers every list as before (the same
//   total, the same calls on what it shows, each in the same state), with the same violations. A
//   target wrong in itself answers the same wrong thing again, so "it moved" never excuses it. Comparing totals and shared calls alone is not enough: the calls of a
//   list of ringing calls turn over whole in seconds, and two attempts can meet two different sets
//   of calls of the same size;
// - `judgeInOrder`, for comparisons whose findings each name a call that one answer showed and an
//   answer asked after it lacks: movement explains one such finding, never the same one found again
//   in answers asked in an order no movement and no age of an answer explains (see there).
// Behind a cache or a read replica an answer shows the store some seconds before it arrives
// (answer-age.ts): each judgement asks again only once that age is outlasted, so age never fails a
// target and never excuses one.
// After a bounded number of attempts that all moved, the comparison is left unjudged and said so.
// Data moves one way: calls are logged, never unlogged, and a call's state goes forward, never back
// to what it was. So two identical answers to the same questions, a moment apart, mean nothing moved
// in between that they show.
import { callsIn, isObject, numberOrUndefined, participantsOf, type CallObject } from './calls-in.ts';
import { pageOf } from './pagination.ts';
import type { Violation } from './violation.ts';
import { headerOf, type Exchange } from '../transport/exchange.ts';
import { PAGE_SIZE_NAMES } from '../learning/paging.ts';
import { answerAge, arrivalGapSeconds, type AnswerAge } from './answer-age.ts';

/** Attempts of one comparison before it is left unjudged: at one new call a second, a still moment comes well before. */
export const STILL_ATTEMPTS = 4;

/** What one comparison came to. */
export type StillOutcome =
  { judged: true; violations: Violation[]; retakes: number } | { judged: false; retakes: number; movement: string };

/**
 * Takes the comparison (`take` sends its requests and returns every answer it judges by, including
 * any from earlier that it compares against) and judges it (`judge`, a pure function of the answers)
 * once the data stood still for it. An attempt that found something is taken again only once every
 * answer of it may have been no older than its arrival (`age`, answer-age.ts): two attempts that
 * answer alike, the second asked after that, show every list as it was at one moment, the last
 * arrival of the first, whatever cache or replica answered them.
 */
export async function judgeStill<A extends { answers: readonly Exchange[] }>(
  take: () => Promise<A>,
  judge: (attempt: A) => Violation[],
  // By default a bound of nothing (answers as fresh as their arrival), each caller its own: what an
  // age records, and whether it waits, is never shared between comparisons that did not ask for it.
  age: AnswerAge = answerAge(0),
  attempts = STILL_ATTEMPTS,
): Promise<StillOutcome> {
  let previous: { attempt: A; violations: Violation[] } | undefined;
  let movement = '';
  // Whether the attempt being judged was asked once the previous one's age was outlasted: only such
  // an attempt confirms what the previous one found. The first retake is asked at once (a target
  // that answers fresh and moved passes without a wait), and with no age every retake is such.
  let outlasted = age.boundMs === 0;
  for (let taken = 0; taken < attempts; taken += 1) {
    const attempt = await take();
    const violations = judge(attempt);
    const within = movementWithin(attempt.answers);
    if (violations.length === 0 && within === undefined) return { judged: true, violations, retakes: taken };
    if (previous) {
      const between = movementBetween(previous.attempt.answers, attempt.answers);
      const confirmed = violations.length === 0 || outlasted;
      if (between === undefined && confirmed && sameViolations(previous.violations, violations))
        return { judged: true, violations, retakes: taken };
      movement = between ?? within ?? 'the answers changed between two attempts';
    } else {
      movement = within ?? 'the answers changed between two attempts';
    }
    previous = { attempt, violations };
    outlasted = age.boundMs === 0;
    if (violations.length > 0 && taken > 0 && taken + 1 < attempts) {
      if (!(await age.outlast(attempt.answers))) return { judged: false, retakes: taken, movement: NOT_WAITED };
      outlasted = true;
    }
  }
  return { judged: false, retakes: attempts - 1, movement };
}

/** Why a comparison was left unjudged where the suite did not wait out an answer's age (answer-age.ts). */
const NOT_WAITED = 'not asked again once its answers could no longer be older than their arrival (a shrink of a counterexample)';

/** A comparison of answers asked in order: those that show calls, then those that must hold them. */
export interface InOrder<First, Then> {
  /** Asks the answers whose calls are looked for. */
  first: () => Promise<First>;
  /** Asks the answers that must hold them. */
  then: () => Promise<Then>;
  /** Each call `first` shows that `then` lacks, as a violation naming it. */
  judge: (first: First, then: Then) => Violation[];
  /** The answers of each, to wait out their age. */
  answersOf: (taken: First | Then) => readonly Exchange[];
  /** What names a finding across attempts (violationKey by default): what it says of the call, not of the answer's size. */
  findingKey?: (violation: Violation) => string;
  /**
   * Told when asking again found what an earlier `then` lacked: that answer was at least `seconds`
   * older than its arrival, or the call moved on and back, which a call never does.
   */
  explainedByAge?: (seconds: number) => void;
}

/**
 * Judges a comparison whose findings each name a call that a `first` answer showed and a `then`
 * answer lacks. A call may move on between the two (its state only goes forward), and a `then`
 * answer may show the store as it was before the `first` did (answer-age.ts), so a finding stands
 * only when answers in a certain order show it: a `first` showing the call, a `then` asked once that
 * one's age is outlasted lacking it, and a `first` asked once the `then`'s age is outlasted showing
 * it again, in the same state as the filters see it. A call's state never goes back, so it was in
 * that state when the `then` answered. An attempt that finds nothing is judged at once; a comparison
 * whose findings never stand is left unjudged. No retake needs the data to stand still, so a target
 * that moves fast is judged as surely as one that stands.
 */
export async function judgeInOrder<First, Then>(
  comparison: InOrder<First, Then>,
  age: AnswerAge = answerAge(0),
  attempts = STILL_ATTEMPTS,
): Promise<StillOutcome> {
  const { first, then, judge, answersOf } = comparison;
  const keyOf = comparison.findingKey ?? violationKey;
  let shown = await first();
  let lacking = await then();
  let found = judge(shown, lacking);
  let taken = 1;
  if (found.length > 0 && attempts > 1) {
    // Most such findings on a living target are calls that moved on between the two answers: a new
    // attempt at once, which costs no wait, passes a target that answers fresh.
    [shown, taken] = [await first(), taken + 1];
    lacking = await then();
    found = judge(shown, lacking);
  }
  for (; taken < attempts && found.length > 0; taken += 1) {
    if (!(await age.outlast(answersOf(shown)))) return { judged: false, retakes: taken, movement: NOT_WAITED };
    const laterLacking = await then();
    const stillLacking = judge(shown, laterLacking);
    if (stillLacking.length < found.length) explainAge(comparison, shown, lacking, found, stillLacking);
    if (stillLacking.length === 0) return { judged: true, violations: [], retakes: taken };
    if (!(await age.outlast(answersOf(laterLacking)))) return { judged: false, retakes: taken, movement: NOT_WAITED };
    const shownAgain = await first();
    const earlier = new Set(stillLacking.map(keyOf));
    const standing = judge(shownAgain, laterLacking).filter((violation) => earlier.has(keyOf(violation)));
    if (standing.length > 0) return { judged: true, violations: standing, retakes: taken };
    // Nothing stood: each call found had moved on. A new attempt, the later answers first as ever:
    // calls `shownAgain` holds that `laterLacking`, asked before it, lacks are only new calls.
    shown = shownAgain;
    lacking = await then();
    found = judge(shown, lacking);
  }
  if (found.length === 0) return { judged: true, violations: [], retakes: taken - 1 };
  return { judged: false, retakes: attempts - 1, movement: `each attempt found another call missing (the last: ${found[0]!.title})` };
}

/** What an answer asked again found, that an earlier one lacked, says of the earlier one's age. */
function explainAge<First, Then>(
  comparison: InOrder<First, Then>,
  shown: First,
  lacking: Then,
  found: readonly Violation[],
  stillLacking: readonly Violation[],
): void {
  if (!comparison.explainedByAge) return;
  const still = new Set(stillLacking.map(violationKey));
  const gone = found.filter((violation) => !still.has(violationKey(violation)));
  for (const violation of gone) {
    const showing = comparison.answersOf(shown);
    const earlier = showing.find((answer) => answer === violation.exchange) ?? showing[0];
    const later = comparison.answersOf(lacking);
    const gap = earlier && later.length > 0 ? Math.min(...later.map((answer) => arrivalGapSeconds(earlier, answer) ?? 0)) : 0;
    if (gap > 0) comparison.explainedByAge(gap);
  }
}

/** A list's identity: the same filters and scope, whatever the page asked for. */
function listIdentity(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  url.searchParams.delete('page');
  for (const name of PAGE_SIZE_NAMES) url.searchParams.delete(name);
  url.searchParams.sort();
  return `${url.pathname}?${url.searchParams} ${headerOf(exchange.request.headers, 'onBehalfOf')?.[1] ?? ''}`;
}

/** What of a call changes while it lives: its status, its end, its minutes, who joined, its recording. */
export function callState(call: CallObject): string {
  const participants = participantsOf(call);
  return JSON.stringify([
    call.status,
    call.endedAt,
    call.hasRecording,
    numberOrUndefined(call.totalAudioMinutes),
    numberOrUndefined(call.totalVideoMinutes),
    call.totalParticipants,
    participants.length,
    participants.filter((entry) => entry.isJoined === true).length,
  ]);
}

/** The state of every call the answers show, by sessionId; two states for one call are kept apart. */
function statesOf(answers: readonly Exchange[]): Map<unknown, Set<string>> {
  const states = new Map<unknown, Set<string>>();
  for (const exchange of answers) {
    for (const { call } of callsIn(exchange)) {
      if (!isObject(call) || call.sessionId === undefined) continue;
      const seen = states.get(call.sessionId) ?? new Set<string>();
      seen.add(callState(call));
      states.set(call.sessionId, seen);
    }
  }
  return states;
}

/** The totals each list answered, by list. */
function totalsOf(answers: readonly Exchange[]): Map<string, Set<number>> {
  const totals = new Map<string, Set<number>>();
  for (const exchange of answers) {
    const total = exchange.operation === 'listCalls' ? pageOf(exchange)?.pagination.total : undefined;
    if (total === undefined) continue;
    const identity = listIdentity(exchange);
    totals.set(identity, (totals.get(identity) ?? new Set()).add(total));
  }
  return totals;
}

/** How the answers of one attempt show the data moved while they were taken, if they do. */
export function movementWithin(answers: readonly Exchange[]): string | undefined {
  for (const [identity, totals] of totalsOf(answers)) {
    if (totals.size > 1) return `one list (${describeList(identity)}) answered totals ${[...totals].join(' and ')}`;
  }
  for (const [sessionId, states] of statesOf(answers)) {
    if (states.size > 1) return `call ${String(sessionId)} was answered in ${states.size} states`;
  }
  return undefined;
}

/** The calls each list showed, by list, over every page of it the answers hold. */
function membersOf(answers: readonly Exchange[]): Map<string, Set<unknown>> {
  const members = new Map<string, Set<unknown>>();
  for (const exchange of answers) {
    if (exchange.operation !== 'listCalls' || !pageOf(exchange)) continue;
    const identity = listIdentity(exchange);
    const shown = members.get(identity) ?? new Set<unknown>();
    for (const { call } of callsIn(exchange)) shown.add(call.sessionId);
    members.set(identity, shown);
  }
  return members;
}

/** How two attempts at the same comparison differ in what the data was, if they do. */
export function movementBetween(earlier: readonly Exchange[], later: readonly Exchange[]): string | undefined {
  const before = totalsOf(earlier);
  for (const [identity, totals] of totalsOf(later)) {
    const then = before.get(identity);
    if (then && !sameSet(then, totals))
      return `a list (${describeList(identity)}) answered total ${[...then].join('/')}, then ${[...totals].join('/')}`;
  }
  // The same total can hold other calls: a list of ringing calls turns over whole in seconds.
  const membersBefore = membersOf(earlier);
  for (const [identity, members] of membersOf(later)) {
    const then = membersBefore.get(identity);
    if (then && !sameSet(then, members)) return `a list (${describeList(identity)}) showed other calls in the same total`;
  }
  const statesBefore = statesOf(earlier);
  for (const [sessionId, states] of statesOf(later)) {
    const then = statesBefore.get(sessionId);
    if (then && !sameSet(then, states)) return `call ${String(sessionId)} changed between two attempts`;
  }
  return undefined;
}

const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => a.size === b.size && [...a].every((item) => b.has(item));

const violationKey = (violation: Violation) => `${violation.requirement}|${violation.title}|${violation.received}`;
const sameViolations = (a: readonly Violation[], b: readonly Violation[]) =>
  sameSet(new Set(a.map(violationKey)), new Set(b.map(violationKey)));

function describeList(identity: string): string {
  const [path, scope] = identity.split(' ');
  const query = path!.split('?')[1];
  return `${query ? query : 'no filter'}${scope ? `, on behalf of ${scope}` : ''}`;
}

/**
 * What a test's comparisons came to, for its report: how many had to be taken again because the
 * data moved, and how many were left unjudged. Movement alone never fails a requirement; a
 * comparison left unjudged is not a pass either: a test none of whose comparisons could be judged
 * is skipped, saying why.
 */
export class MovementTally {
  private compared = 0;
  private retaken = 0;
  private retakes = 0;
  private readonly unjudged: string[] = [];

  count(outcome: StillOutcome): StillOutcome {
    this.compared += 1;
    if (outcome.retakes > 0) this.retaken += 1;
    this.retakes += outcome.retakes;
    if (!outcome.judged) this.unjudged.push(outcome.movement);
    return outcome;
  }

  get judged(): number {
    return this.compared - this.unjudged.length;
  }

  /** One sentence for the report, or undefined when nothing moved. */
  describe(): string | undefined {
    if (this.retaken === 0) return undefined;
    const left =
      this.unjudged.length === 0
        ? ''
        : `; ${this.unjudged.length} left unjudged after ${STILL_ATTEMPTS} attempts each (the last: ${this.unjudged.at(-1)})`;
    return `the data moved while it was compared: ${this.retaken} of ${this.compared} comparisons were taken again (${this.retakes} retakes in all)${left}`;
  }

  /** Why nothing was judged, when nothing was. */
  skipReason(): string | undefined {
    if (this.compared === 0 || this.judged > 0) return undefined;
    return `Not judged: the data moved during each of ${STILL_ATTEMPTS} attempts at every comparison (${this.unjudged.at(-1)}).`;
  }
}

/**
 * Says in the report how the data moved under a test's comparisons (an observation of the
 * requirement the test judges), and skips the test when none of them could be judged.
 */
export function reportMovement(
  verdict: { observe(requirementId: string, description: string): void },
  tally: MovementTally,
  requirementId: string,
  skip: (condition: boolean, reason: string) => void,
): void {
  const described = tally.describe();
  if (described) verdict.observe(requirementId, described);
  const reason = tally.skipReason();
  skip(reason !== undefined, reason ?? '');
}
