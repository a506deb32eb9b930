// Page selection is not shown by the specification. The deployment's other lists (and its calls
// SDK) use `page` and `perPage`; the suite asks for pages 1 and 2 of a small page size and tells
// each parameter apart as absent (the answer is what it would be without it) or acknowledged (the
// answer moved: the page asked for is echoed, other calls come, the page size is kept). An
// acknowledged parameter is judged by the pagination requirements, however wrong its pages are: a
// probe's evidence that a feature is broken is never turned into a skip.
// The page size's name is not assumed either: where perPage is not acknowledged, the names real
// APIs give it are tried, one request each, and the first the answers show acknowledged is used
// from then on (PAGE_SIZE_PARAMETER names it where none of them fits).
import { pageOf } from '../checks/pagination.ts';
import { openDetection, ruleOut, type Detection } from './detection.ts';
import type { ListingApi } from './listing-api.ts';

export const PAGE_SELECTIONS = ['page-and-per-page', 'page-only', 'per-page-only', 'none'] as const;
type PageSelection = (typeof PAGE_SELECTIONS)[number];

/** The names real APIs give a page size, in the order they are tried: the deployment's first. */
export { PAGE_SIZE_NAMES } from './page-size-names.ts';
import { PAGE_SIZE_NAMES } from './page-size-names.ts';

export interface PagingSupport {
  /** `page` moves the answer to another page: cross-page requirements are judged. */
  page: boolean;
  /** A page-size parameter sets the page size: pages of chosen sizes can be compared. */
  perPage: boolean;
  /** The page-size parameter's name: the one acknowledged, or perPage when none was. */
  sizeName: string;
  /** One sentence saying what was seen, for the report and for skip reasons. */
  evidence: string;
  detection: Detection<PageSelection>;
}

const selectionOf = (page: boolean, perPage: boolean): PageSelection =>
  page ? (perPage ? 'page-and-per-page' : 'page-only') : perPage ? 'per-page-only' : 'none';

/**
 * `sizeNames` are the page-size names to try, in order: PAGE_SIZE_NAMES, or the one the
 * configuration names (PAGE_SIZE_PARAMETER).
 */
export async function detectPaging(
  api: ListingApi,
  total: number | undefined,
  sizeNames: readonly string[] = PAGE_SIZE_NAMES,
): Promise<PagingSupport> {
  const size = total !== undefined && total >= 6 ? 3 : 1;
  const [tried, ...others] = sizeNames;
  const [first, second] = await Promise.all([api.listCalls({ page: 1, [tried!]: size }), api.listCalls({ page: 2, [tried!]: size })]);
  const detection = openDetection('page-selection', PAGE_SELECTIONS);
  detection.exchanges.push(first, second);
  detection.evidence = `pages 1 and 2 with ${tried}=${size}`;
  const one = pageOf(first);
  const two = pageOf(second);
  const undecided = (evidence: string): PagingSupport => ({
    page: false,
    perPage: false,
    sizeName: tried!,
    evidence,
    detection: { ...detection, accepted: ['none'], evidence },
  });
  if (!one || !two)
    return undecided(`List Calls with page and ${tried} did not answer a usable page, so page selection could not be told.`);
  const known = one.pagination.total;
  if (known <= size) return undecided(`The target lists ${known} call(s), too few to tell whether page selection is honoured.`);

  const ids = (items: unknown[]) => items.map((item) => (item as { sessionId?: unknown }).sessionId);
  const firstIds = ids(one.items);
  const secondIds = ids(two.items);
  const echoed = two.pagination.current_page === 2;
  const moved = JSON.stringify(firstIds) !== JSON.stringify(secondIds);
  const page = echoed || moved;
  const acknowledges = (answer: NonNullable<ReturnType<typeof pageOf>>) =>
    answer.items.length === size || answer.pagination.per_page === size;
  // Not the first name: each other name once, on page 1, and the first the answer acknowledges.
  let sizeName = tried!;
  let sizeAnswer = { exchange: first, page: one };
  if (!acknowledges(one) && others.length > 0) {
    const tries = await Promise.all(others.map((name) => api.listCalls({ page: 1, [name]: size })));
    detection.exchanges.push(...tries);
    const found = tries
      .map((exchange, index) => ({ exchange, page: pageOf(exchange), name: others[index]! }))
      .find((answer) => answer.page !== undefined && acknowledges(answer.page));
    if (found) [sizeName, sizeAnswer] = [found.name, { exchange: found.exchange, page: found.page! }];
  }
  const perPage = acknowledges(sizeAnswer.page);
  const selection = selectionOf(page, perPage);
  detection.evidence = `pages 1 and 2 with ${tried}=${size}${others.length > 0 && sizeName !== tried ? `; the page size named ${sizeName}` : ''}${!perPage && others.length > 0 ? `; no page size acknowledged under ${sizeNames.join(', ')}` : ''}`;

  const pageSaid = page
    ? `page=2 is acknowledged (current_page ${two.pagination.current_page}, ${secondIds.filter((id) => !firstIds.includes(id)).length} of its ${secondIds.length} calls not on page 1)`
    : `page=2 is ignored (current_page ${two.pagination.current_page}, the same calls as page 1)`;
  const items = sizeAnswer.page.items.length;
  const perPageSaid = perPage
    ? `${sizeName}=${size} is acknowledged as the page size (${items} items${sizeAnswer.page.pagination.per_page === undefined ? '' : `, per_page ${sizeAnswer.page.pagination.per_page}`})`
    : `no page size is acknowledged: ${sizeNames.map((name) => `${name}=${size}`).join(', ')} each answered ${one.items.length} items of ${known}`;
  for (const candidate of PAGE_SELECTIONS) {
    if (candidate === selection) continue;
    const pageWrong = (candidate === 'page-and-per-page' || candidate === 'page-only') !== page;
    ruleOut(detection, candidate, pageWrong ? pageSaid : perPageSaid, pageWrong ? second : sizeAnswer.exchange);
  }
  detection.accepted = [selection];
  return { page, perPage, sizeName, evidence: `${pageSaid}; ${perPageSaid}.`, detection };
}

/** A page query as the target understands it: a page size only where one is acknowledged, under its name. */
export function pageQuery(paging: Pick<PagingSupport, 'perPage' | 'sizeName'>, page: number, perPage?: number): Record<string, number> {
  return { page, ...(paging.perPage && perPage !== undefined && { [paging.sizeName]: perPage }) };
}

/** A page size under the name the target acknowledged. */
export const sizeQuery = (paging: Pick<PagingSupport, 'sizeName'>, perPage: number): Record<string, number> => ({
  [paging.sizeName]: perPage,
});
