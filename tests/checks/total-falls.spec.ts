// A list that only grows, seen to shrink: only where the smaller total was asked more than the
// answers' age after the larger one arrived, so that no old answer is taken for a fall.
import { test, expect } from '@playwright/test';
import { totalSeenToFall } from '../../core/checks/total-falls.ts';

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
