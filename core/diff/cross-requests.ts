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
// by the target's clock at that list (settling.ts), else one way. The same Get Call sent again answers
// the same (CALLS-READ-ONLY, repeatable-read.ts), as the suite's read-only test judges it.
import { callsIn } from '../checks/calls-in.ts';
import { compareViews } from '../checks/get-matches-list.ts';
import { listingPages, type ListedPage } from '../checks/listing-pages.ts';
import { pageOf } from '../checks/pagination.ts';
import { settledBy, targetClock, TERMINAL_STATUSES } from '../checks/settling.ts';
import { sameAnswer, sameButSettling } from '../checks/repeatable-read.ts';
import type { Violation } from '../checks/violation.ts';
import { totalSeenToFall } from '../checks/total-falls.ts';
import type { Exchange } from '../transport/exchange.ts';
import { growthSeen } from './growing-list.ts';
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
  return totalSeenToFall(growthSeen(answers), ageSeconds * 1000);
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
    // As the suite judges pages across requests only on a target seen to acknowledge `page` (paging.ts):
    // one that ignores it serves every page the same, a reading of its own (page-selection), not a partition broken.
    if (!sides[which].learned.paging.page) continue;
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

/** Get Call on a known id, with the side's own key under the usual header, for no one: the same request whenever it is sent. */
const plainGet = ({ request }: Comparison) =>
  request.kind === 'get' && request.key === 'full' && request.apiKeyHeader === undefined && request.onBehalfOf === undefined;

/**
 * CALLS-READ-ONLY as the suite's own test judges it (repeatable-read.ts): the same Get Call, sent again
 * after other reads, answers the same; byte for byte where the call had settled by the target's clock
 * at the first answer, else one way (only what settles late may arrive). The first answer is the
 * side's learning's, where it fetched the call, else the plan's first. One way only where the later
 * was asked more than MAX_ANSWER_AGE after the first arrived: an older answer may show less.
 */
function readOnlyFindings(
  comparisons: readonly Comparison[],
  sides: Record<keyof CrossFound, LearnedSide>,
  movement: { settleSeconds: number; answerAgeSeconds: number },
  found: CrossFound,
): void {
  for (const which of ['primary', 'candidate'] as const) {
    const first = new Map<string, Exchange>();
    for (const exchange of sides[which].learned.sample.fetched ?? []) {
      const [seen] = callsIn(exchange);
      if (seen && !first.has(String(seen.call.sessionId))) first.set(String(seen.call.sessionId), exchange);
    }
    for (const comparison of comparisons.filter(plainGet)) {
      const id = String(comparison.request.sessionId);
      const earlier = first.get(id);
      const later = comparison[which];
      if (earlier === undefined) {
        first.set(id, later);
        continue;
      }
      const [before] = callsIn(earlier);
      // The target's clock as the side's learning and the first answer show it: a lower bound of its now then.
      const clock = targetClock([...sides[which].learned.sample.exchanges, earlier]);
      if (before && settledBy(before.call, clock, movement.settleSeconds)) {
        file(found[which], comparison, sameAnswer(earlier, later));
      } else if (askedAfter(earlier, later, movement.answerAgeSeconds)) {
        file(found[which], comparison, sameButSettling(earlier, later));
      }
    }
  }
}

/** Whether `later` was asked more than `ageSeconds` after `earlier` arrived (both timed). */
function askedAfter(earlier: Exchange, later: Exchange, ageSeconds: number): boolean {
  if (earlier.receivedAt === undefined || later.receivedAt === undefined) return false;
  return later.receivedAt - later.durationMs > earlier.receivedAt + ageSeconds * 1000;
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
  readOnlyFindings(comparisons, sides, movement, found);
  return found;
}
