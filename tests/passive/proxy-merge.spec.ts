// Several judging proxies behind one load balancer, merged (passive/judge-state.ts): the
// merged verdict is the one a single proxy that saw all the traffic gives. The same exchanges, passed
// through a real proxy in front of the reference, go to one judge whole and to two judges split;
// the split is the worst a load balancer can do to the comparisons across exchanges: every list to
// one proxy, every Get Call to the other. A sum of the two reports would miss what neither saw whole.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { createPassiveJudge, type PassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { MergeError, mergeStates, resultOfState } from '../../passive/judge-state.ts';
import { startJudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';
import type { RecordedExchange } from '../../passive/recorded-exchange.ts';
import { sendRaw } from './proxy-origin.ts';

test.setTimeout(60_000);

const violated = (result: PassiveResult) =>
  [...result.requirements]
    .filter(([, tally]) => tally.violations > 0)
    .map(([id]) => id)
    .sort();

/** Lists of canceled calls and a Get Call of each call they show, through a proxy in front of the reference; each exchange to `whole` and to one of `split` by operation. */
async function trafficThrough(fault: string | undefined, whole: PassiveJudge, split: (exchange: PassedExchange) => PassiveJudge) {
  const reference = createServer({ seed: 7, calls: 300, ...(fault && { fault: findFault(fault) }) });
  const target = await reference.listen(0);
  const sink = {
    add(exchange: PassedExchange) {
      whole.add(exchange);
      split(exchange).add(exchange);
    },
  };
  const proxy = await startJudgingProxy({ target: new URL(target), port: 0, sinks: [sink] });
  try {
    const key = ['apikey', DEMO_KEYS.fullAccess];
    const ids: string[] = [];
    for (const page of [1, 2]) {
      const list = await sendRaw(`${proxy.base}/calls?status=canceled&perPage=10&page=${page}`, 'GET', key);
      ids.push(...(JSON.parse(list.body.toString()) as { data: Array<{ sessionId: string }> }).data.map((call) => call.sessionId));
    }
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect((await sendRaw(`${proxy.base}/calls/${encodeURIComponent(id)}`, 'GET', key)).status).toBe(200);
  } finally {
    await proxy.stop();
    await reference.close();
  }
}

for (const fault of [undefined, 'get-shows-canceled-as-ended']) {
  test(`lists through one proxy, Get Call through another, ${fault ? `fault ${fault}` : 'clean reference'}: the merge finds what one proxy that saw all of it finds, and neither proxy alone does`, async () => {
    const [whole, lists, gets] = [createPassiveJudge(), createPassiveJudge(), createPassiveJudge()];
    await trafficThrough(fault, whole, (exchange) => (exchange.request.url.match(/\/calls\/[^/?]+/) ? gets : lists));
    const one = whole.finish();
    const merged = mergeStates([lists, gets].map((judge) => (judge.finish(), judge.state(['proxy']))));
    const result = resultOfState(merged.state);
    expect(violated(result)).toEqual(violated(one));
    expect(result.exchanges).toBe(one.exchanges);
    expect(result.requirements.get('CALLS-GET-MATCHES-LIST')?.judged).toBe(one.requirements.get('CALLS-GET-MATCHES-LIST')?.judged);
    if (fault) {
      expect(violated(one)).toContain('CALLS-GET-MATCHES-LIST');
      // Neither proxy saw a call both listed and fetched: without the comparison across them, the merge would miss it.
      for (const judge of [lists, gets]) expect(violated(judge.finish())).not.toContain('CALLS-GET-MATCHES-LIST');
      expect(result.requirements.get('CALLS-GET-MATCHES-LIST')!.examples[0]!.related).toHaveLength(1);
    } else expect(violated(one)).toEqual([]);
  });
}

/** A hand-made exchange `at` seconds into the recording. */
function exchange(at: number, url: string, key: string | undefined, status: number, body: unknown): RecordedExchange {
  return {
    source: `hand-made, ${at} s`,
    startedAt: new Date(Date.parse('2026-11-26T00:00:00Z') + at * 1000).toISOString(),
    request: { method: 'GET', url, headers: key === undefined ? [] : [['apikey', key]] },
    response: { status, headers: [['content-type', 'application/json']], bodyText: JSON.stringify(body) },
    durationMs: 10,
  };
}

test('a key called unknown through one proxy and answered through another, and an id shown by one and called unknown by another: the merge finds both, as one judge of all of it does', async () => {
  const reference = createServer({ seed: 7, calls: 50 });
  const target = await reference.listen(0);
  const list = (await sendRaw(`${target}/calls?perPage=3`, 'GET', ['apikey', DEMO_KEYS.fullAccess])).body.toString();
  await reference.close();
  const shownId = (JSON.parse(list) as { data: Array<{ sessionId: string }> }).data[0]!.sessionId;
  const base = 'https://app.call-us.example/v3';
  const traffic: Array<[RecordedExchange, 0 | 1]> = [
    [
      exchange(1, `${base}/calls?perPage=3`, 'key-of-a-deleted-app', 401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'x' } }),
      0,
    ],
    [exchange(2, `${base}/calls?perPage=3`, 'key-of-a-deleted-app', 200, JSON.parse(list)), 1],
    [exchange(4, `${base}/calls/${shownId}`, 'a-good-key', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'x' } }), 0],
  ];
  const whole = createPassiveJudge();
  const split = [createPassiveJudge(), createPassiveJudge()];
  for (const [recorded, to] of traffic) {
    whole.add(recorded);
    split[to]!.add(recorded);
  }
  const one = whole.finish();
  expect(violated(one)).toEqual(['AUTH-INVALID-KEY', 'CALLS-GET-OK']);
  for (const judge of split) expect(violated(judge.finish())).toEqual([]);
  const merged = resultOfState(mergeStates(split.map((judge) => judge.state(['proxy']))).state);
  expect(violated(merged)).toEqual(violated(one));
  // The merge reads the state files, which must not carry a key: keys travel as hashes.
  expect(JSON.stringify(split.map((judge) => judge.state(['proxy'])))).not.toMatch(/key-of-a-deleted-app|a-good-key/);
});

test("one proxy's traffic given twice (an interim and a final report of it, say) is refused, not counted twice", () => {
  const judge = createPassiveJudge();
  const interim = judge.state(['proxy']);
  judge.finish();
  expect(() => mergeStates([interim, judge.state(['proxy'])])).toThrow(MergeError);
  expect(() => mergeStates([interim, judge.state(['proxy'])])).toThrow(/given twice/);
});
