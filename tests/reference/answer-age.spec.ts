// How old the reference's answers may be (reference/answer-age.ts): the text form the command line
// and REFERENCE_ANSWER_AGE take, and the cache that keeps answers (reference/aged-answers.ts), on a
// clock the test steps. Real servers answering old: ./old-answers.spec.ts.
import { test, expect } from '@playwright/test';
import { describeAnswerAge, formatAnswerAge, MAX_ANSWER_AGE_SECONDS, parseAnswerAge, type AnswerAges } from '../../reference/answer-age.ts';
import { AnswerCache, createAnswerAging, type CachedRequest } from '../../reference/aged-answers.ts';
import type { Answer } from '../../reference/faults/fault.ts';

test('--answer-age and REFERENCE_ANSWER_AGE spell list=MODE:SECONDS and get=MODE:SECONDS, either alone, each once, in whole seconds up to 600', () => {
  expect(parseAnswerAge('list=cache:10,get=replica:5')).toEqual({
    list: { mode: 'cache', seconds: 10 },
    get: { mode: 'replica', seconds: 5 },
  });
  expect(parseAnswerAge('get=replica:5, list=cache:10')).toEqual(parseAnswerAge('list=cache:10,get=replica:5'));
  expect(parseAnswerAge('list=replica:0')).toEqual({ list: { mode: 'replica', seconds: 0 } });
  expect(parseAnswerAge(`get=cache:${MAX_ANSWER_AGE_SECONDS}`)).toEqual({ get: { mode: 'cache', seconds: 600 } });
  for (const refused of [
    '',
    'list',
    'list=cache',
    'list=cache:',
    'list=cache:10,',
    'list=cache:10,list=replica:5',
    'list=lagging:10',
    'mark=cache:10',
    'List=cache:10',
    'list=cache:601',
    'list=cache:-1',
    'list=cache:2.5',
    'list=cache:10s',
    'list:cache=10',
  ]) {
    expect(parseAnswerAge(refused), refused).toBeUndefined();
  }
});

test('the ages are written back list first, as the command line reads them, and worded for the start-up line and the matrix labels', () => {
  const ages: AnswerAges = { get: { mode: 'replica', seconds: 5 }, list: { mode: 'cache', seconds: 10 } };
  expect(formatAnswerAge(ages)).toBe('list=cache:10,get=replica:5');
  expect(parseAnswerAge(formatAnswerAge(ages))).toEqual(ages);
  expect(describeAnswerAge(ages)).toBe('lists cached 10 s, Get Call 5 s behind');
  expect(describeAnswerAge({ list: { mode: 'replica', seconds: 30 } })).toBe('lists 30 s behind');
  expect(describeAnswerAge({ get: { mode: 'cache', seconds: 1 } })).toBe('Get Call cached 1 s');
});

const request = (target: string, headers: CachedRequest['headers'] = { apikey: 'key' }): CachedRequest => ({
  method: 'GET',
  target,
  headers,
});
const ok = (text: string): Answer => ({ status: 200, body: JSON.parse(text) as unknown });

/** A cache on a clock the test sets, and an origin that counts what it computed. */
function cacheOnAClock(lifetimeMs: number, bounds?: { answers: number; bytes: number }) {
  const clock = { now: 0 };
  const cache = new AnswerCache(lifetimeMs, () => clock.now, bounds);
  let computed = 0;
  const ask = (target: string, answer: Answer = ok(`{"n":${computed + 1}}`), headers?: CachedRequest['headers']) =>
    cache.answer(request(target, headers), async () => {
      computed += 1;
      return answer;
    });
  return { clock, cache, ask, computed: () => computed };
}

test('a cache gives the same request its first answer, the same status and bytes, for its lifetime, then computes afresh', async () => {
  const { clock, ask, computed } = cacheOnAClock(10_000);
  const first = await ask('/v3/calls?page=1');
  clock.now = 9_999;
  const again = await ask('/v3/calls?page=1');
  expect(again.status).toBe(200);
  expect(again.raw?.text).toBe('{"n":1}');
  expect(again.raw?.text).toBe(JSON.stringify(first.body));
  expect(computed()).toBe(1);
  clock.now = 10_000;
  expect((await ask('/v3/calls?page=1')).body).toEqual({ n: 2 });
  clock.now = 19_999;
  expect((await ask('/v3/calls?page=1')).raw?.text).toBe('{"n":2}');
  expect(computed()).toBe(2);
});

test('a cache tells requests apart by their target and query, key and acting user, and keeps no error', async () => {
  const { ask, computed } = cacheOnAClock(10_000);
  await ask('/v3/calls?page=1');
  await ask('/v3/calls?page=2');
  await ask('/v3/calls?page=1&perPage=100');
  await ask('/v3/calls?page=1', undefined, { apikey: 'other-key' });
  await ask('/v3/calls?page=1', undefined, { apikey: 'key', onbehalfof: 'user-00001' });
  await ask('/v3/calls?page=1', undefined, {});
  expect(computed()).toBe(6);
  await ask('/v3/calls/unknown', { status: 404, body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } } });
  const retried = await ask('/v3/calls/unknown', { status: 404, body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } } });
  expect(retried.raw, 'an error is computed each time, never kept').toBeUndefined();
  expect(computed()).toBe(8);
});

test('a cache keeps at most its bound of answers and of bytes, forgetting the oldest first, and nothing with a lifetime of 0', async () => {
  const { clock, cache, ask, computed } = cacheOnAClock(60_000, { answers: 3, bytes: 40 });
  for (const page of [1, 2, 3, 4]) {
    clock.now = page;
    await ask(`/v3/calls?page=${page}`);
  }
  expect(cache.size).toBe(3);
  await ask('/v3/calls?page=1');
  expect(computed(), 'the oldest was forgotten').toBe(5);
  await ask('/v3/calls?page=big', ok(JSON.stringify({ text: 'x'.repeat(50) })));
  expect(cache.size, 'an answer over the bound of bytes is not kept').toBe(3);
  await ask('/v3/calls?page=mid', ok(JSON.stringify({ text: 'x'.repeat(20) })));
  expect(cache.size, 'kept bytes stay within the bound: the two oldest go').toBe(2);

  const none = cacheOnAClock(0);
  await none.ask('/v3/calls');
  await none.ask('/v3/calls');
  expect(none.computed()).toBe(2);
  expect(none.cache.size).toBe(0);
});

test('mark-unread, the one write, is never answered old, nor an operation the ages do not name; bad ages are refused', async () => {
  const aging = createAnswerAging({ list: { mode: 'cache', seconds: 60 }, get: { mode: 'replica', seconds: 5 } }, () => 0);
  expect([aging.behind('listCalls'), aging.behind('getCall'), aging.behind('markGroupConversationAsUnread')]).toEqual([0, 5, 0]);
  let computed = 0;
  const compute = async (): Promise<Answer> => ({ status: 200, body: { n: (computed += 1) } });
  const unread = request('/v3/groups/group-0001/conversation/read');
  await aging.answer('markGroupConversationAsUnread', { ...unread, method: 'DELETE' }, compute);
  await aging.answer('markGroupConversationAsUnread', { ...unread, method: 'DELETE' }, compute);
  await aging.answer('getCall', request('/v3/calls/a'), compute);
  await aging.answer('getCall', request('/v3/calls/a'), compute);
  await aging.answer('listCalls', request('/v3/calls'), compute);
  await aging.answer('listCalls', request('/v3/calls'), compute);
  expect(computed, 'only the cached list was answered from the cache').toBe(5);
  expect(() => createAnswerAging({ list: { mode: 'cache', seconds: 601 } })).toThrow(RangeError);
  expect(() => createAnswerAging({ get: { mode: 'lagging' as 'cache', seconds: 5 } })).toThrow(/answerAge must be/);
});
