// A reference answering old (createServer's answerAge: reference/answer-age.ts, reference/aged-answers.ts),
// as a deployment behind a lagging read replica or a cache does: real servers on loopback, the living
// clock and the caches' clock both the test's, so that every moment is chosen and nothing sleeps.
import { Agent } from 'node:http';
import { test, expect, sendRaw, SELF_TEST_CALLS, SELF_TEST_SEED } from '../reference-fixtures.ts';
import { createServer } from '../../reference/server.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { sessionIdsOf } from './list-oracle.ts';
import { isLive, withLivingReference, type Shown } from './living-reference.ts';
import { sendChunked } from './raw-http.ts';

const RATE = 5;
const LAG = 10;
const LIST_BEHIND = { list: { mode: 'replica', seconds: LAG } } as const;
/** The newest hundred calls hold every call logged in the last LAG seconds, at a tenth of the checks a full page costs. */
const NEWEST = { perPage: 100 };

test(`a list from a replica ${LAG} s behind lacks the calls logged in the last ${LAG} s, which Get Call, fresh, finds; it is the list of ${LAG} s before, byte for byte`, async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE }, async (fresh) => {
    await withLivingReference(request, { rate: RATE, answerAge: LIST_BEHIND }, async (behind) => {
      behind.at(300);
      const old = await behind.list(NEWEST);
      expect(old.body.meta.pagination.total).toBe(SELF_TEST_CALLS + RATE * (300 - LAG));
      expect((old.body.data as Shown[])[0]!.initiatedAt).toBe(DATA_NOW + 300 - LAG);
      fresh.at(300 - LAG);
      expect(old.text).toBe((await fresh.list(NEWEST)).text);

      // What the replica shows ten seconds on: the calls it lacked at 300.
      behind.at(300 + LAG);
      const later: Shown[] = (await behind.list(NEWEST)).body.data;
      const logged = later.filter((call) => call.initiatedAt > DATA_NOW + 300 - LAG);
      expect(logged).toHaveLength(RATE * LAG);
      const lacked = new Set(sessionIdsOf(logged));
      expect(sessionIdsOf(old.body.data).filter((sessionId) => lacked.has(sessionId))).toEqual([]);
      behind.at(300);
      for (const call of logged) expect((await behind.get(call.sessionId)).status, call.sessionId).toBe(200);
    });
  });
});

test('a replica behind is never behind the beginning: before DATA_NOW + lag it answers the data set as it stood, with no live call', async ({
  request,
}) => {
  await withLivingReference(request, { rate: RATE, answerAge: LIST_BEHIND }, async ({ at, list }) => {
    at(3);
    const answer = await list();
    expect(answer.body.meta.pagination.total).toBe(SELF_TEST_CALLS);
    expect((answer.body.data as Shown[]).some(isLive)).toBe(false);
  });
});

test('a cached list is the same bytes for the same request for its lifetime, then afresh; another query, another acting user, is its own', async ({
  request,
}) => {
  let ms = 0;
  const answerAge = { list: { mode: 'cache', seconds: LAG } } as const;
  await withLivingReference(request, { rate: RATE, answerAge, cacheClock: () => ms }, async ({ at, list, get }) => {
    const totalAt = (seconds: number) => SELF_TEST_CALLS + RATE * seconds;
    at(100);
    const first = await list(NEWEST);
    expect(first.body.meta.pagination.total).toBe(totalAt(100));
    at(105);
    ms = 5_000;
    expect((await list(NEWEST)).text, 'the kept answer').toBe(first.text);
    expect((await list({ perPage: 99 })).body.meta.pagination.total, 'another query is computed now').toBe(totalAt(105));
    expect((await list(NEWEST, 'user-00001')).text, 'another acting user is not given the kept list').not.toBe(first.text);
    const newest: Shown = (await list({ perPage: 1 })).body.data[0];
    expect(newest.initiatedAt).toBe(DATA_NOW + 105);
    expect((await get(newest.sessionId)).status, 'Get Call, not cached, finds a call the kept list lacks').toBe(200);
    ms = 9_999;
    expect((await list(NEWEST)).text).toBe(first.text);
    at(110);
    ms = 10_000;
    expect((await list(NEWEST)).body.meta.pagination.total, 'after its lifetime, afresh').toBe(totalAt(110));
  });
});

test('a cache in front of a faulty server keeps what the faulty server answered: a Get Call that counts views counts only those that reached it', async ({
  request,
}) => {
  let ms = 0;
  const reference = createServer({
    seed: SELF_TEST_SEED,
    calls: SELF_TEST_CALLS,
    fault: findFault('get-counts-views')!,
    answerAge: { get: { mode: 'cache', seconds: LAG } },
    cacheClock: () => ms,
  });
  try {
    const base = await reference.listen(0);
    const views = async () => {
      const answer = await sendRaw(request, `${base}/calls/${reference.store.data.rows[0]!.sessionId}`, {
        headers: { apikey: reference.keys.fullAccess },
      });
      return answer.body.data.metaData[0].views as number;
    };
    expect([await views(), await views()]).toEqual([1, 1]);
    ms = LAG * 1000;
    expect([await views(), await views()]).toEqual([2, 2]);
  } finally {
    await reference.close();
  }
});

test('authentication is judged at every request, before a cache: a bad key, or one a faulty server refuses, is never answered from it', async () => {
  const reference = createServer({
    seed: SELF_TEST_SEED,
    calls: SELF_TEST_CALLS,
    fault: findFault('header-name-case-sensitive')!,
    answerAge: { list: { mode: 'cache', seconds: 600 }, get: { mode: 'cache', seconds: 600 } },
  });
  const agent = new Agent({ keepAlive: false });
  try {
    const base = await reference.listen(0);
    const list = (headers: Record<string, string>) =>
      sendChunked(`${base}/calls?perPage=5`, { method: 'GET', headers, agent, timeoutMs: 10_000 });
    expect((await list({ apikey: reference.keys.fullAccess })).status).toBe(200);
    expect((await list({ apikey: reference.keys.fullAccess })).status).toBe(200);
    expect((await list({ APIKEY: reference.keys.fullAccess })).status, 'the faulty server refuses "APIKEY" now').toBe(401);
    expect((await list({ apikey: 'not-a-key' })).status).toBe(401);
    expect((await list({})).status).toBe(401);
  } finally {
    agent.destroy();
    await reference.close();
  }
});
