// Helpers for faults that change which rows List Calls answers with.
import type { CallFilters, CallPage } from '../call-index.ts';
import { inListOrder, type CallRow } from '../data/generate.ts';

export type Query = (filters: CallFilters, page: number, perPage: number) => CallPage;

/** Every row a query matches, in list order. */
export const allRows = (query: Query, filters: CallFilters): CallRow[] => query(filters, 1, Number.MAX_SAFE_INTEGER).rows;

/** One page of rows, as the index would cut it. */
export function pageOfRows(rows: readonly CallRow[], page: number, perPage: number, from = (page - 1) * perPage): CallPage {
  return { total: rows.length, rows: rows.slice(Math.max(0, from), Math.max(0, from) + perPage) };
}

/**
 * The union of several row lists, in list order. By the order itself, not by the data set's
 * positions: a living reference's lists hold calls the data set does not (../live/).
 */
export function union(lists: ReadonlyArray<readonly CallRow[]>): CallRow[] {
  return [...new Set(lists.flat())].sort(inListOrder);
}

/** The filters of a query other than the onBehalfOf scope. */
export function filterNames(filters: CallFilters): Array<keyof CallFilters> {
  return (Object.keys(filters) as Array<keyof CallFilters>).filter((name) => name !== 'onBehalfOf' && filters[name] !== undefined);
}
