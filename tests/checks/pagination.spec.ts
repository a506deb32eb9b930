// pagination_consistency: the envelope of one List Calls page agrees with itself.
import { test, expect } from '@playwright/test';
import { pageOf, paginationConsistency } from '../../core/checks/pagination.ts';
import { exchange, listedCall, textExchange } from './exchanges.ts';

/** A List Calls page of `items` calls with the given pagination. */
const page = (items: number, pagination: Record<string, unknown>) =>
  exchange('listCalls', 200, {
    data: Array.from({ length: items }, () => listedCall()),
    meta: { pagination: { total: items, count: items, per_page: 25, current_page: 1, total_pages: 1, ...pagination } },
  });
const requirementsOf = (items: number, pagination: Record<string, unknown>) =>
  paginationConsistency(page(items, pagination)).map((violation) => violation.requirement);

test('consistent pages pass: a full first page, a short last page, an empty list, and no per_page', () => {
  expect(paginationConsistency(page(2, { total: 5, per_page: 2, current_page: 1, total_pages: 3 }))).toEqual([]);
  expect(paginationConsistency(page(1, { total: 5, per_page: 2, current_page: 3, total_pages: 3 }))).toEqual([]);
  expect(paginationConsistency(page(0, { total: 0, per_page: 25, current_page: 1, total_pages: 0 }))).toEqual([]);
  expect(paginationConsistency(page(0, { total: 0, per_page: 25, current_page: 1, total_pages: 1 }))).toEqual([]);
  expect(paginationConsistency(page(3, { total: 3, per_page: undefined, current_page: 1, total_pages: 1 }))).toEqual([]);
});

test('a page past the last one may be empty', () => {
  expect(paginationConsistency(page(0, { total: 5, per_page: 2, current_page: 4, total_pages: 3 }))).toEqual([]);
});

test('a count that is not the number of items breaks PAGINATION-COUNT-IS-PAGE-SIZE alone: what the page holds is read from data', () => {
  // A short last page whose count says the page size: the data and total_pages are right.
  const violations = paginationConsistency(page(1, { total: 5, count: 2, per_page: 2, current_page: 3, total_pages: 3 }));
  expect(violations).toEqual([
    expect.objectContaining({ check: 'pagination_consistency', requirement: 'PAGINATION-COUNT-IS-PAGE-SIZE', expected: 'count 1' }),
  ]);
  expect(violations[0]?.received).toContain('count 2 in {"total":5');
});

test('a count above total breaks PAGINATION-COUNT-WITHIN-BOUNDS', () => {
  expect(requirementsOf(3, { total: 2, per_page: undefined })).toEqual(['PAGINATION-COUNT-WITHIN-BOUNDS']);
});

test('a count above per_page breaks PAGINATION-COUNT-WITHIN-BOUNDS', () => {
  expect(requirementsOf(3, { total: 6, per_page: 2, total_pages: 3 })).toEqual(['PAGINATION-COUNT-WITHIN-BOUNDS']);
});

test('a page holding fewer items than total and per_page imply breaks PAGINATION-COUNT-WITHIN-BOUNDS', () => {
  const violations = paginationConsistency(page(1, { total: 5, per_page: 2, current_page: 2, total_pages: 3 }));
  expect(violations).toEqual([
    expect.objectContaining({ requirement: 'PAGINATION-COUNT-WITHIN-BOUNDS', expected: '2 items in data (total 5, per_page 2, page 2)' }),
  ]);
});

test('total_pages that is not total / per_page rounded up breaks PAGINATION-TOTAL-PAGES-CONSISTENT', () => {
  const violations = paginationConsistency(page(2, { total: 5, per_page: 2, total_pages: 2 }));
  expect(violations).toEqual([
    expect.objectContaining({ requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT', expected: 'total_pages 3 (total 5, per_page 2)' }),
  ]);
});

test('a page with items outside 1…total_pages breaks PAGINATION-TOTAL-PAGES-CONSISTENT', () => {
  expect(requirementsOf(1, { total: 1, per_page: undefined, current_page: 0, total_pages: 1 })).toEqual([
    'PAGINATION-TOTAL-PAGES-CONSISTENT',
  ]);
  expect(requirementsOf(1, { total: 5, per_page: 2, current_page: 4, total_pages: 3 })).toEqual(['PAGINATION-TOTAL-PAGES-CONSISTENT']);
});

test('every inconsistency of a page is reported', () => {
  expect(requirementsOf(3, { total: 2, count: 4, per_page: 2, total_pages: 5 })).toEqual([
    'PAGINATION-COUNT-IS-PAGE-SIZE',
    'PAGINATION-COUNT-WITHIN-BOUNDS',
    'PAGINATION-COUNT-WITHIN-BOUNDS',
    'PAGINATION-TOTAL-PAGES-CONSISTENT',
  ]);
});

test('pageOf reads items and pagination, and nothing from an error, another operation or a malformed envelope', () => {
  expect(pageOf(page(2, { total: 2 }))).toEqual({
    items: [listedCall(), listedCall()],
    pagination: { total: 2, count: 2, per_page: 25, current_page: 1, total_pages: 1 },
  });
  expect(
    pageOf(exchange('listCalls', 500, { data: [], meta: { pagination: { total: 0, count: 0, current_page: 1, total_pages: 0 } } })),
  ).toBeUndefined();
  expect(pageOf(page(1, { total: '1' }))).toBeUndefined();
  expect(pageOf(page(1, { per_page: 2.5 }))).toBeUndefined();
  expect(pageOf(exchange('listCalls', 200, { data: [] }))).toBeUndefined();
  expect(pageOf(textExchange('listCalls', 200, 'not json'))).toBeUndefined();
});

test('an envelope the schema check rejects, or another operation, is not judged here', () => {
  expect(paginationConsistency(page(1, { count: '7' }))).toEqual([]);
  const listLike = { data: [], meta: { pagination: { total: 0, count: 3, current_page: 1, total_pages: 0 } } };
  expect(paginationConsistency(exchange('getCall', 200, listLike))).toEqual([]);
});

test('a page with calls that names another current_page than the one asked for breaks PAGINATION-TOTAL-PAGES-CONSISTENT, once', () => {
  const second = page(2, { total: 5, per_page: 2, current_page: 2, total_pages: 3 });
  expect(paginationConsistency(second, 2)).toEqual([]);
  const asked3 = paginationConsistency(second, 3);
  expect(asked3).toMatchObject([
    { check: 'pagination_consistency', requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT', title: 'page=3 answered current_page 2' },
  ]);
  expect(asked3[0]!.received).toBe('current_page 2');
  // A page without calls says nothing of where it is.
  expect(paginationConsistency(page(0, { total: 5, per_page: 2, current_page: 4, total_pages: 3 }), 9)).toEqual([]);
  expect(paginationConsistency(second)).toEqual([]);
});
