// A list that only grows, seen to shrink: only where the smaller total was asked more than the
// answers' age after the larger one arrived, so that no old answer is taken for a fall. And a total
// bound by the list's other answers: no smaller than one that arrived more than the age before it was
// asked, no larger than one asked more than the age after it arrived.
import { test, expect } from '@playwright/test';
import { totalSeenToFall, totalWithinGrowth } from '../../core/checks/total-falls.ts';

const AGE_MS = 10_000;

test('a total asked more than MAX_ANSWER_AGE after a larger one arrived is a fall', () => {
  expect(
    totalSeenToFall(
      [
        { start: 0, end: 100, total: 5 },
        { start: 10_101, end: 10_200, total: 4 },
      ],
      AGE_MS,
    ),
  ).toBe(true);
  // The order the answers are given in does not matter.
  expect(
    totalSeenToFall(
      [
        { start: 10_101, end: 10_200, total: 4 },
        { start: 0, end: 100, total: 5 },
      ],
      AGE_MS,
    ),
  ).toBe(true);
});

test('a smaller total asked within MAX_ANSWER_AGE of the larger one’s arrival, or a growing total, is no fall', () => {
  // The later answer may show the store up to the age before it arrived: before the call that made 5.
  expect(
    totalSeenToFall(
      [
        { start: 0, end: 100, total: 5 },
        { start: 10_100, end: 10_200, total: 4 },
      ],
      AGE_MS,
    ),
  ).toBe(false);
  expect(
    totalSeenToFall(
      [
        { start: 0, end: 100, total: 4 },
        { start: 20_000, end: 20_100, total: 5 },
      ],
      AGE_MS,
    ),
  ).toBe(false);
  // Asked before the larger answer arrived: the two overlap, either may be older.
  expect(
    totalSeenToFall(
      [
        { start: 50, end: 30_000, total: 4 },
        { start: 0, end: 100, total: 5 },
      ],
      0,
    ),
  ).toBe(false);
  expect(totalSeenToFall([], AGE_MS)).toBe(false);
});

test('a total is bound by the answers more than MAX_ANSWER_AGE before and after it, and by none closer', () => {
  const seen = [
    { start: 0, end: 100, total: 5 },
    { start: 30_000, end: 30_100, total: 9 },
  ];
  const at = (total: number, start = 15_000) => totalWithinGrowth(seen, { start, end: start + 100, total }, AGE_MS);
  expect([at(5), at(7), at(9)]).toEqual([true, true, true]);
  // Fewer than the list held before it could have been taken, or more than it held after.
  expect([at(4), at(10)]).toEqual([false, false]);
  // Asked within the age of the first's arrival, it may show the store before the first did: unbound below.
  expect(at(3, 10_050)).toBe(true);
  expect(totalWithinGrowth([], { start: 0, end: 100, total: 1 }, AGE_MS)).toBe(true);
});
