// Settled calls shifted across a page's edge as the list moved between two answers: explained only
// past the lacking page's ends, on a page of a longer list, in the direction and up to the number the
// totals differ by.
import { test, expect } from '@playwright/test';
import { shiftedAcrossEdges } from '../../core/diff/page-shift.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { exchange } from '../checks/exchanges.ts';

type Call = Record<string, unknown>;
/** Call `n` of a list, newest first: a higher n is newer. */
const call = (n: number): Call => ({ sessionId: `c${n}`, status: 'ended', initiatedAt: 1000 * n, endedAt: 1000 * n + 60 });
const page = (numbers: number[], total: number, current = 2): Exchange =>
  exchange('listCalls', 200, {
    data: numbers.map(call),
    meta: { pagination: { total, count: numbers.length, per_page: 4, current_page: current, total_pages: Math.ceil(total / 4) } },
  });

/** The entries each answer lists and the other does not, as answer-differences.ts gives them. */
function onlyIn(primary: Exchange, candidate: Exchange) {
  const ids = (answer: Exchange) => ((answer.response.body as { data: Call[] }).data ?? []).map((seen) => seen.sessionId);
  const [inPrimary, inCandidate] = [new Set(ids(primary)), new Set(ids(candidate))];
  const listed = (answer: Exchange) => (answer.response.body as { data: Call[] }).data;
  return [
    ...listed(primary)
      .filter((seen) => !inCandidate.has(seen.sessionId))
      .map((seen) => ({ side: 'primary' as const, call: seen })),
    ...listed(candidate)
      .filter((seen) => !inPrimary.has(seen.sessionId))
      .map((seen) => ({ side: 'candidate' as const, call: seen })),
  ];
}

const explained = (primary: Exchange, candidate: Exchange, order: 'newest-first' | 'oldest-first' | 'unknown' = 'newest-first') =>
  [...shiftedAcrossEdges(primary, candidate, onlyIn(primary, candidate), order === 'unknown' ? undefined : order)]
    .map((seen) => seen.sessionId)
    .sort();

test('a candidate two calls behind: page 2 slides by two, both ends explained, as many as the totals differ by', () => {
  // The primary counts 10 calls, the candidate (older) 8: its page 2 starts two calls further down.
  expect(explained(page([8, 7, 6, 5], 10), page([6, 5, 4, 3], 8))).toEqual(['c3', 'c4', 'c7', 'c8']);
  // Oldest first, the same slide reads the other way round.
  expect(explained(page([5, 6, 7, 8], 10), page([7, 8, 9, 10], 8), 'oldest-first')).toEqual(['c10', 'c5', 'c6', 'c9']);
});

test('equal totals, totals that differ the other way, or by less than the slide explain no more than they allow', () => {
  expect(explained(page([8, 7, 6, 5], 10), page([6, 5, 4, 3], 10))).toEqual([]);
  expect(explained(page([8, 7, 6, 5], 8), page([6, 5, 4, 3], 10))).toEqual([]);
  expect(explained(page([8, 7, 6, 5], 9), page([6, 5, 4, 3], 8))).toEqual(['c4', 'c8']);
});

test('a call missing from within the page is no slide; nor is one before a first page, or past the end of a whole list', () => {
  // c7 lies between the candidate's first and last calls: only the call pushed in at the end is explained.
  expect(explained(page([8, 7, 6, 5], 10), page([8, 6, 5, 4], 9))).toEqual(['c4']);
  // Nothing comes before page 1, nothing after a page that ends the list.
  expect(explained(page([8, 7, 6, 5], 10, 1), page([6, 5, 4, 3], 8, 1))).toEqual(['c3', 'c4']);
  expect(explained(page([8, 7, 6, 5], 10, 3), page([6, 5, 4, 3], 8, 2))).toEqual(['c7', 'c8']);
});

test('with no order known, a call’s place cannot be told: only the count is bounded, by the totals', () => {
  expect(explained(page([8, 7, 6, 5], 10), page([8, 6, 5, 4], 9), 'unknown')).toEqual(['c4', 'c7']);
  expect(explained(page([8, 7, 6, 5], 10), page([8, 6, 5, 4], 10), 'unknown')).toEqual([]);
});
