// The pagination envelope of one List Calls response agrees with itself: count with the items,
// with total and per_page, and total_pages with total and per_page (specification 2.4).
import type { Exchange } from '../transport/exchange.ts';
import { isObject, isSuccess } from './calls-in.ts';
import { shown, type Violation } from './violation.ts';

export interface Pagination {
  total: number;
  count: number;
  per_page?: number;
  current_page: number;
  total_pages: number;
}

/** The items and pagination of a List Calls response, when both are there with integer fields. */
export function pageOf(exchange: Exchange): { items: unknown[]; pagination: Pagination } | undefined {
  const body = exchange.response.body;
  if (!isSuccess(exchange) || !isObject(body) || !Array.isArray(body.data) || !isObject(body.meta) || !isObject(body.meta.pagination))
    return undefined;
  const pagination = body.meta.pagination;
  const integers = ['total', 'count', 'current_page', 'total_pages'].every((field) => Number.isInteger(pagination[field]));
  if (!integers || (pagination.per_page !== undefined && !Number.isInteger(pagination.per_page))) return undefined;
  return { items: body.data, pagination: pagination as unknown as Pagination };
}

/**
 * A List Calls page agrees with itself; given the page asked for (`asked`, where the caller chose
 * one), a page with items that names another current_page breaks PAGINATION-TOTAL-PAGES-CONSISTENT.
 */
export function paginationConsistency(exchange: Exchange, asked?: number): Violation[] {
  const page = pageOf(exchange);
  if (exchange.operation !== 'listCalls' || !page) return [];
  const { items, pagination } = page;
  const { total, count, per_page: perPage, current_page: current, total_pages: pages } = pagination;
  const violations: Violation[] = [];
  const add = (requirement: string, title: string, expected: string, received: string) =>
    violations.push({ check: 'pagination_consistency', requirement, title, expected, received, exchange });

  if (count !== items.length) {
    add(
      'PAGINATION-COUNT-IS-PAGE-SIZE',
      'meta.pagination.count is not the number of items in data',
      `count ${items.length}`,
      `count ${count}`,
    );
  }
  if (count > total) add('PAGINATION-COUNT-WITHIN-BOUNDS', 'count exceeds total', `count ≤ total (${total})`, `count ${count}`);
  if (perPage !== undefined && perPage > 0) {
    if (count > perPage) add('PAGINATION-COUNT-WITHIN-BOUNDS', 'count exceeds per_page', `count ≤ per_page (${perPage})`, `count ${count}`);
    const expectedPages = Math.ceil(total / perPage);
    if (pages !== expectedPages && !(total === 0 && pages <= 1)) {
      add(
        'PAGINATION-TOTAL-PAGES-CONSISTENT',
        'total_pages is not total / per_page rounded up',
        `total_pages ${expectedPages} (total ${total}, per_page ${perPage})`,
        `total_pages ${pages}`,
      );
    }
    if (current >= 1 && current <= expectedPages) {
      // What the page holds is counted from data: a wrong count is PAGINATION-COUNT-IS-PAGE-SIZE's alone.
      const expectedCount = Math.min(perPage, total - perPage * (current - 1));
      const held = items.length;
      if (held <= total && held <= perPage && held !== expectedCount) {
        add(
          'PAGINATION-COUNT-WITHIN-BOUNDS',
          `page ${current} of ${expectedPages} does not hold the items it should`,
          `${expectedCount} items in data (total ${total}, per_page ${perPage}, page ${current})`,
          `${held} items in data`,
        );
      }
    }
  }
  if (items.length > 0 && (current < 1 || current > pages)) {
    add(
      'PAGINATION-TOTAL-PAGES-CONSISTENT',
      'a page with items is outside 1…total_pages',
      `1 ≤ current_page ≤ ${pages}`,
      `current_page ${current}`,
    );
  }
  const found = violations.map((violation) => ({ ...violation, received: `${violation.received} in ${shown(pagination)}` }));
  if (asked !== undefined && items.length > 0 && current !== asked) {
    found.push({
      check: 'pagination_consistency',
      requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT',
      title: `page=${asked} answered current_page ${current}`,
      expected: `current_page ${asked}`,
      received: `current_page ${current}`,
      exchange,
    });
  }
  return found;
}
