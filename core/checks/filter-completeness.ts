// CALLS-LIST-FILTER-COMPLETENESS: a filter does not drop calls that match it. A call is searched for
// in the list filtered by its own fields, page by page up to a fixed number of pages; when the answer
// is larger than that and the call was not met, every other filter the call matches is added, so the
// search still says something on a target with much data. The search and the judgement of what it
// found live here, beside the other comparisons of lists, so that the suite's test holds only its steps.
import type { CallsApi } from '../transport/api.ts';
import type { Exchange } from '../transport/exchange.ts';
import { pageQuery, type PagingSupport } from '../learning/paging.ts';
import { filtersOfCall, usableFilters } from '../arbitraries/call-filters.ts';
import { callsIn, type CallObject, type SeenCall } from './calls-in.ts';
import { describeFilters, filterQuery, givenFilters, matchesFilter, type Filters } from './filters.ts';
import { pageOf } from './pagination.ts';
import type { Readings } from './readings.ts';
import { shown, type Violation } from './violation.ts';

/** What a search needs to know of the target's paging: whether it selects pages, and under which size name. */
type Paging = Pick<PagingSupport, 'page' | 'perPage' | 'sizeName'>;

/** How many pages of one answer a search reads at most. */
export const SEARCH_PAGES = 5;

/** What a search read of the answer to `filters`, and whether it met the call. */
export interface FilterSearch {
  filters: Filters;
  found: boolean;
  /** The last page read: the one a failure shows. */
  exchange: Exchange;
  pages: Exchange[];
  /** The calls the pages held. */
  scanned: number;
  /** The answer's total, as its last page read says (0 where it is no list page). */
  total: number;
  /** Every call of the answer was read; an answer that is not a list page (refused, its envelope broken) says nothing of what it lacks. */
  complete: boolean;
}

/** What the pages read so far say of the call `sessionId`. */
export function searched(filters: Filters, pages: readonly Exchange[], sessionId: unknown): FilterSearch {
  const exchange = pages.at(-1)!;
  const found = pages.some((page) => callsIn(page).some(({ call }) => call.sessionId === sessionId));
  const scanned = pages.reduce((count, page) => count + (pageOf(page)?.items.length ?? 0), 0);
  const total = pageOf(exchange)?.pagination.total ?? 0;
  return { filters, found, exchange, pages: [...pages], scanned, total, complete: pageOf(exchange) !== undefined && scanned >= total };
}

/** Reads the answer to `filters` until the call is found, the answer ends, or SEARCH_PAGES are read. */
export async function searchList(
  api: Pick<CallsApi, 'listCalls'>,
  sessionId: unknown,
  filters: Filters,
  paging: Paging,
): Promise<FilterSearch> {
  const query = filterQuery(filters);
  const pages = [await api.listCalls(query)];
  let result = searched(filters, pages, sessionId);
  for (let page = 2; !result.found && paging.page && page <= SEARCH_PAGES && result.scanned < result.total; page += 1) {
    pages.push(await api.listCalls({ ...query, ...pageQuery(paging, page) }));
    result = searched(filters, pages, sessionId);
  }
  return result;
}

/** The search, and when it found nothing in part of a larger answer, the search by every filter the call matches. */
export async function searchForCall(
  api: Pick<CallsApi, 'listCalls'>,
  seen: SeenCall,
  filters: Filters,
  paging: Paging,
  readings: Readings,
): Promise<FilterSearch> {
  const result = await searchList(api, seen.call.sessionId, filters, paging);
  if (result.found || result.complete) return result;
  return searchList(api, seen.call.sessionId, filtersOfCall(seen, usableFilters(readings), readings), paging);
}

/** The call as an answer showed it, and that answer: the sample first, Get Call after. */
export interface ShownCall {
  call: CallObject | undefined;
  answers: Exchange[];
}

/** The call as Get Call shows it now: a call sampled while ongoing may have moved on since, and filters built from what it was no longer match it. */
export async function shownNow(api: Pick<CallsApi, 'getCall'>, seen: SeenCall): Promise<ShownCall> {
  const fetched = await api.getCall(String(seen.call.sessionId));
  return { call: callsIn(fetched).find(({ call }) => call.sessionId === seen.call.sessionId)?.call, answers: [fetched] };
}

/**
 * A filter does not drop calls that match it: the call, as shown now, matches the filters searched,
 * and a complete answer to them lacks it.
 */
export function filterCompleteness(seen: SeenCall, now: Pick<ShownCall, 'call'>, result: FilterSearch, readings: Readings): Violation[] {
  // Not found in part of a larger answer proves nothing either way.
  if (result.found || !result.complete) return [];
  // A call that no longer matches the filters (it has moved on since it was sampled) is rightly not found.
  const call = now.call;
  if (call === undefined) return [];
  if (givenFilters(result.filters).some((name) => !matchesFilter(call, name, result.filters[name], readings))) return [];
  return [
    {
      check: 'filter_completeness',
      requirement: 'CALLS-LIST-FILTER-COMPLETENESS',
      title: `call ${shown(seen.call.sessionId)} matches ${describeFilters(result.filters)} but is not among the ${result.total} calls returned`,
      expected: `call ${shown(seen.call.sessionId)} among the answers`,
      received: `${result.scanned} calls, all read, without it`,
      exchange: result.exchange,
    },
  ];
}
