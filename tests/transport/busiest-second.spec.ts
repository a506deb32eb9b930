// The rate tests' judge: the most arrivals within any one second, and the most certainly within one
// when some arrivals are known only to lie within a span the counting door could not see.
import { test, expect } from '@playwright/test';
import { busiestSecond, busiestSecondAt, busiestSecondSeen } from './busiest-second.ts';

const known = (at: number) => ({ earliest: at, at });

test('a second is half-open: arrivals 1000 ms apart are never in the same one', () => {
  expect(busiestSecond([0, 999, 1000, 1999])).toBe(2);
  expect(busiestSecond([1000, 5, 0, 500, 999])).toBe(4);
  expect(busiestSecond([1000, 5, 0, 500, 999, 1004])).toBe(5);
  expect(busiestSecond([])).toBe(0);
});

test('arrivals known to the millisecond are judged as busiestSecond judges their times', () => {
  const times = Array.from({ length: 200 }, (_, index) => ((index * 37) % 2_900) + (index % 7) * 0.5);
  expect(busiestSecondSeen(times.map(known))).toBe(busiestSecond(times));
});

test('an arrival known only within a span counts for a second only when the whole span lies in it', () => {
  // Ten read at 1050 ms after a spell from 900 ms the door did not see: any of them may have come
  // before 1000 ms, so none is certainly in the second from 1000 ms, and all are in the one from 900 ms.
  const late = Array.from({ length: 10 }, () => ({ earliest: 900, at: 1050 }));
  const prompt = [1000, 1100, 1200, 1900, 1950].map(known);
  expect(busiestSecondSeen([...late, ...prompt])).toBe(13);
  expect(busiestSecond([...late, ...prompt].map(({ at }) => at))).toBe(15);
  // A spell wider than a second holds nothing certain.
  expect(busiestSecondSeen([{ earliest: 0, at: 1500 }])).toBe(0);
});

test("a failure's message names the busiest second and each arrival it counted, as busiestSecondSeen counts them", () => {
  const late = Array.from({ length: 2 }, () => ({ earliest: 900, at: 1050 }));
  const prompt = [1000, 1100, 1200, 1900, 1950].map(known);
  expect(busiestSecondAt([...late, ...prompt])).toBe(
    `${busiestSecondSeen([...late, ...prompt])} in the second from 1970-01-01T00:00:00.900Z (ms after it): +0..150, +0..150, +100, +200, +300`,
  );
});
