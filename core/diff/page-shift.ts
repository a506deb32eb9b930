// Calls shifted across a page's edge as a list moves: on a living target, two answers to the same
// page of a longer list, taken at two moments (a fresh side beside one behind a cache or a read
// replica, or one side asked twice across an arrival), hold windows of the list that differ by the
// calls that entered or left it ahead of the page. Settled calls then slide off one end of the page
// and onto the other, though nothing about them moved. Such a settled call, listed by one answer and
// not the other, is explained so only:
// - where the answer lacking it is one page of a longer list: the list goes on past its end, or
//   pages come before it;
// - in the order both sides keep (list-order.ts): the call lies past the lacking answer's last call
//   or before its first, never between them (a call missing from within a page is no shift);
// - as many as the two answers' totals differ, in the direction the totals say: the answer that
//   counts more calls is the one whose window starts further down the list. An answer whose total
//   equals the other's shifts nothing.
// With no order known, a call's place against the page cannot be told: only the count is bounded.
import { pageOf } from '../checks/pagination.ts';
import type { Exchange } from '../transport/exchange.ts';
import { momentOf, type KeptOrder } from './list-order.ts';

type Call = Record<string, unknown>;
type Side = 'primary' | 'candidate';
type Place = 'before' | 'after' | 'unknown';

/** A page of a list longer than it: how many calls come before its first and after its last. */
function pageEdges(answer: Exchange): { before: number; after: number } | undefined {
  const page = pageOf(answer);
  if (page === undefined) return undefined;
  const { total, current_page: current, per_page: perPage } = page.pagination;
  const size = perPage ?? page.items.length;
  const before = Math.max(0, (current - 1) * size);
  return { before, after: Math.max(0, total - before - page.items.length) };
}

/** The moments of the first and the last call an answer lists, however it orders them: the span its page covers. */
function spanOf(answer: Exchange): { newest: number; oldest: number } | undefined {
  // A loop, not Math.max(...moments): a target's page may hold more calls than a call takes arguments.
  let span: { newest: number; oldest: number } | undefined;
  for (const item of pageOf(answer)?.items ?? []) {
    const moment = momentOf(item);
    if (moment === undefined) continue;
    span =
      span === undefined
        ? { newest: moment, oldest: moment }
        : { newest: Math.max(span.newest, moment), oldest: Math.min(span.oldest, moment) };
  }
  return span;
}

/** Where `call` lies against a page spanning `span` in `order`: before its first call, past its last, or neither. */
function placeOf(call: Call, span: { newest: number; oldest: number } | undefined, order: KeptOrder | undefined): Place | undefined {
  if (order === undefined) return 'unknown';
  const moment = momentOf(call);
  if (moment === undefined || span === undefined) return undefined;
  // Ties are the words' to order, not ours: a call at the first or last call's moment may be on either side of it.
  if (moment >= span.newest) return order === 'newest-first' ? 'before' : 'after';
  if (moment <= span.oldest) return order === 'newest-first' ? 'after' : 'before';
  return undefined;
}

/** Whether a page with these edges has calls of its list on the `place` side of it. */
const listGoesOn = (edges: { before: number; after: number }, place: Place) =>
  place === 'before' ? edges.before > 0 : place === 'after' ? edges.after > 0 : edges.before + edges.after > 0;

/**
 * The settled calls of `onlyIn` (each listed by `side` and not by the other answer) that a shift of
 * the window explains, as the rules above say: `primary` and `candidate` are the two answers.
 */
export function shiftedAcrossEdges(
  primary: Exchange,
  candidate: Exchange,
  onlyIn: ReadonlyArray<{ side: Side; call: Call }>,
  order: KeptOrder | undefined,
): Set<Call> {
  const totals = [pageOf(primary)?.pagination.total, pageOf(candidate)?.pagination.total];
  if (totals[0] === undefined || totals[1] === undefined || totals[0] === totals[1]) return new Set();
  const primaryCountsMore = totals[0] > totals[1];
  const budget = Math.abs(totals[0] - totals[1]);
  const used = new Map<string, number>();
  const explained = new Set<Call>();
  const lacking = {
    primary: { span: spanOf(candidate), edges: pageEdges(candidate) },
    candidate: { span: spanOf(primary), edges: pageEdges(primary) },
  };
  for (const { side, call } of onlyIn) {
    const { span, edges } = lacking[side];
    const place = placeOf(call, span, order);
    if (place === undefined || edges === undefined || !listGoesOn(edges, place)) continue;
    // Before the lacking page: its side has more calls ahead of the window, so counts more; past its end, fewer.
    const listerCountsMore = (side === 'primary') === primaryCountsMore;
    if (place !== 'unknown' && listerCountsMore !== (place === 'before')) continue;
    const group = `${side} ${place}`;
    if ((used.get(group) ?? 0) >= budget) continue;
    used.set(group, (used.get(group) ?? 0) + 1);
    explained.add(call);
  }
  return explained;
}
