// The living reference's calls: the data set's, standing still, and ahead of them the calls logged
// since the server started, at RATE a second, each moving on its own (./live-call.ts). Time is a
// virtual clock: the data set's now (DATA_NOW) plus the whole seconds since the store was built, or
// a clock a test sets. An answer takes one reading of it and sees every call at that one moment:
// the index at a moment is the data set's index with the live calls of that moment put in front.
import type { CallIndex, CallPage } from '../call-index.ts';
import { buildCallIndex } from '../call-index.ts';
import type { CallSource } from '../data/calls.ts';
import { inListOrder, toRow, type CallRow } from '../data/generate.ts';
import { DATA_NOW } from '../data/directory.ts';
import type { StoredCall } from '../model.ts';
import { liveCallAt, loggedBy, planLiveCall, settledAt } from './live-call.ts';

export interface LiveOptions {
  /** New calls a second (reference/live/rate.ts bounds it). */
  rate: number;
  /**
   * The moment it is, a UNIX second; by default DATA_NOW plus the whole seconds elapsed since the
   * store was built. A test passes its own to step time. Moments before DATA_NOW are read as DATA_NOW:
   * the data set's calls are as they are then.
   */
  clock?: () => number;
}

export interface LivingCalls {
  /** One reading of the clock. */
  now(): number;
  /** Every call at `now`: the live calls logged by then, newest first, ahead of the data set's. */
  indexAt(now: number): CallIndex;
  /** A live call's row (one `indexAt` gave) materialised at the moment the row shows it. */
  materialize(row: CallRow): StoredCall;
}

export function createLivingCalls(source: CallSource, still: CallIndex, options: LiveOptions): LivingCalls {
  const { rate } = options;
  const started = performance.now();
  const clock = options.clock ?? (() => DATA_NOW + Math.floor((performance.now() - started) / 1000));
  // A call that has ended shows the same from then on: its row is kept rather than planned again.
  const settled = new Map<number, { at: number; row: CallRow }>();
  const rowAt = (number: number, now: number): CallRow => {
    const kept = settled.get(number);
    if (kept && now >= kept.at) return { ...kept.row, live: { number, at: now } };
    const plan = planLiveCall(source, rate, number, false);
    const row: CallRow = { ...toRow(-number, liveCallAt(plan, now, source.readings).call), live: { number, at: now } };
    if (now >= settledAt(plan)) settled.set(number, { at: settledAt(plan), row });
    return row;
  };
  // Answers within one second share a moment: its index is built once, for the last moment asked.
  let last: { now: number; index: CallIndex } | undefined;

  return {
    now: () => Math.max(DATA_NOW, clock()),
    indexAt(now) {
      if (last?.now !== now) {
        const rows = Array.from({ length: loggedBy(now, rate) }, (_, offset) => rowAt(offset + 1, now));
        rows.sort(inListOrder);
        last = { now, index: ahead(buildCallIndex(rows), still) };
      }
      return last.index;
    },
    materialize: (row) => liveCallAt(planLiveCall(source, rate, row.live!.number, true), row.live!.at, source.readings),
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
