// The pages of one listing judged together (specification 2.4): the pages a client asked of one
// list (the same filters, page size and scope), each reduced to what the comparison needs. No call
// is on two pages, the pages hold no more calls than total says and, once every page up to the last
// is there, exactly total; every page names the same total and total_pages; and with a page size
// the answers do not name (no per_page), every page before the last is full and the last holds the
// rest. The passive judge (passive/listing-walks.ts) hands this the pages a recording holds; the
// active suite's walks (pages-partition.ts) judge the pages they choose with the same functions, so
// that a call on two pages, a drifting total and calls after the last page mean one thing in both.
// Whether the data moved between the asks is not judged here: these are the findings of pages taken
// as one moment.
import type { Exchange } from '../transport/exchange.ts';
import { shown, type Violation } from './violation.ts';

/** One page of a listing, as the comparison needs it. */
export interface ListedPage {
  /** The page asked for. */
  page: number;
  /** The session ids it held, in order. */
  ids: readonly string[];
  total: number;
  totalPages: number;
  /** per_page as the answer named it, when it did. */
  perPage?: number;
  /** The answer, to cite (its body may be cut). */
  exchange: Exchange;
}

/** Every finding across the pages of one listing; `askedSize` is the page size the requests carried, when they did. */
export function listingPages(pages: readonly ListedPage[], askedSize?: number): Violation[] {
  if (pages.length < 2) return [];
  const ordered = [...pages].sort((a, b) => a.page - b.page);
  return [
    ...pagesOverlap(ordered),
    ...totalAcrossPages(ordered),
    ...totalPagesAcrossPages(ordered),
    ...pagesHoldTotal(ordered, pageSizeOf(ordered, askedSize)),
    ...countAcrossPages(ordered, askedSize),
  ];
}

/** The page size the pages were cut to: per_page where every answer names the same one, else the size asked. */
function pageSizeOf(pages: readonly ListedPage[], askedSize: number | undefined): number | undefined {
  const named = new Set(pages.map((page) => page.perPage));
  const [only] = named;
  return named.size === 1 && only !== undefined && only > 0 ? only : askedSize !== undefined && askedSize > 0 ? askedSize : undefined;
}

/** PAGINATION-PAGES-PARTITION: a call listed on two pages of one listing (pages of one list do not overlap). */
export function pagesOverlap(pages: readonly ListedPage[]): Violation[] {
  const firstOn = new Map<string, number>();
  const violations: Violation[] = [];
  for (const page of pages) {
    const repeated = new Map<number, string[]>();
    for (const id of new Set(page.ids)) {
      const earlier = firstOn.get(id);
      if (earlier === undefined) firstOn.set(id, page.page);
      else if (earlier !== page.page) repeated.set(earlier, [...(repeated.get(earlier) ?? []), id]);
    }
    for (const [earlier, ids] of repeated)
      violations.push({
        check: 'pages_overlap',
        requirement: 'PAGINATION-PAGES-PARTITION',
        title: `page ${page.page} of a listing repeats ${ids.length} call(s) of page ${earlier}`,
        expected: `no call on two pages of one list (pages ${earlier} and ${page.page})`,
        received: `repeated: ${shown(ids, 160)}`,
        exchange: page.exchange,
      });
  }
  return violations;
}

/** PAGINATION-PAGES-PARTITION: the pages of one listing name different totals (as the active suite's page walk finds it). */
export function totalAcrossPages(pages: readonly ListedPage[]): Violation[] {
  const [first] = pages as [ListedPage];
  const drifting = pages.find((page) => page.total !== first.total);
  if (!drifting) return [];
  return [
    {
      check: 'total_across_pages',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `pages of one list disagree on total: page ${first.page} says ${first.total}, page ${drifting.page} says ${drifting.total}`,
      expected: `total ${first.total} on every page`,
      received: `total ${drifting.total}`,
      exchange: drifting.exchange,
    },
  ];
}

/** PAGINATION-TOTAL-PAGES-CONSISTENT: pages that agree on total name different total_pages. */
export function totalPagesAcrossPages(pages: readonly ListedPage[]): Violation[] {
  const [first] = pages as [ListedPage];
  const drifting = pages.find((page) => page.total === first.total && page.totalPages !== first.totalPages);
  if (!drifting) return [];
  return [
    {
      check: 'total_pages_across_pages',
      requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT',
      title: `pages of one list of total ${first.total} disagree on total_pages: page ${first.page} says ${first.totalPages}, page ${drifting.page} says ${drifting.totalPages}`,
      expected: `total_pages ${first.totalPages} on every page with total ${first.total}`,
      received: `total_pages ${drifting.totalPages}`,
      exchange: drifting.exchange,
    },
  ];
}

/**
 * PAGINATION-PAGES-PARTITION: the union of the pages is total distinct calls. More distinct calls
 * than total is wrong whichever pages were asked, and so is a page past the last one total allows
 * holding calls; fewer only once every page from the first to the last that total allows is there.
 * Judged where the pages agree on total (totalAcrossPages finds them otherwise).
 */
export function pagesHoldTotal(pages: readonly ListedPage[], size: number | undefined): Violation[] {
  const [first] = pages as [ListedPage];
  if (pages.some((page) => page.total !== first.total)) return [];
  const total = first.total;
  const distinct = new Set(pages.flatMap((page) => page.ids)).size;
  if (distinct > total) {
    return [
      {
        check: 'pages_hold_total',
        requirement: 'PAGINATION-PAGES-PARTITION',
        title: `${pages.length} pages of one list hold more calls than its total`,
        expected: `at most ${total} distinct calls (meta.pagination.total)`,
        received: `${distinct} distinct calls`,
        exchange: pages.at(-1)!.exchange,
      },
    ];
  }
  if (size === undefined) return [];
  const after = callsAfterLast(pages, total, size);
  if (after.length > 0) return after;
  const lastPage = lastPageOf(total, size);
  const walked = new Set(pages.map((page) => page.page));
  // Its size first: a total a target chose must not choose how long this takes.
  const whole = walked.size >= lastPage && Array.from({ length: lastPage }, (_, index) => index + 1).every((page) => walked.has(page));
  if (whole && distinct < total) {
    return [
      {
        check: 'pages_hold_total',
        requirement: 'PAGINATION-PAGES-PARTITION',
        title: `every page (1…${lastPage} of size ${size}) of a list of total ${total} holds ${distinct} distinct calls`,
        expected: `${total} distinct calls (meta.pagination.total)`,
        received: `${distinct} distinct calls`,
        exchange: pages.find((page) => page.page === lastPage)!.exchange,
      },
    ];
  }
  return [];
}

/** The last page a list of `total` calls has at `size` a page: page 1 even when it is empty. */
const lastPageOf = (total: number, size: number): number => Math.max(1, Math.ceil(total / size));

/** PAGINATION-PAGES-PARTITION: a page past the last one total allows, at `size` a page, holding calls (the first such page). */
export function callsAfterLast(pages: readonly ListedPage[], total: number, size: number): Violation[] {
  const lastPage = lastPageOf(total, size);
  const beyond = pages.find((page) => page.page > lastPage && page.ids.length > 0);
  if (!beyond) return [];
  return [
    {
      check: 'pages_hold_total',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `page ${beyond.page}, after the last page (${lastPage} of size ${size}) of a list of total ${total}, holds ${beyond.ids.length} calls`,
      expected: 'no calls: total counts them all',
      received: `${beyond.ids.length} calls`,
      exchange: beyond.exchange,
    },
  ];
}

/**
 * PAGINATION-COUNT-WITHIN-BOUNDS where the answers name no per_page (each page's own check judges it
 * where they do): with the page size the requests asked for, every page before the last that total
 * allows holds that many calls, and the last the rest.
 */
export function countAcrossPages(pages: readonly ListedPage[], askedSize: number | undefined): Violation[] {
  if (askedSize === undefined || !(askedSize > 0) || pages.some((page) => page.perPage !== undefined)) return [];
  const [first] = pages as [ListedPage];
  if (pages.some((page) => page.total !== first.total)) return [];
  const lastPage = Math.ceil(first.total / askedSize);
  const violations: Violation[] = [];
  for (const page of pages) {
    if (page.page < 1 || page.page > lastPage) continue;
    const expected = Math.min(askedSize, first.total - askedSize * (page.page - 1));
    if (page.ids.length === expected) continue;
    violations.push({
      check: 'count_across_pages',
      requirement: 'PAGINATION-COUNT-WITHIN-BOUNDS',
      title: `page ${page.page} of ${lastPage} (size ${askedSize} asked, no per_page named) does not hold the calls it should`,
      expected: `${expected} calls (total ${first.total}, page size ${askedSize})`,
      received: `${page.ids.length} calls`,
      exchange: page.exchange,
    });
  }
  return violations;
}
