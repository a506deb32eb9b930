// What one answer cannot show and several of one side's answers can, judged as the suite's own tests
// judge them: the pages of one listing of the plan together (listing-pages.ts: no call on two pages,
// one total on every page …), and Get Call against the same call as the side's own list showed it
// (get-matches-list.ts, one way while the call settles). Each violation is filed under the
// comparisons whose answers it was found in, on the side that broke it, for the classing.
//
// Movement is allowed for by the suite's rules, never assumed: the plan's pages are of the unfiltered
// list, which calls never leave, so it only grows, and grows its total (passive/listing-walks.ts): a
// side's pages are judged where they all name one total, or where the primary's pages named one total
// in both its passes (the trusted side showed that nothing arrived while they were asked). Get Call is
// compared with the list the side was learned from, asked before the plan, as the suite's
// CALLS-GET-MATCHES-LIST test compares them: a call in a final status, strictly where it had settled
// by the target's clock at that list (settling.ts), else one way.
import { callsIn } from '../checks/calls-in.ts';
import { compareViews } from '../checks/get-matches-list.ts';
import { listingPages, type ListedPage } from '../checks/listing-pages.ts';
import { pageOf } from '../checks/pagination.ts';
import { settledBy, targetClock, TERMINAL_STATUSES } from '../checks/settling.ts';
import type { Violation } from '../checks/violation.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Comparison } from './diff-tally.ts';
import type { LearnedSide } from './run-diff.ts';

type SideViolations = Map<Comparison, Violation[]>;

export interface CrossFound {
  primary: SideViolations;
  candidate: SideViolations;
}

const file = (found: SideViolations, comparison: Comparison, violations: readonly Violation[]) => {
  if (violations.length > 0) found.set(comparison, [...(found.get(comparison) ?? []), ...violations]);
};

function listedPage(exchange: Exchange, page: number): ListedPage | undefined {
  const shown = pageOf(exchange);
  if (!shown) return undefined;
  const { total, total_pages: totalPages, per_page: perPage } = shown.pagination;
  const ids = callsIn(exchange).map(({ call }) => String(call.sessionId));
  return { page, ids, total, totalPages, ...(perPage !== undefined && { perPage }), exchange };
}

const oneTotal = (pages: ReadonlyArray<ListedPage | undefined>) =>
  pages.every((page) => page !== undefined) && new Set(pages.map((page) => page.total)).size === 1;

/** The plan's pages of the unfiltered list at the default size, judged together on each side. */
function listingFindings(comparisons: readonly Comparison[], found: CrossFound): void {
  const pages = comparisons.filter(({ request }) => request.kind === 'pages');
  if (pages.length < 2) return;
  const number = (comparison: Comparison) => Number(comparison.request.query?.page ?? 1);
  const side = (answer: (comparison: Comparison) => Exchange) =>
    pages.map((comparison) => listedPage(answer(comparison), number(comparison)));
  const [primary, again, candidate] = [side((c) => c.primary), side((c) => c.again), side((c) => c.candidate)];
  // The trusted side named one total in both passes: nothing arrived while the pages were asked.
  const still = oneTotal([...primary, ...again]);
  for (const [which, listed] of [
    ['primary', primary],
    ['candidate', candidate],
  ] as const) {
    if (!still && !oneTotal(listed)) continue;
    const judged = listed.filter((page): page is ListedPage => page !== undefined);
    const violations = listingPages(judged);
    for (const comparison of pages) file(found[which], comparison, violations);
  }
}

/** Get Call on a sampled id against the same call as the side's own learning listed it, earlier. */
function getMatchesListFindings(
  comparisons: readonly Comparison[],
  sides: Record<keyof CrossFound, LearnedSide>,
  settleSeconds: number,
  found: CrossFound,
): void {
  for (const which of ['primary', 'candidate'] as const) {
    const { learned } = sides[which];
    const listed = new Map(learned.sample.calls.map((seen) => [String(seen.call.sessionId), seen]));
    const clock = targetClock(learned.sample.exchanges);
    for (const comparison of comparisons) {
      if (comparison.request.kind !== 'get') continue;
      const earlier = listed.get(String(comparison.request.sessionId));
      const [fetched] = callsIn(comparison[which]);
      if (!earlier || !fetched || !TERMINAL_STATUSES.has(String(earlier.call.status))) continue;
      if (fetched.call.sessionId !== earlier.call.sessionId) continue; // another call: CALLS-GET-OK's to report
      file(found[which], comparison, compareViews(earlier, fetched, settledBy(earlier.call, clock, settleSeconds)).violations);
    }
  }
}

/** Every cross-request violation of each side, by the comparison it was found in. */
export function crossRequestViolations(
  comparisons: readonly Comparison[],
  sides: Record<keyof CrossFound, LearnedSide>,
  settleSeconds: number,
): CrossFound {
  const found: CrossFound = { primary: new Map(), candidate: new Map() };
  listingFindings(comparisons, found);
  getMatchesListFindings(comparisons, sides, settleSeconds, found);
  return found;
}
