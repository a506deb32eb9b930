// What one answer cannot show and several of one side's answers can, judged as the suite's own tests
// judge them: the pages of one listing of the plan together (listing-pages.ts: no call on two pages,
// one total on every page …), and Get Call against the same call as the side's own list showed it
// (get-matches-list.ts, one way while the call settles). Each violation is filed under the
// comparisons whose answers it was found in, on the side that broke it, for the classing.
//
// Movement is allowed for by the suite's rules, never assumed: the plan's pages are of the unfiltered
// list, which calls never leave, so it only grows, and grows its total (passive/listing-walks.ts): a
// side's pages are judged, on its own answers only, where they all name one total, or where that
// side's answers of the list show its total falling across more than MAX_ANSWER_AGE (total-falls.ts).
// The other side's answers show nothing of this one's: behind a cache or a read replica a clean side
// answers one page from before a call arrived and the next after it, while the other stands still. Get Call is
// compared with the list the side was learned from, asked before the plan, as the suite's
// CALLS-GET-MATCHES-LIST test compares them: a call in a final status, strictly where it had settled
// by the target's clock at that list (settling.ts), else one way.
import { callsIn } from '../checks/calls-in.ts';
import { compareViews } from '../checks/get-matches-list.ts';
import { listingPages, type ListedPage } from '../checks/listing-pages.ts';
import { pageOf } from '../checks/pagination.ts';
import { settledBy, targetClock, TERMINAL_STATUSES } from '../checks/settling.ts';
import type { Violation } from '../checks/violation.ts';
import { totalSeenToFall, type TotalSeen } from '../checks/total-falls.ts';
import { PAGE_SIZE_NAMES } from '../learning/paging.ts';
import { headerOf, type Exchange } from '../transport/exchange.ts';
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

/** The answers asked of the unfiltered list, whatever their page or page size: the list only grows. */
function unfiltered(exchange: Exchange): boolean {
  if (exchange.operation !== 'listCalls' || headerOf(exchange.request.headers, 'onBehalfOf') !== undefined) return false;
  const names = [...new URL(exchange.request.url).searchParams.keys()];
  return names.every((name) => name === 'page' || (PAGE_SIZE_NAMES as readonly string[]).includes(name));
}

/** When an answer was asked and arrived, and the total it named; undefined where it names none or its times are not known. */
function totalSeen(exchange: Exchange): TotalSeen | undefined {
  const total = pageOf(exchange)?.pagination.total;
  if (total === undefined || exchange.receivedAt === undefined) return undefined;
  return { start: exchange.receivedAt - exchange.durationMs, end: exchange.receivedAt, total };
}

/**
 * Whether one side's pages are one listing, judged on that side's own evidence only, as the passive
 * judge judges a walk (passive/listing-walks.ts): pages that all name one total saw one set of calls
 * (the unfiltered list only grows, and grows its total); pages whose totals differ stand only where
 * the side's answers of that list (the plan's, and its learning's before) show the total falling
 * across more than MAX_ANSWER_AGE. Another side standing still shows nothing of this one: behind a
 * cache or a read replica, a side may answer one page from before a call arrived and the next after.
 */
function oneListing(pages: readonly ListedPage[], answers: readonly Exchange[], ageSeconds: number): boolean {
  if (new Set(pages.map((page) => page.total)).size <= 1) return true;
  const seen = answers.filter(unfiltered).flatMap((exchange) => totalSeen(exchange) ?? []);
  return totalSeenToFall(seen, ageSeconds * 1000);
}

/** The plan's pages of the unfiltered list at the default size, judged together on each side. */
function listingFindings(
  comparisons: readonly Comparison[],
  sides: Record<keyof CrossFound, LearnedSide>,
  ageSeconds: number,
  found: CrossFound,
): void {
  const pages = comparisons.filter(({ request }) => request.kind === 'pages');
  if (pages.length < 2) return;
  const number = (comparison: Comparison) => Number(comparison.request.query?.page ?? 1);
  for (const which of ['primary', 'candidate'] as const) {
    const listed = pages.flatMap((comparison) => listedPage(comparison[which], number(comparison)) ?? []);
    const answers = [...sides[which].learned.exchanges, ...comparisons.map((comparison) => comparison[which])];
    if (listed.length < 2 || !oneListing(listed, answers, ageSeconds)) continue;
    const violations = listingPages(listed);
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
  movement: { settleSeconds: number; answerAgeSeconds: number },
): CrossFound {
  const { settleSeconds, answerAgeSeconds } = movement;
  const found: CrossFound = { primary: new Map(), candidate: new Map() };
  listingFindings(comparisons, sides, answerAgeSeconds, found);
  getMatchesListFindings(comparisons, sides, settleSeconds, found);
  return found;
}
