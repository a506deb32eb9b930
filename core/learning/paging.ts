// Page selection is not shown by the specification. The deployment's other lists (and its calls
// SDK) use `page` and `perPage`; the suite asks for pages 1 and 2 of a small page size and tells
// each parameter apart as absent (the answer is what it would be without it) or acknowledged (the
// answer moved: the page asked for is echoed, other calls come, the page size is kept). An
// acknowledged parameter is judged by the pagination requirements, however wrong its pages are: a
// probe's evidence that a feature is broken is never turned into a skip.
import { pageOf } from '../checks/pagination.ts';
import type { Exchange } from '../transport/exchange.ts';
import { openDetection, ruleOut, type Detection } from './detection.ts';
import type { ListingApi } from './listing-api.ts';

export const PAGE_SELECTIONS = ['page-and-per-page', 'page-only', 'per-page-only', 'none'] as const;
export type PageSelection = (typeof PAGE_SELECTIONS)[number];

export interface PagingSupport {
  /** `page` moves the answer to another page: cross-page requirements are judged. */
  page: boolean;
  /** `perPage` sets the page size: pages of chosen sizes can be compared. */
  perPage: boolean;
  /** One sentence saying what was seen, for the report and for skip reasons. */
  evidence: string;
  detection: Detection<PageSelection>;
}

const selectionOf = (page: boolean, perPage: boolean): PageSelection =>
  page ? (perPage ? 'page-and-per-page' : 'page-only') : perPage ? 'per-page-only' : 'none';

export async function detectPaging(api: ListingApi, total: number | undefined): Promise<PagingSupport> {
  const size = total !== undefined && total >= 6 ? 3 : 1;
  const [first, second] = await Promise.all([api.listCalls({ page: 1, perPage: size }), api.listCalls({ page: 2, perPage: size })]);
  const detection = openDetection('page-selection', PAGE_SELECTIONS);
  detection.exchanges.push(first, second);
  detection.evidence = `pages 1 and 2 with perPage=${size}`;
  const one = pageOf(first);
  const two = pageOf(second);
  const undecided = (evidence: string): PagingSupport => ({
    page: false,
    perPage: false,
    evidence,
    detection: { ...detection, accepted: ['none'], evidence },
  });
  if (!one || !two) return undecided('List Calls with page and perPage did not answer a usable page, so page selection could not be told.');
  const known = one.pagination.total;
  if (known <= size) return undecided(`The target lists ${known} call(s), too few to tell whether page selection is honoured.`);

  const ids = (items: unknown[]) => items.map((item) => (item as { sessionId?: unknown }).sessionId);
  const firstIds = ids(one.items);
  const secondIds = ids(two.items);
  const echoed = two.pagination.current_page === 2;
  const moved = JSON.stringify(firstIds) !== JSON.stringify(secondIds);
  const page = echoed || moved;
  const perPage = one.items.length === size || one.pagination.per_page === size;
  const selection = selectionOf(page, perPage);

  const pageSaid = page
    ? `page=2 is acknowledged (current_page ${two.pagination.current_page}, ${secondIds.filter((id) => !firstIds.includes(id)).length} of its ${secondIds.length} calls not on page 1)`
    : `page=2 is ignored (current_page ${two.pagination.current_page}, the same calls as page 1)`;
  const perPageSaid = perPage
    ? `perPage=${size} is acknowledged (${one.items.length} items${one.pagination.per_page === undefined ? '' : `, per_page ${one.pagination.per_page}`})`
    : `perPage=${size} is ignored (${one.items.length} items of ${known})`;
  for (const candidate of PAGE_SELECTIONS) {
    if (candidate === selection) continue;
    const pageWrong = (candidate === 'page-and-per-page' || candidate === 'page-only') !== page;
    ruleOut(detection, candidate, pageWrong ? pageSaid : perPageSaid, pageWrong ? second : first);
  }
  detection.accepted = [selection];
  return { page, perPage, evidence: `${pageSaid}; ${perPageSaid}.`, detection };
}

/** A page query as the target understands it: perPage only where it is acknowledged. */
export function pageQuery(paging: Pick<PagingSupport, 'perPage'>, page: number, perPage?: number): Record<string, number> {
  return { page, ...(paging.perPage && perPage !== undefined && { perPage }) };
}

/** The exchanges the paging probe sent. */
export const pagingExchanges = (paging: PagingSupport): readonly Exchange[] => paging.detection.exchanges;
