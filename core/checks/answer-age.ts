// Answers older than their arrival. A deployment behind a cache (a CDN or gateway keeping each answer
// a few seconds) or a read replica that lags its primary answers with a true snapshot of its store,
// taken some seconds before the answer arrives. Nothing in the specification speaks of freshness, so
// such an answer breaks no words; it only breaks the comparisons that read an answer as the store at
// the moment it arrived: a list asked after another may show the store as it was before it.
//
// The rule every comparison of two answers keeps: an answer that arrived at `t` shows the store as
// it was at some moment in [t - MAX_ANSWER_AGE, t]. So an answer asked once MAX_ANSWER_AGE has passed
// since another arrived shows the store as it was after that other one did. Where what a comparison
// found could be explained by one answer being older than another, it is asked again in that order
// (`outlast`) and judged on the answers whose order is certain; what no age within the bound explains
// fails. Where asking again removed what was found, the answers showed how old one of them was, and
// that is reported, per operation, as the suite reports what it learned.
import type { OperationId } from '../../openapi/contract.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { SeenCall } from './calls-in.ts';
import { lastMomentOf } from './settling.ts';
import type { Violation } from './violation.ts';

/** The annotation that carries, from a test to the reports, the largest age it saw per operation. */
export const ANSWER_AGE_ANNOTATION = 'answer-age';

/** Per operation, the largest age (whole seconds) its answers were seen to have at least; an operation none was seen on is absent. */
export type AgesSeen = Partial<Record<OperationId, number>>;

/** Seconds by default: a CDN's or gateway's micro-cache, a read replica's lag. */
export const DEFAULT_MAX_ANSWER_AGE = 10;
/** The largest bound MAX_ANSWER_AGE takes: a comparison that must outlast more would take longer than a test may. */
export const MAX_ANSWER_AGE_LIMIT = 120;

export interface AnswerAge {
  /** How much older than its arrival an answer may be, in milliseconds (MAX_ANSWER_AGE). */
  readonly boundMs: number;
  /**
   * Resolves, true, once every one of `answers` arrived at least the bound ago: an answer asked from
   * then on shows the store as it was after each of them. False, at once, where the suite does not
   * wait (`waits` off): the comparison is then left unjudged.
   */
  outlast(answers: readonly Exchange[]): Promise<boolean>;
  /**
   * Whether `outlast` waits. The examples fast-check tries while it shrinks a counterexample do not:
   * a failing property then costs the waits of the counterexample it reports (rehearsed with the
   * others, several at once), not those of every candidate tried.
   */
  waits: boolean;
  /** Evidence that an answer of `operation` was at least `seconds` older than its arrival. */
  saw(operation: OperationId, seconds: number): void;
  /** The largest age each operation's answers were seen to have, in whole seconds. */
  largest(): AgesSeen;
}

export interface AnswerAgeOptions {
  /** Waits `ms`; the suite's own bound, so the fixture gives the time back to the running test. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The age bound of a run, with its own record of what it saw. */
export function answerAge(boundSeconds: number, options: AnswerAgeOptions = {}): AnswerAge {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resume) => setTimeout(resume, ms)));
  const now = options.now ?? Date.now;
  const boundMs = boundSeconds * 1000;
  const seen: AgesSeen = {};
  return {
    boundMs,
    waits: true,
    async outlast(answers) {
      if (boundMs === 0) return true;
      const wait = latestArrival(answers, now()) + boundMs - now();
      if (wait <= 0) return true;
      if (!this.waits) return false;
      await sleep(wait);
      return true;
    },
    saw(operation, seconds) {
      const whole = Math.floor(seconds);
      if (whole > 0 && whole > (seen[operation] ?? 0)) seen[operation] = whole;
    },
    largest: () => ({ ...seen }),
  };
}

/** When the last of the answers arrived; one that does not say is taken to have arrived now. */
function latestArrival(answers: readonly Exchange[], now: number): number {
  let latest = Number.NEGATIVE_INFINITY;
  for (const answer of answers) latest = Math.max(latest, answer.receivedAt ?? now);
  return latest;
}

/** Seconds between two arrivals, the later one's first: how old the later answer was at least, when it showed the store before the earlier one. */
export function arrivalGapSeconds(earlier: Exchange, later: Exchange): number | undefined {
  if (earlier.receivedAt === undefined || later.receivedAt === undefined) return undefined;
  return Math.max(0, (later.receivedAt - earlier.receivedAt) / 1000);
}

/** One line for a report: the largest age seen on each operation, or undefined when none was. */
export function describeAges(largest: AgesSeen, boundSeconds: number): string | undefined {
  const entries = Object.entries(largest).filter(([, seconds]) => (seconds ?? 0) > 0);
  if (entries.length === 0) return undefined;
  const each = entries.map(([operation, seconds]) => `${operation} at least ${seconds} s`).join(', ');
  return `answers older than their arrival were seen (${each}); comparisons were judged on answers asked ${boundSeconds} s (MAX_ANSWER_AGE) apart where an age could explain what they found`;
}

/**
 * The calls whose last moment is more than `seconds` before the target's clock (the newest moment
 * its answers showed, settling.ts): an answer up to that old, asked from now on, shows each of them
 * as it was at that moment or later. With no age, or no clock, every call.
 */
export function stillFor<T extends SeenCall>(calls: readonly T[], clock: number | undefined, seconds: number): T[] {
  if (seconds === 0 || clock === undefined) return [...calls];
  return calls.filter(({ call }) => {
    const last = lastMomentOf(call);
    return last !== undefined && clock - last > seconds;
  });
}

/** Whether `answer` may show the store as it was before every one of `earlier` arrived. */
function mayPredate(earlier: readonly Exchange[], answer: Exchange, age: AnswerAge): boolean {
  if (age.boundMs === 0 || earlier.length === 0) return false;
  return (answer.receivedAt ?? Number.POSITIVE_INFINITY) - latestArrival(earlier, Date.now()) < age.boundMs;
}

/**
 * Asks (`ask`) and judges the answer against what `earlier` answers showed. Where it found something
 * and the answer may predate them (it arrived within the age bound after them), it is asked again
 * once their age is outlasted, and that answer is judged instead: what it finds no age explains.
 * What the second answer no longer finds shows how old the first one was, at least.
 */
export async function judgedAfter(
  earlier: readonly Exchange[],
  age: AnswerAge,
  ask: () => Promise<Exchange>,
  judge: (answer: Exchange) => Violation[],
): Promise<{ answer: Exchange; violations: Violation[] }> {
  const answer = await ask();
  const violations = judge(answer);
  if (violations.length === 0 || !mayPredate(earlier, answer, age)) return { answer, violations };
  // Not waited for (a rehearsal, a shrink): not judged, rather than judged on an answer that may predate.
  if (!(await age.outlast(earlier))) return { answer, violations: [] };
  const again = await ask();
  const still = judge(again);
  const newest = earlier.reduce((latest, exchange) => ((exchange.receivedAt ?? 0) > (latest.receivedAt ?? 0) ? exchange : latest));
  if (still.length === 0) age.saw(answer.operation, arrivalGapSeconds(newest, answer) ?? 0);
  return { answer: again, violations: still };
}
