// PAGINATION-PAGES-PARTITION: pages of one list hold its calls once each, in order. Three
// comparisons, each of answers the suite's tests take together (moving-data.ts's judgeStill asks
// again where the data moved): consecutive pages against one larger page, a walk of every page of a
// small answer, and the last page of the whole list with the page after it. The walk and the page
// after the last are judged by the functions that judge the pages of a listing in recorded traffic
// (listing-pages.ts), so each finding is defined once. What to ask is planned here too, from the
// first page, so that the tests hold only their steps.
import { callsIn } from './calls-in.ts';
import { pageOf } from './pagination.ts';
import { callsAfterLast, pagesHoldTotal, pagesOverlap, totalAcrossPages, type ListedPage } from './listing-pages.ts';
import { shown, type Violation } from './violation.ts';
import type { Exchange } from '../transport/exchange.ts';

/** A block of pages: `pages` pages of `perPage` calls, against page `block` of size perPage·pages. */
export interface PageBlock {
  perPage: number;
  pages: number;
  block: number;
}

/** The numbers of the small pages that make up the block's one large page. */
export const blockPageNumbers = ({ pages, block }: PageBlock): number[] =>
  Array.from({ length: pages }, (_, index) => (block - 1) * pages + index + 1);

/** The pages of a small answer to walk after its first page: every one, and the one after the last. */
export interface PageWalk {
  total: number;
  perPage: number;
  /** The pages after the first, the one after the last included. */
  rest: number[];
}

/**
 * What to walk of the answer whose first page is `first`: its pages have the size asked where the
 * target honours one (`asked`), its own size otherwise. Nothing where the first page is no list page
 * or names no size, or where the answer has more than `limit` pages (the block comparison covers those).
 */
export function walkOf(first: Exchange, asked: number | undefined, limit: number): PageWalk | undefined {
  const page = pageOf(first);
  if (!page) return undefined;
  const total = page.pagination.total;
  const perPage = asked ?? page.pagination.per_page ?? page.items.length;
  if (!(perPage > 0)) return undefined;
  const pages = Math.ceil(total / perPage);
  if (pages > limit) return undefined;
  return { total, perPage, rest: Array.from({ length: pages }, (_, index) => index + 2) };
}

/** Where the whole list ends, as its first page says. */
export interface ListEnd {
  total: number;
  perPage: number;
  last: number;
}

/** The last page of the list whose first page is `first`; nothing where that is no list page, or holds no calls and names no page size. */
export function listEndOf(first: Exchange): ListEnd | undefined {
  const page = pageOf(first);
  const perPage = page ? (page.pagination.per_page ?? page.items.length) : 0;
  if (!page || !(perPage > 0)) return undefined;
  const total = page.pagination.total;
  return { total, perPage, last: Math.max(1, Math.ceil(total / perPage)) };
}

/** k consecutive pages of size p hold exactly the calls of one page of size k·p: no overlap, no gap. */
export function pagesPartition(small: Exchange[], large: Exchange, query: PageBlock): Violation[] {
  const smallIds = small.flatMap((exchange) => callsIn(exchange).map(({ call }) => call.sessionId));
  const largeIds = callsIn(large).map(({ call }) => call.sessionId);
  const duplicates = smallIds.filter((id, index) => smallIds.indexOf(id) !== index);
  if (duplicates.length === 0 && JSON.stringify(smallIds) === JSON.stringify(largeIds)) return [];
  const first = (query.block - 1) * query.pages + 1;
  return [
    {
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `pages ${first}…${first + query.pages - 1} of size ${query.perPage} do not hold the calls of page ${query.block} of size ${query.perPage * query.pages}`,
      expected: `${largeIds.length} calls in the same order: ${shown(largeIds, 160)}`,
      received: `${smallIds.length} calls${duplicates.length > 0 ? `, ${duplicates.length} repeated` : ''}: ${shown(smallIds, 160)}`,
      exchange: small.at(-1)!,
    },
  ];
}

/** The last page of the whole list holds the remainder of total, and the page after it nothing (listing-pages.ts's callsAfterLast). */
export function lastPageHoldsRemainder(lastPage: Exchange, beyond: Exchange, { total, perPage, last }: ListEnd): Violation[] {
  const expected = total - (last - 1) * perPage;
  const violations: Violation[] = [];
  const held = callsIn(lastPage).length;
  if (held !== expected) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `the last page (${last} of size ${perPage}) of a list of total ${total} holds ${held} calls`,
      expected: `${expected} calls, the remainder of total`,
      received: `${held} calls`,
      exchange: lastPage,
    });
  }
  return [...violations, ...callsAfterLast(listedPages([beyond], total, last + 1), total, perPage)];
}

/**
 * A walk of every page plus the one after, judged as the passive judge judges the pages of a
 * listing (listing-pages.ts): no call on two pages, one total on every page, total distinct calls
 * on pages 1 to the last, nothing after it. (A call a page repeats within itself is
 * CALL-SESSION-ID-UNIQUE's, judged on every page.)
 */
export function walkPartitions(walked: Exchange[], total: number, perPage: number): Violation[] {
  const pages = listedPages(walked, total, 1);
  return [...pagesOverlap(pages), ...totalAcrossPages(pages), ...pagesHoldTotal(pages, perPage)];
}

/**
 * Answers as pages of one listing, numbered from `first` in the order asked. An answer that is no
 * list page holds no calls and names the walk's `total`: its own fault is its own check's.
 */
function listedPages(answers: readonly Exchange[], total: number, first: number): ListedPage[] {
  return answers.map((exchange, index) => {
    const pagination = pageOf(exchange)?.pagination;
    return {
      page: first + index,
      // As the comparison always read them: an id that is no string still counts, once.
      ids: callsIn(exchange).map(({ call }) => String(call.sessionId)),
      total: pagination?.total ?? total,
      // Not compared by the walks: total_pages is each page's own check's.
      totalPages: pagination?.total_pages ?? 0,
      exchange,
    };
  });
}
