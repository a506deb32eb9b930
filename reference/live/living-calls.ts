// The living reference's calls: the data set's, standing still, and ahead of them the calls logged
// since the server started, at RATE a second, each moving on its own and settling late (./live-call.ts). Time is a
// virtual clock: the data set's now (DATA_NOW) plus the whole seconds since the store was built, or
// a clock a test sets. An answer takes one reading of it and sees every call at that one moment:
// the index at a moment is the data set's index with the live calls of that moment put in front.
import type { CallIndex, CallPage } from '../call-index.ts';
import { buildCallIndex, type IndexReadings } from '../call-index.ts';
import type { CallSource } from '../data/calls.ts';
import { inListOrder, toRow, type CallRow } from '../data/generate.ts';
import { DATA_NOW } from '../data/directory.ts';
import type { StoredCall } from '../model.ts';
import { liveCallAt, loggedAt, loggedBy, LONGEST_LIVE_CALL_SECONDS, planLiveCall, settledAt, type LivePlan } from './live-call.ts';
import { DEFAULT_SETTLE_DELAY, isSettleDelay, SETTLE_DELAY_RULE, type SettleDelay } from './settle-delay.ts';

export interface LiveOptions {
  /** New calls a second (reference/live/rate.ts bounds it). */
  rate: number;
  /**
   * The moment it is, a UNIX second; by default DATA_NOW plus a head start (HEAD_START_SECONDS) plus
   * the whole seconds elapsed since the store was built. A test passes its own to step time. Moments
   * before DATA_NOW are read as DATA_NOW: the data set's calls are as they are then.
   */
  clock?: () => number;
  /**
   * Seconds after a call's end over which its late fields settle (./settle-delay.ts): each call
   * draws, within it, when its recording shows and when its final minutes do. DEFAULT_SETTLE_DELAY
   * (2 to 15 s) by default; [0, 0] settles every call the moment it ends.
   */
  settleDelay?: SettleDelay;
}

export interface LivingCalls {
  /**
   * One reading of the clock, or the moment `behind` seconds before it (an answer a lagging replica
   * gives); never before DATA_NOW, where the living begins.
   */
  now(behind?: number): number;
  /** Every call at `now`: the live calls logged by then, newest first, ahead of the data set's. */
  indexAt(now: number): CallIndex;
  /** A live call's row (one `indexAt` gave) materialised at the moment the row shows it. */
  materialize(row: CallRow): StoredCall;
}

/**
 * A staging deployment was living before a suite starts: the clock starts as long after DATA_NOW as
 * the longest live call lasts, so that the first answer already shows live calls in every state,
 * ringing, ongoing and ended, and a suite's first sample of the target holds calls that move.
 */
export const HEAD_START_SECONDS = LONGEST_LIVE_CALL_SECONDS;

/** How many moments' indexes are kept: now, an aged moment, and the one either was a second ago. */
const MOMENTS_KEPT = 3;

export function createLivingCalls(
  source: CallSource,
  still: CallIndex,
  options: LiveOptions,
  indexReadings: IndexReadings = {},
): LivingCalls {
  const { rate } = options;
  const settleDelay = options.settleDelay ?? DEFAULT_SETTLE_DELAY;
  if (!isSettleDelay(settleDelay)) throw new RangeError(`settleDelay must be ${SETTLE_DELAY_RULE} (got ${JSON.stringify(settleDelay)})`);
  /** No live call moves for longer than this after it is logged: by then it has ended and settled. */
  const longestUnsettled = LONGEST_LIVE_CALL_SECONDS + settleDelay[1];
  const plan = (number: number, withIdentifiers: boolean) => planLiveCall(source, rate, number, withIdentifiers, settleDelay);
  const started = performance.now();
  const clock = options.clock ?? (() => DATA_NOW + HEAD_START_SECONDS + Math.floor((performance.now() - started) / 1000));
  // A call that has ended and settled shows the same from then on: its row is kept, shown at the
  // moment it settled (materialising it then or later gives the same call). The plans of the calls
  // still moving are kept until they settle: planning costs more than showing.
  const settled = new Map<number, CallRow>();
  const moving = new Map<number, LivePlan>();
  const rowAt = (number: number, now: number): CallRow => {
    const kept = settled.get(number);
    if (kept && now >= kept.live!.at) return kept;
    const planned = moving.get(number) ?? plan(number, false);
    const at = Math.min(now, settledAt(planned));
    const row: CallRow = { ...toRow(-number, liveCallAt(planned, at, source.readings).call, source.readings), live: { number, at } };
    if (now >= settledAt(planned)) {
      settled.set(number, row);
      moving.delete(number);
    } else moving.set(number, planned);
    return row;
  };
  const indexOf = (from: number, to: number, now: number) => {
    const rows = Array.from({ length: to - from }, (_, offset) => rowAt(from + offset + 1, now));
    return buildCallIndex(rows.sort(inListOrder), indexReadings);
  };
  // The calls of a long run are indexed in chunks once they have all ended and settled, so that a new moment
  // indexes only the recent calls: chunk j holds calls (upTo[j-1], upTo[j]], every call of its
  // last second, so that later calls all come before it in the list; `list` is it ahead of those before.
  const chunkSize = Math.max(500, Math.ceil(rate * 60));
  const chunks: Array<{ upTo: number; settledBy: number; list: CallIndex }> = [];
  const frozenBy = (now: number) => {
    for (;;) {
      const from = chunks.at(-1)?.upTo ?? 0;
      const second = loggedAt(from + chunkSize, rate);
      const settledBy = second + longestUnsettled;
      if (settledBy > now) break;
      const upTo = loggedBy(second, rate);
      chunks.push({ upTo, settledBy, list: ahead(indexOf(from, upTo, settledBy), chunks.at(-1)?.list ?? still) });
      for (let number = from + 1; number <= upTo; number += 1) settled.delete(number);
    }
    // A test's clock may go back: only the chunks whose calls had all settled by then are used.
    let usable = chunks.length;
    while (usable > 0 && chunks[usable - 1]!.settledBy > now) usable -= 1;
    return usable === 0 ? { upTo: 0, list: still } : chunks[usable - 1]!;
  };
  // Answers within one second share a moment: its index is built once. The last few moments asked
  // are kept, not only the last: a server whose lists lag behind its Get Call (reference/aged-answers.ts)
  // asks two moments in turn, and would otherwise build an index for every answer.
  const recent: Array<{ now: number; index: CallIndex }> = [];

  return {
    now: (behind = 0) => Math.max(DATA_NOW, clock() - behind),
    indexAt(now) {
      const kept = recent.find((moment) => moment.now === now);
      if (kept) return kept.index;
      const frozen = frozenBy(now);
      const index = ahead(indexOf(frozen.upTo, loggedBy(now, rate), now), frozen.list);
      recent.push({ now, index });
      if (recent.length > MOMENTS_KEPT) recent.shift();
      return index;
    },
    materialize: (row) => liveCallAt(plan(row.live!.number, true), row.live!.at, source.readings),
  };
}

/**
 * Two indexes as one list: every row of `first` before every row of `then`, as the list order puts
 * calls logged after the data set's now before its calls. Both are filtered with the same index code,
 * so a filter means the same on a live call as on the data set's.
 */
function ahead(first: CallIndex, then: CallIndex): CallIndex {
  const range = (filters: Parameters<CallIndex['range']>[0], from: number, count: number): CallPage => {
    const head = first.range(filters, from, count);
    const tail = then.range(filters, Math.max(0, from - head.total), count - head.rows.length);
    return { total: head.total + tail.total, rows: [...head.rows, ...tail.rows] };
  };
  return {
    size: first.size + then.size,
    bySessionId: (sessionId) => first.bySessionId(sessionId) ?? then.bySessionId(sessionId),
    range,
    query: (filters, page, perPage) => range(filters, (page - 1) * perPage, perPage),
  };
}
