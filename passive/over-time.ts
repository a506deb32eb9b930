// Time in recorded traffic. Two answers are compared in the order they happened, as the recording's
// own times show it (a HAR entry's startedDateTime and time, the judging proxy's clock), never in
// the order they were written: a browser's parallel requests, a proxy's exchanges ending out of
// order, or several files judged together put them in another order.
//
// An answer happened at some moment between its request's start and its response's end. Two
// answers are ordered only when one ended before the other started; when they overlapped (or a
// recording gave no time) their order is not known, and a difference counts only when neither
// order explains it.
//
// Answers about one call follow the one-way rule of core/checks/settling.ts: a call that ended
// may still gain the fields that settle late, until it has settled on evidence of the target's own
// clock (TargetClock below); anything else that differs is a violation.
import type { SeenCall } from '../core/checks/calls-in.ts';
import { getMatchesList } from '../core/checks/get-matches-list.ts';
import { DEFAULT_SETTLE_SECONDS, lastMomentOf, overTime, settledBy, UNENDED_STATUSES, type Difference } from '../core/checks/settling.ts';
import type { Violation } from '../core/checks/violation.ts';

/** When an answer happened, on the recorder's clock (milliseconds): somewhere between start and end. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The span of a recorded exchange, or undefined when the recording gave no usable time. Behind a
 * cache or a read replica an answer shows the target as it was up to `ageMs` before it arrived
 * (core/checks/answer-age.ts): its span then starts that long before its request did.
 */
export function spanOf(startedAt: string, durationMs: number, ageMs = 0): Span | undefined {
  if (!/^\d{4}-\d\d-\d\dT/.test(startedAt)) return undefined;
  const sent = Date.parse(startedAt);
  if (!Number.isFinite(sent)) return undefined;
  return { start: sent - ageMs, end: sent + (Number.isFinite(durationMs) && durationMs > 0 ? durationMs : 0) };
}

export type Order = 'first-earlier' | 'second-earlier' | 'unknown';

/** Which of two answers happened first: known only when one ended before the other started. */
export function orderOf(first: Span | undefined, second: Span | undefined): Order {
  if (!first || !second) return 'unknown';
  if (first.end <= second.start && first.start < second.start) return 'first-earlier';
  if (second.end <= first.start && second.start < first.start) return 'second-earlier';
  return 'unknown';
}

/** Whether `earlier` surely happened before `later`. */
export const surelyBefore = (earlier: Span | undefined, later: Span | undefined): boolean => orderOf(earlier, later) === 'first-earlier';

/** The newest moment (UNIX seconds) any call of an answer shows: the answer's own reading of the target's clock. */
export function momentOf(calls: readonly SeenCall[]): number | undefined {
  let newest: number | undefined;
  for (const { call } of calls) {
    const moment = lastMomentOf(call);
    if (moment !== undefined && (newest === undefined || moment > newest)) newest = moment;
  }
  return newest;
}

/**
 * The target's clock as its answers show it (settling.ts's targetClock), kept as a function of the
 * recorder's time: at a recorded moment, the newest call moment shown by any answer that had ended
 * by then. A call cannot have happened after the target's now, so this is a lower bound of the
 * target's clock at that moment, whatever order the answers were recorded in. It is kept as a
 * staircase of the readings that raised it, at most `limit` of them; past that, every other one of
 * the older half is dropped, which can only lower the clock at a moment (so settle fewer calls).
 */
export class TargetClock {
  private at: number[] = [];
  private moments: number[] = [];
  constructor(private readonly limit: number) {}

  /** An answer that ended at `end` (recorder's milliseconds) showed a call at `moment` (UNIX seconds). */
  saw(end: number, moment: number): void {
    let index = this.firstAfter(end);
    if (index > 0 && this.moments[index - 1]! >= moment) return;
    if (index > 0 && this.at[index - 1] === end) index -= 1;
    let stop = index;
    while (stop < this.at.length && this.moments[stop]! <= moment) stop += 1;
    this.at.splice(index, stop - index, end);
    this.moments.splice(index, stop - index, moment);
    if (this.at.length > this.limit) this.thin();
  }

  /** The target's clock as the answers that had ended by `time` show it; undefined when none had. */
  by(time: number): number | undefined {
    const index = this.firstAfter(time);
    return index === 0 ? undefined : this.moments[index - 1];
  }

  get size(): number {
    return this.at.length;
  }

  /** The readings kept, as [recorded time, moment] pairs: another clock learns them with saw(). */
  readings(): Array<[number, number]> {
    return this.at.map((at, index) => [at, this.moments[index]!]);
  }

  private firstAfter(time: number): number {
    let low = 0;
    let high = this.at.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.at[middle]! <= time) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private thin(): void {
    const half = this.at.length >> 1;
    const kept = (_: number, index: number) => index >= half || index % 2 === 1;
    this.at = this.at.filter(kept);
    this.moments = this.moments.filter(kept);
  }
}

/** One answer about a call, kept to compare later answers with. */
export interface KeptAnswer {
  seen: SeenCall;
  source: string;
  span?: Span;
  /** The newest moment the whole answer showed (momentOf). */
  moment?: number;
}

/** What comparing two answers about one call came to. */
export interface Comparison {
  /** False when the call may still move between them (it was ringing or ongoing in the earlier one, in some order). */
  judged: boolean;
  violations: Violation[];
  /** The answer the violations lie with (the later one), and the one it is compared with. */
  source: string;
  related: string[];
}

/**
 * CALLS-GET-MATCHES-LIST over time: a list's and a Get Call's answer about one call, `kept` (the
 * one recorded first) and `added`, compared in the order they happened under the one-way rule.
 * `clock` is the target's clock (TargetClock); the earlier answer's own moments count too.
 */
export function getMatchesListOverTime(
  kept: KeptAnswer,
  added: KeptAnswer,
  clock: TargetClock,
  settleSeconds = DEFAULT_SETTLE_SECONDS,
): Comparison {
  const order = orderOf(kept.span, added.span);
  const orders: Array<[KeptAnswer, KeptAnswer]> =
    order === 'first-earlier'
      ? [[kept, added]]
      : order === 'second-earlier'
        ? [[added, kept]]
        : [
            [kept, added],
            [added, kept],
          ];
  let fewest: { earlier: KeptAnswer; later: KeptAnswer; breaks: Difference[]; settled: boolean } | undefined;
  for (const [earlier, later] of orders) {
    // A call that has not ended still moves: an earlier answer showing it so is compared with nothing.
    if (UNENDED_STATUSES.has(String(earlier.seen.call.status))) return { judged: false, violations: [], source: added.source, related: [] };
    const settled = settledBy(earlier.seen.call, clockAt(earlier, clock), settleSeconds);
    const { breaks } = overTime(earlier.seen.call, later.seen.call, settled, 'shared');
    if (!fewest || breaks.length < fewest.breaks.length) fewest = { earlier, later, breaks, settled };
  }
  const { earlier, later, breaks, settled } = fewest!;
  const why =
    order === 'unknown'
      ? ' (which answer came first is not known: they overlapped in time, and neither order explains it)'
      : settled
        ? ` (a call settled by the earlier answer: its last moment ${settleSeconds} s or more before the target's clock)`
        : '';
  const gap = order === 'unknown' ? '' : `, ${seconds(later.span!.start - earlier.span!.start)} s after the earlier answer`;
  return {
    judged: true,
    violations: breaks.map((difference) => {
      const violation = getMatchesList(earlier.seen, later.seen, difference, why);
      return { ...violation, received: `${violation.received}${gap}` };
    }),
    source: later.source,
    related: [earlier.source],
  };
}

/** The target's clock at an answer: what earlier answers showed, and the answer's own moments. */
function clockAt(answer: KeptAnswer, clock: TargetClock): number | undefined {
  const before = answer.span ? clock.by(answer.span.start) : undefined;
  if (before === undefined) return answer.moment;
  return answer.moment === undefined ? before : Math.max(before, answer.moment);
}

const seconds = (milliseconds: number) => String(Math.round(milliseconds / 100) / 10);
