// When the traffic outruns the judge, the judging proxy judges whole client connections, a share
// chosen by a rule (passive/proxy/proxy-sampling.ts), and says so; it never drops exchanges
// silently. The rule: each connection's slot is the order it came in, modulo SLOTS; the connections
// of slots under the level are judged; the level halves while the backlog is high and growing, and
// rises one slot at a time once it has drained. The sampled-out exchanges still pass whole, with no
// copy of their bodies kept, and are counted.
import { test, expect } from '@playwright/test';
import { Agent, request } from 'node:http';
import { startJudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';
import { ConnectionSampler, describeSampling, SLOTS } from '../../passive/proxy/proxy-sampling.ts';
import { startOrigin } from './proxy-origin.ts';
import type { Socket } from 'node:net';

const MARKS = { high: 100, highBytes: 2 ** 30, low: 10, riseAfterMs: 1_000 };
const sockets = (count: number) => Array.from({ length: count }, () => ({}) as Socket);

test('connections take their slots in the order they came, and the judged ones are those under the level', () => {
  const sampler = new ConnectionSampler(MARKS);
  const connections = sockets(SLOTS + 2);
  expect(connections.map((socket) => sampler.slotOf(socket))).toEqual([...Array.from({ length: SLOTS }, (_, slot) => slot), 0, 1]);
  // Asked again, a connection keeps its slot.
  expect(sampler.slotOf(connections[3]!)).toBe(3);
  expect(connections.every((socket) => sampler.wants(socket))).toBe(true);
  sampler.adjust(101, 0, 0);
  expect(sampler.share).toBe(8 / SLOTS);
  expect(connections.map((socket) => sampler.wants(socket))).toEqual(connections.map((socket) => sampler.slotOf(socket) < 8));
});

test('the share halves while the backlog is high and growing, holds while it drains, and rises one slot at a time once it is low', () => {
  const sampler = new ConnectionSampler(MARKS);
  sampler.adjust(150, 0, 0);
  sampler.adjust(200, 0, 100);
  expect(sampler.share).toBe(4 / SLOTS);
  // High, but draining at this share: left to drain.
  sampler.adjust(180, 0, 200);
  expect(sampler.share).toBe(4 / SLOTS);
  for (const at of [300, 400, 500]) sampler.adjust(1_000, 0, at);
  expect(sampler.share).toBe(1 / SLOTS);
  // Low: one slot more per riseAfterMs of low backlog.
  sampler.adjust(5, 0, 1_000);
  sampler.adjust(5, 0, 1_500);
  expect(sampler.share).toBe(1 / SLOTS);
  sampler.adjust(5, 0, 2_000);
  expect(sampler.share).toBe(2 / SLOTS);
  sampler.adjust(5, 0, 3_000);
  expect(sampler.share).toBe(3 / SLOTS);
  // Bytes waiting count as much as exchanges.
  sampler.adjust(5, 2 ** 31, 3_100);
  expect(sampler.share).toBe(1 / SLOTS);
});

test('what the reports say: nothing while every exchange was judged, else the share, its count and how it was chosen', () => {
  expect(describeSampling({ judged: 10, sampledOut: 0, lowestLevel: SLOTS, falls: 0 })).toBeUndefined();
  expect(describeSampling({ judged: 25, sampledOut: 75, lowestLevel: 2, falls: 3 })).toBe(
    `judged a share of the traffic: 25.0% (25 of 100 exchanges), by whole client connections: the judge fell behind, so the proxy judged the connections of 2 of ${SLOTS} slots at the least (each connection's slot is the order it came in, modulo ${SLOTS}; the share fell 3 times, and rose again as the judge caught up); the other 75 exchanges passed on unjudged`,
  );
});

test('through the proxy, a sampled-out connection passes whole and reaches no sink, and each of its exchanges is counted', async () => {
  const origin = await startOrigin();
  const seen: PassedExchange[] = [];
  const passed: boolean[] = [];
  // Judges the first connection only.
  let first: Socket | undefined;
  const proxy = await startJudgingProxy({
    target: new URL(origin.base),
    port: 0,
    sinks: [{ add: (exchange) => seen.push(exchange) }],
    sampler: {
      wants: (socket) => (first ??= socket) === socket,
      passed: (judged) => void passed.push(judged),
    },
    bodyTexts: false,
  });
  const get = (agent: Agent) =>
    new Promise<string>((resolve, reject) => {
      request(`${proxy.base}/echo`, { method: 'POST', agent }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(Buffer.concat(chunks).toString()));
      })
        .on('error', reject)
        .end('{"hello": "sampled"}');
    });
  const one = new Agent({ keepAlive: true, maxSockets: 1 });
  const other = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await get(one)).toBe('{"hello": "sampled"}');
    expect(await get(other)).toBe('{"hello": "sampled"}');
    expect(await get(one)).toBe('{"hello": "sampled"}');
    expect(await get(other)).toBe('{"hello": "sampled"}');
  } finally {
    one.destroy();
    other.destroy();
    await proxy.stop(1_000);
    await origin.close();
  }
  expect(passed.sort()).toEqual([false, false, true, true]);
  expect(proxy.counts().exchanges).toBe(4);
  expect(seen).toHaveLength(2);
  // The bytes, and no text: the judging thread makes the texts.
  expect(seen.map((exchange) => exchange.passed.requestBody?.toString())).toEqual(['{"hello": "sampled"}', '{"hello": "sampled"}']);
  expect(seen.every((exchange) => exchange.request.bodyText === undefined && exchange.response.bodyText === undefined)).toBe(true);
});
