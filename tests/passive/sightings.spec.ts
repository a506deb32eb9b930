// What the passive judge keeps of an exchange (passive/sightings.ts's slim) costs what it holds: the
// first 2,000 characters of a body, never the body they were cut from. A slice of a V8 string can be
// a view that keeps its whole parent alive, and the judge keeps up to 5,000 calls each with its page:
// on the suite's recorded traffic such views held most of the judge's live heap.
import { test, expect } from '@playwright/test';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { slim } from '../../passive/sightings.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapUsed = () => {
  collectGarbage();
  return getHeapStatistics().used_heap_size;
};

/** An exchange whose body is a page of `characters` characters made at run time (a flat string, as a parser makes it). */
function exchangeOf(characters: number, seed: number): Exchange {
  const text = `{"data":[${Array.from({ length: characters / 10 }, (_, index) => `"${((index * 7919 + seed) % 99_991).toString(36).padStart(6, '0')}",`).join('')}""]}`;
  return {
    operation: 'listCalls',
    request: { method: 'GET', url: 'http://calls.example/v3/calls', headers: {} },
    response: { status: 200, headers: {}, body: undefined, text, isJson: true },
    durationMs: 1,
  };
}

test('a slim copy holds the cut text only: 40 pages of 1 MB kept slim cost far less than one page', () => {
  const before = heapUsed();
  // Each page is gone once its slim copy is made: only what the copy holds of it stays.
  const kept = Array.from({ length: 40 }, (_, seed) => slim(exchangeOf(1_000_000, seed)));
  expect(heapUsed() - before).toBeLessThan(1_000_000);
  expect(kept[0]!.response.text).toMatch(/^\{"data":\[.{1990,}… \(\d+ characters\)$/s);
  expect(kept[0]!.response.text.length).toBeLessThan(2_100);
});

test('every call of a page is kept with one slim copy of it', () => {
  const page = exchangeOf(10_000, 1);
  expect(slim(page)).toBe(slim(page));
  expect(slim(page).response.body).toBeUndefined();
});
