// pages_partition (pages-partition.ts): consecutive pages against one larger page, a walk of every
// page of a small answer (judged by listing-pages.ts's findings), the last page of the whole list and
// the page after it; and what each asks, planned from the first page. Each comparison passes on pages that partition the list and fails on
// each way of breaking it.
import { test, expect } from '@playwright/test';
import {
  blockPageNumbers,
  lastPageHoldsRemainder,
  listEndOf,
  pagesPartition,
  walkOf,
  walkPartitions,
} from '../../core/checks/pages-partition.ts';
import { exchange, listPage } from './exchanges.ts';

const labels = (violations: ReadonlyArray<{ check: string; requirement: string }>) =>
  violations.map(({ check, requirement }) => `${check} ${requirement}`);

test('a block is the pages that make up one larger page', () => {
  expect(blockPageNumbers({ perPage: 2, pages: 3, block: 1 })).toEqual([1, 2, 3]);
  expect(blockPageNumbers({ perPage: 2, pages: 3, block: 2 })).toEqual([4, 5, 6]);
});

test('consecutive pages holding the larger page’s calls in order pass; a gap, a repeat or another order fails', () => {
  const block = { perPage: 2, pages: 2, block: 1 };
  const large = listPage(['a', 'b', 'c', 'd']);
  expect(pagesPartition([listPage(['a', 'b']), listPage(['c', 'd'])], large, block)).toEqual([]);
  const repeated = pagesPartition([listPage(['a', 'b']), listPage(['b', 'c'])], large, block);
  expect(labels(repeated)).toEqual(['pages_partition PAGINATION-PAGES-PARTITION']);
  expect(repeated[0]!.title).toBe('pages 1…2 of size 2 do not hold the calls of page 1 of size 4');
  expect(repeated[0]!.received).toContain('1 repeated');
  expect(pagesPartition([listPage(['b', 'a']), listPage(['c', 'd'])], large, block)).toHaveLength(1);
  expect(pagesPartition([listPage(['a', 'b']), listPage(['c'])], large, block)).toHaveLength(1);
});

test('a small answer is walked page by page, the one after the last included; a larger one, a refusal or no page size is not', () => {
  const first = listPage(['a', 'b'], { total: 5, per_page: 2, total_pages: 3 });
  expect(walkOf(first, 2, 8)).toEqual({ total: 5, perPage: 2, rest: [2, 3, 4] });
  // Without a size asked, the target's own.
  expect(walkOf(first, undefined, 8)).toEqual({ total: 5, perPage: 2, rest: [2, 3, 4] });
  expect(walkOf(first, 1, 4)).toBeUndefined();
  expect(walkOf(exchange('listCalls', 400, { error: { code: 'ERR_BAD_REQUEST' } }), 2, 8)).toBeUndefined();
  expect(walkOf(listPage([], { total: 0, per_page: undefined }), undefined, 8)).toBeUndefined();
});

test('a walk of distinct calls adding up to total, one total on every page and nothing after the last passes; each break fails', () => {
  const pages = [listPage(['a', 'b'], { total: 3 }), listPage(['c'], { total: 3 }, { page: 2 })];
  expect(walkPartitions([...pages, listPage([], { total: 3 }, { page: 3 })], 3, 2)).toEqual([]);
  const broken = walkPartitions(
    [listPage(['a', 'b'], { total: 3 }), listPage(['b'], { total: 4 }, { page: 2 }), listPage(['z'], { total: 3 }, { page: 3 })],
    3,
    2,
  );
  // The passive judge's findings (listing-pages.ts), the same function for each.
  expect(broken.map((violation) => violation.title)).toEqual([
    'page 2 of a listing repeats 1 call(s) of page 1',
    'pages of one list disagree on total: page 1 says 3, page 2 says 4',
  ]);
  expect(labels(broken)).toEqual(['pages_overlap PAGINATION-PAGES-PARTITION', 'total_across_pages PAGINATION-PAGES-PARTITION']);
});

test('a walk fails PAGINATION-PAGES-PARTITION on every way the active suite failed it before: a gap, the first page served again, calls after the last, a page that is no list page', () => {
  const end = (ids: string[]) => listPage(ids, { total: 3 }, { page: 3 });
  const judged = (walked: ReturnType<typeof listPage>[]) => labels(walkPartitions(walked, 3, 2));
  // A call never listed: every page is there, one call is not.
  expect(judged([listPage(['a', 'b'], { total: 3 }), listPage([], { total: 3 }, { page: 2 }), end([])])).toEqual([
    'pages_hold_total PAGINATION-PAGES-PARTITION',
  ]);
  expect(judged([listPage(['a', 'b'], { total: 3 }), listPage(['a', 'b'], { total: 3 }, { page: 2 }), end(['a', 'b'])])).toContain(
    'pages_overlap PAGINATION-PAGES-PARTITION',
  );
  const after = walkPartitions([listPage(['a', 'b'], { total: 3 }), listPage(['c'], { total: 3 }, { page: 2 }), end(['d'])], 3, 2);
  expect(after.map((violation) => violation.title)).toEqual(['3 pages of one list hold more calls than its total']);
  // A page that failed holds no calls: the walk misses them.
  const failed = exchange('listCalls', 500, { error: 'made up' });
  expect(judged([listPage(['a', 'b'], { total: 3 }), failed, end([])])).toEqual(['pages_hold_total PAGINATION-PAGES-PARTITION']);
  // An empty list: page 1 is its last page and the page after it at once.
  expect(judged([listPage(['a'], { total: 0 })])).toEqual(['pages_hold_total PAGINATION-PAGES-PARTITION']);
  expect(judged([listPage([], { total: 0 })])).toEqual([]);
});

test('the end of the list is read from its first page; the last page holds the remainder, the page after it nothing', () => {
  expect(listEndOf(listPage(['a', 'b'], { total: 5, per_page: 2 }))).toEqual({ total: 5, perPage: 2, last: 3 });
  expect(listEndOf(listPage([], { total: 0, per_page: 2 }))).toEqual({ total: 0, perPage: 2, last: 1 });
  expect(listEndOf(listPage([], { total: 0, per_page: undefined }))).toBeUndefined();
  const end = { total: 5, perPage: 2, last: 3 };
  expect(lastPageHoldsRemainder(listPage(['e']), listPage([]), end)).toEqual([]);
  expect(lastPageHoldsRemainder(listPage(['d', 'e']), listPage(['f']), end).map((violation) => violation.title)).toEqual([
    'the last page (3 of size 2) of a list of total 5 holds 2 calls',
    'page 4, after the last page (3 of size 2) of a list of total 5, holds 1 calls',
  ]);
});
