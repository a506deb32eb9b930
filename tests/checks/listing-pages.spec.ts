// The pages of one listing judged together (core/checks/listing-pages.ts): each finding on pages
// that break it, none on pages that partition their list.
import { test, expect } from '@playwright/test';
import { listingPages, type ListedPage } from '../../core/checks/listing-pages.ts';
import { exchange } from './exchanges.ts';

const answer = exchange('listCalls', 200, { data: [], meta: {} });

/** Page `page` of a list of `total` calls c1…c{total}, `size` a page, holding `ids` (the right ones by default). */
function page(number: number, total: number, size: number, change: Partial<ListedPage> = {}): ListedPage {
  const from = (number - 1) * size;
  const ids = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, index) => `c${from + index + 1}`);
  return { page: number, ids, total, totalPages: Math.ceil(total / size), perPage: size, exchange: answer, ...change };
}

const walk = (total: number, size: number, pages: number) => Array.from({ length: pages }, (_, index) => page(index + 1, total, size));
const found = (pages: ListedPage[], asked?: number) =>
  listingPages(pages, asked).map(({ check, requirement }) => `${check} ${requirement}`);

test('pages that partition their list pass: a whole walk with the empty page after it, a part of one, pages out of order, no per_page', () => {
  expect(found(walk(23, 5, 6))).toEqual([]);
  expect(found([page(3, 23, 5), page(2, 23, 5)])).toEqual([]);
  expect(found([page(1, 0, 5), page(2, 0, 5)])).toEqual([]);
  const unnamed = walk(23, 5, 5).map((one) => ({ ...one, perPage: undefined }));
  expect(found(unnamed, 5)).toEqual([]);
  // One page alone is nothing to compare.
  expect(found([page(1, 23, 5, { ids: ['c1', 'c1'] })])).toEqual([]);
});

test('a call on two pages breaks PAGINATION-PAGES-PARTITION (pages overlapping, the first page served again)', () => {
  const overlapping = [page(1, 23, 5), page(2, 23, 5, { ids: ['c5', 'c6', 'c7', 'c8', 'c9'] })];
  expect(found(overlapping)).toEqual(['pages_overlap PAGINATION-PAGES-PARTITION']);
  const [violation] = listingPages(overlapping);
  expect(violation).toMatchObject({ title: 'page 2 of a listing repeats 1 call(s) of page 1', received: 'repeated: ["c5"]' });
  const echoed = [page(1, 23, 5), page(2, 23, 5, { ids: page(1, 23, 5).ids })];
  expect(listingPages(echoed)[0]?.title).toBe('page 2 of a listing repeats 5 call(s) of page 1');
});

test('pages disagreeing on total break PAGINATION-PAGES-PARTITION; on total_pages alone, PAGINATION-TOTAL-PAGES-CONSISTENT', () => {
  expect(found([page(1, 23, 5), page(2, 24, 5)])).toEqual(['total_across_pages PAGINATION-PAGES-PARTITION']);
  expect(found([page(1, 23, 5), page(2, 23, 5, { totalPages: 4 })])).toEqual([
    'total_pages_across_pages PAGINATION-TOTAL-PAGES-CONSISTENT',
  ]);
});

test('pages holding more calls than total, a page after the last holding calls, or a whole walk holding fewer break PAGINATION-PAGES-PARTITION', () => {
  // A total capped below the calls: the pages after it still hold calls.
  const capped = [page(1, 10, 5), page(2, 10, 5), page(3, 10, 5, { ids: ['c11', 'c12'] })];
  expect(found(capped)).toEqual(['pages_hold_total PAGINATION-PAGES-PARTITION']);
  expect(listingPages(capped)[0]?.title).toBe('3 pages of one list hold more calls than its total');
  const after = [page(1, 10, 5), page(3, 10, 5, { ids: ['c99'] })];
  expect(listingPages(after)[0]?.title).toBe('page 3, after the last page (2 of size 5) of a list of total 10, holds 1 calls');
  // Pages each starting one late: every page is there, one call never is.
  const skipping = [page(1, 10, 5), page(2, 10, 5, { ids: ['c7', 'c8', 'c9', 'c10'] })];
  expect(found(skipping)).toEqual(['pages_hold_total PAGINATION-PAGES-PARTITION']);
  // Fewer calls than total is no finding while a page of the walk is missing.
  expect(found([page(1, 15, 5), page(3, 15, 5, { ids: ['c11'] })])).toEqual([]);
});

test('with no per_page named, a page before the last that is not full breaks PAGINATION-COUNT-WITHIN-BOUNDS against the size asked', () => {
  const pages = walk(12, 5, 3).map((one) => ({ ...one, perPage: undefined }));
  pages[1] = { ...pages[1]!, ids: ['c6', 'c7', 'c8', 'c9'] };
  expect(found(pages, 5)).toContain('count_across_pages PAGINATION-COUNT-WITHIN-BOUNDS');
  // Without the size asked, the size is not known: nothing to count against.
  expect(found(pages)).toEqual([]);
});

test('a total a target chose does not choose how long the comparison takes', () => {
  const started = Date.now();
  expect(found([page(1, 1e12, 5, { ids: ['c1'] }), page(2, 1e12, 5, { ids: ['c2'] })])).toEqual([]);
  expect(Date.now() - started).toBeLessThan(1_000);
});
