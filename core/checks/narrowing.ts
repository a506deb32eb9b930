// A combination of filters answers no more than any one of its filters alone (specification 4.1
// rule 1): its total is no larger, and every call it returns is one the filter alone returns. Two
// pure comparisons of a combination's answer with one filter's answer; which of them a comparison
// may make depends on whether the two answers stand on ground that cannot move (narrowing-comparison.ts).
import type { Exchange } from '../transport/exchange.ts';
import { callsIn } from './calls-in.ts';
import { describeFilters, type Filters } from './filters.ts';
import { pageOf } from './pagination.ts';
import { shown, type Violation } from './violation.ts';

/** Whether a list answer shows every call it counts: its total is no more than the items on its page. */
export function isWhole(exchange: Exchange): boolean {
  const page = pageOf(exchange);
  return page !== undefined && page.pagination.total <= page.items.length;
}

/** The combination's total is no larger than the total of one of its filters alone (`name`). */
export function andNarrowingTotal(combination: Exchange, filters: Filters, single: Exchange, name: string): Violation[] {
  const whole = pageOf(combination);
  const part = pageOf(single);
  if (!whole || !part || whole.pagination.total <= part.pagination.total) return [];
  return [
    {
      check: 'and_narrowing_total',
      requirement: 'CALLS-LIST-AND-NARROWING',
      title: `${describeFilters(filters)} has a larger total than ${name} alone`,
      expected: `total ≤ ${part.pagination.total} (the total of ${name} alone)`,
      received: `total ${whole.pagination.total}`,
      exchange: combination,
    },
  ];
}

/** Every call the combination returned is among the calls of one of its filters alone, where that answer shows them all. */
export function andNarrowingSubset(combination: Exchange, filters: Filters, single: Exchange, name: string): Violation[] {
  if (!isWhole(single)) return [];
  const held = new Set(callsIn(single).map(({ call }) => call.sessionId));
  const total = pageOf(single)!.pagination.total;
  return callsIn(combination)
    .filter(({ call }) => !held.has(call.sessionId))
    .map(({ call }) => ({
      check: 'and_narrowing_subset',
      requirement: 'CALLS-LIST-AND-NARROWING',
      title: `${describeFilters(filters)} returned call ${shown(call.sessionId)}, which ${name} alone does not return`,
      expected: `a subset of the ${total} calls of ${name} alone`,
      received: `call ${shown(call.sessionId)}`,
      exchange: combination,
    }));
}
