// The comparison of a combination of filters with each filter alone (narrowing-comparison.ts), against
// a scripted list: on pinned ground every list is bounded alike, asked together and compared whole;
// on moving ground the combination is asked first, each filter alone after it, unbounded, and only
// the calls it lacks count. What the report says of the examples follows what was asked.
import { test, expect } from '@playwright/test';
import { boundOf, NarrowingComparison } from '../../core/checks/narrowing-comparison.ts';
import { answerAge } from '../../core/checks/answer-age.ts';
import type { Ground } from '../../core/learning/still-ground.ts';
import type { Query } from '../../core/transport/api.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { exchange, listedCall } from './exchanges.ts';

const PIN = 1000;
const PINNED: Ground = { kind: 'pinned', query: { endedAt: PIN }, describe: `pinned ground at ${PIN}` };
const MOVING: Ground = { kind: 'moving', query: {}, describe: 'no pinned ground' };

/** A List Calls answer to `query` holding calls with these ids, under `total` (all of them by default). */
function page(query: Query, ids: string[], total = ids.length): Exchange {
  const data = ids.map((id) => ({ ...listedCall(), sessionId: id }));
  const answer = exchange('listCalls', 200, {
    data,
    meta: { pagination: { total, count: data.length, per_page: 100, current_page: 1, total_pages: 1 } },
  });
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  return { ...answer, request: { ...answer.request, url: `${answer.request.url}?${search}` } };
}

/** A target answering each list from `answers` (by its filters, the bound left out), recording every query in order. */
function scriptedTarget(answers: Record<string, { ids: string[]; total?: number }>) {
  const asked: Query[] = [];
  const api = {
    listCalls: async (query: Query = {}) => {
      asked.push(query);
      const key = Object.entries(query)
        .filter(([name, value]) => !(name === 'endedAt' && value === PIN))
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('&');
      const answer = answers[key];
      if (!answer) throw new Error(`not scripted: ${key}`);
      return page(query, answer.ids, answer.total);
    },
  };
  return { api, asked };
}

test('lists are bounded by the pin, or by the combination’s own endedAt when no later; never when it asks for calls not yet ended', () => {
  expect(boundOf({ type: 'audio' }, PINNED)).toBe(PIN);
  expect(boundOf({ type: 'audio', endedAt: 900 }, PINNED)).toBe(900);
  expect(boundOf({ type: 'audio', endedAt: PIN }, PINNED)).toBe(PIN);
  expect(boundOf({ type: 'audio', endedAt: 1100 }, PINNED)).toBeUndefined();
  expect(boundOf({ status: 'ongoing' }, PINNED)).toBeUndefined();
  expect(boundOf({ status: 'initiated', type: 'audio' }, PINNED)).toBeUndefined();
  expect(boundOf({ status: 'ended' }, PINNED)).toBe(PIN);
  expect(boundOf({ type: 'audio' }, MOVING)).toBeUndefined();
});

test('on pinned ground the combination and each filter alone are asked together, each bounded by the pin, and a larger total or a call the filter alone lacks fails', async () => {
  const target = scriptedTarget({
    'type=audio&status=ended': { ids: ['a', 'b'] },
    'type=audio': { ids: ['a'] },
    'status=ended': { ids: ['a', 'b', 'c'] },
  });
  const comparison = new NarrowingComparison(target.api, PINNED, answerAge(0));
  const outcome = await comparison.compare({ type: 'audio', status: 'ended' });
  expect(target.asked.slice(0, 3)).toEqual([
    { type: 'audio', status: 'ended', endedAt: PIN },
    { type: 'audio', endedAt: PIN },
    { status: 'ended', endedAt: PIN },
  ]);
  // What it found is taken once more before it is judged (judgeStill), with the same requests.
  expect(target.asked.slice(3)).toEqual(target.asked.slice(0, 3));
  expect(outcome.judged && outcome.violations.map(({ check, title }) => `${check}: ${title}`)).toEqual([
    'and_narrowing_total: type=audio&status=ended has a larger total than type=audio alone',
    'and_narrowing_subset: type=audio&status=ended returned call "b", which type=audio alone does not return',
  ]);
  expect(comparison.describe()).toBe(
    'subsets compared on pinned ground at 1000; 1 example run(s) on that ground, 0 bounded by their own endedAt, 0 on moving ground (a status of calls not yet ended, an endedAt after the pin, or no pin), where each filter alone was asked after the combination and judged only by the calls it lacks',
  );
});

test('a combination bounded by its own endedAt asks every list with it, and passes when each filter alone holds its calls', async () => {
  const target = scriptedTarget({
    // The combination, and type=video alone bounded by the same endedAt: the same list.
    'type=video&endedAt=900': { ids: ['a'] },
    'endedAt=900': { ids: ['a', 'b'] },
  });
  const comparison = new NarrowingComparison(target.api, PINNED, answerAge(0));
  expect(await comparison.compare({ type: 'video', endedAt: 900 })).toEqual({ judged: true, violations: [], retakes: 0 });
  expect(target.asked).toEqual([{ type: 'video', endedAt: 900 }, { type: 'video', endedAt: 900 }, { endedAt: 900 }]);
  expect(comparison.describe()).toContain('0 example run(s) on that ground, 1 bounded by their own endedAt, 0 on moving ground');
});

test('on moving ground each filter alone is asked after the combination, unbounded; its total is not compared, and one larger than its page is counted as not judged', async () => {
  const target = scriptedTarget({
    'type=audio&status=ongoing': { ids: ['a'], total: 1 },
    'type=audio': { ids: ['a'], total: 250 },
    'status=ongoing': { ids: ['a'] },
  });
  const comparison = new NarrowingComparison(target.api, PINNED, answerAge(0));
  expect(await comparison.compare({ type: 'audio', status: 'ongoing' })).toEqual({ judged: true, violations: [], retakes: 0 });
  expect(target.asked).toEqual([{ type: 'audio', status: 'ongoing' }, { type: 'audio' }, { status: 'ongoing' }]);
  expect(comparison.describe()).toContain(
    '0 example run(s) on that ground, 0 bounded by their own endedAt, 1 on moving ground (a status of calls not yet ended, an endedAt after the pin, or no pin), where each filter alone was asked after the combination and judged only by the calls it lacks (1 answer(s) of a filter alone larger than one page could not be judged that way)',
  );
});

test('on moving ground a call the filter alone lacks for good fails, once answers asked in order show it', async () => {
  const target = scriptedTarget({
    'type=audio&mode=call': { ids: ['a', 'b'] },
    'type=audio': { ids: ['a'] },
    'mode=call': { ids: ['a', 'b'] },
  });
  const comparison = new NarrowingComparison(target.api, MOVING, answerAge(0));
  const outcome = await comparison.compare({ type: 'audio', mode: 'call' });
  expect(outcome.judged && outcome.violations.map(({ received }) => received)).toEqual(['call "b"']);
  expect(target.asked.slice(0, 3)).toEqual([{ type: 'audio', mode: 'call' }, { type: 'audio' }, { mode: 'call' }]);
  expect(target.asked.every((query) => query.endedAt === undefined)).toBe(true);
});
