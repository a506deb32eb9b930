// page_parameters: pages are selected as the deployment selects them, with page and perPage. The
// specification shows no page-selection parameters (PAGINATION-PAGE-PARAMETERS is observed), so only
// the strict profile holds a target to this; the spec profile reports it as what the target does.
import type { PagingSupport } from '../learning/paging.ts';
import type { Violation } from './violation.ts';

/** List Calls selects pages with page and perPage, as the deployment's lists do; judged on what paging detection learned. */
export function pageParameters(paging: PagingSupport): Violation[] {
  if (paging.page && paging.perPage && paging.sizeName === 'perPage') return [];
  // Worded as what the target does: under the spec profile this is what a report shows of a passing requirement.
  const honoured = [paging.page && 'page', paging.perPage && `${paging.sizeName} for the page size`].filter(Boolean);
  return [
    {
      check: 'page_parameters',
      requirement: 'PAGINATION-PAGE-PARAMETERS',
      title: `List Calls selects pages with ${honoured.length > 0 ? honoured.join(' and ') : 'no parameter the suite tried'}, where the deployment's lists take page and perPage`,
      expected: 'page and perPage select pages, as in the deployment',
      received: paging.evidence,
      exchange: paging.detection.exchanges.at(-1)!,
    },
  ];
}
