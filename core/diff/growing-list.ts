// The unfiltered list: calls never leave it, so it only grows, and grows its total. Its answers, each
// with when it was asked and when it arrived, are a timeline of the store that other answers of the
// list are bound by (total-falls.ts), whatever page or page size they asked.
import { pageOf } from '../checks/pagination.ts';
import type { TotalSeen } from '../checks/total-falls.ts';
import { PAGE_SIZE_NAMES } from '../learning/paging.ts';
import { headerOf, type Exchange } from '../transport/exchange.ts';

/** An answer of the unfiltered list, whatever its page or page size: the list only grows. */
export function unfiltered(exchange: Exchange): boolean {
  if (exchange.operation !== 'listCalls' || headerOf(exchange.request.headers, 'onBehalfOf') !== undefined) return false;
  const names = [...new URL(exchange.request.url).searchParams.keys()];
  return names.every((name) => name === 'page' || (PAGE_SIZE_NAMES as readonly string[]).includes(name));
}

/** When an answer was asked and arrived, and the total it named; undefined where it names none or its times are not known. */
export function totalSeen(exchange: Exchange): TotalSeen | undefined {
  const total = pageOf(exchange)?.pagination.total;
  if (total === undefined || exchange.receivedAt === undefined) return undefined;
  return { start: exchange.receivedAt - exchange.durationMs, end: exchange.receivedAt, total };
}

/** The timeline `answers` give of the unfiltered list: each of its answers' totals, with their times. */
export const growthSeen = (answers: readonly Exchange[]): TotalSeen[] =>
  answers.filter(unfiltered).flatMap((answer) => totalSeen(answer) ?? []);
