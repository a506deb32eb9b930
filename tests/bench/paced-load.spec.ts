// The benchmark's paced load (tests/bench/paced-load.ts): clients sending at random moments, each
// answer's latency counted from when its request was due, so that a server that falls behind shows
// in the latencies instead of slowing the clients down (no coordinated omission). And the judge's
// speed measured on a thread with the proxy's limits answers with what it measured.
import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { arrivals, pacedLoad } from './paced-load.ts';
import { measureJudgeSpeedOnThread } from './judge-speed.ts';

/** A seeded source of numbers in [0, 1): the same arrivals every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

test('arrivals at 4 a second over 100 s: about 400, in order, all within the time', () => {
  const moments = arrivals(4, 100, seeded(7));
  expect(moments.length).toBeGreaterThan(340);
  expect(moments.length).toBeLessThan(460);
  expect(moments.every((moment, index) => index === 0 || moment > moments[index - 1]!)).toBe(true);
  expect(moments.every((moment) => moment >= 0 && moment < 100_000)).toBe(true);
});

test("a server slower than the arrivals: each latency counts the wait for the connection's earlier answers, not only the server's 100 ms", async () => {
  const server = createServer((_request, response) => void setTimeout(() => response.end('{}'), 100));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // 20 a second on one connection for 1 s, each answered in 100 ms: 2 s of answers for 1 s of arrivals.
    const load = await pacedLoad({
      url: `http://127.0.0.1:${port}/`,
      headers: {},
      connections: 1,
      rate: 20,
      seconds: 1,
      random: seeded(3),
    });
    expect(load.sent).toBeGreaterThan(8);
    expect(load.errors).toBe(0);
    expect(load.latencies).toHaveLength(load.sent);
    expect(Math.min(...load.latencies)).toBeGreaterThanOrEqual(99);
    // The last requests waited for the ones before them: far more than one answer's 100 ms.
    expect(load.maxMs).toBeGreaterThan(400);
  } finally {
    server.close();
  }
});

test("the judge's speed on a thread with the proxy's limits: every page judged, none found wrong", async () => {
  test.setTimeout(60_000);
  const speed = await measureJudgeSpeedOnThread(50, 10);
  expect(speed.pages).toBe(50);
  expect(speed.exchanges).toBe(60);
  expect(speed.violations).toBe(0);
  expect(speed.pagesPerCpuSecond).toBeGreaterThan(0);
});
