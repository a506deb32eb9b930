// A kept-alive connection that the target has closed, or is about to close, is never written to: a
// request sent on it would meet a reset instead of the target, be retried after a backoff, and be
// counted as a request the target never received. The target here runs in a thread of its own, as a
// remote one would, so that its keep-alive timer fires while the suite's worker is busy.
import { test, expect } from '@playwright/test';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../../core/run/config.ts';
import { directWire } from '../../core/transport/wire.ts';
import { secretPlaceholders, Transport } from '../../core/transport/transport.ts';
import { InFlightLimit } from '../../core/transport/in-flight.ts';
import { DEFAULT_IDLE_LIMIT_MS, idleLimitMs } from '../../core/transport/idle-sockets.ts';

/**
 * Plain JavaScript for the thread: a server that keeps idle connections `keepAliveMs` and says so,
 * and counts what reaches it. `?announce=N` announces N seconds instead; `?delay=MS` answers late.
 */
const TARGET_THREAD = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
let connections = 0;
let requests = 0;
const server = createServer((request, response) => {
  requests += 1;
  const query = new URL(request.url, 'http://target').searchParams;
  const headers = { 'content-type': 'application/json', ...(query.has('announce') && { 'keep-alive': 'timeout=' + query.get('announce') }) };
  request.resume();
  request.on('end', () => setTimeout(() => response.writeHead(200, headers).end('{"data":[]}'), Number(query.get('delay') ?? 0)));
});
server.keepAliveTimeout = workerData.keepAliveMs;
server.on('connection', () => { connections += 1; });
parentPort.on('message', (message) => {
  if (message === 'count') parentPort.postMessage({ connections, requests });
  if (message === 'close') { server.closeAllConnections(); server.close(() => parentPort.close()); }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

interface Seen {
  connections: number;
  requests: number;
}

async function targetInThread(keepAliveMs: number) {
  const thread = new Worker(TARGET_THREAD, { eval: true, workerData: { keepAliveMs } });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
  const { port } = await next<{ port: number }>();
  return {
    base: `http://127.0.0.1:${port}/v3`,
    seen: () => {
      const answer = next<Seen>();
      thread.postMessage('count');
      return answer;
    },
    close: async () => {
      thread.postMessage('close');
      await new Promise((resolve) => thread.once('exit', resolve));
    },
  };
}

function transportTo(base: string) {
  const config = loadConfig({ CALLS_BASE_URL: base, CHAT_BASE_URL: base, API_KEY: 'idle-connections-key', REQUEST_TIMEOUT_MS: '2000' });
  const wire = directWire(secretPlaceholders(config), { maxBodyBytes: config.maxBodyBytes, timeoutMs: config.requestTimeoutMs }, 8);
  const transport = new Transport(wire, { config, inFlight: new InFlightLimit(2) });
  return {
    get: (query = '') => transport.send({ method: 'GET', url: `${base}/calls${query}`, headers: { apikey: '$API_KEY' } }),
    close: () => wire.close(),
  };
}

/** A target in its own thread keeping idle connections `keepAliveMs`, and the suite's transport to it, while `body` runs. */
async function withTargetInThread(
  keepAliveMs: number,
  body: (target: { get(query?: string): ReturnType<Transport['send']>; seen(): Promise<Seen> }) => Promise<void>,
): Promise<void> {
  const target = await targetInThread(keepAliveMs);
  const client = transportTo(target.base);
  try {
    await body({ get: client.get, seen: target.seen });
  } finally {
    await client.close();
    await target.close();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds the worker's event loop, as judging a large answer does on a loaded machine: no timer, no socket event runs meanwhile. */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('how long a connection may idle: a second short of what the server announces, 4 s when it announces nothing', () => {
  expect(idleLimitMs('timeout=5')).toBe(4_000);
  expect(idleLimitMs('timeout=60, max=1000')).toBe(59_000);
  expect(idleLimitMs('max=100; Timeout=2')).toBe(1_000);
  expect(idleLimitMs('timeout=1')).toBe(0);
  expect(idleLimitMs('max=100')).toBe(DEFAULT_IDLE_LIMIT_MS);
  expect(idleLimitMs(undefined)).toBe(DEFAULT_IDLE_LIMIT_MS);
});

test('a connection is used again while the target keeps it, and not once it has idled to a second short of the announced timeout', () =>
  withTargetInThread(2_000, async ({ get, seen }) => {
    await get();
    await pause(300);
    await get();
    expect(await seen(), "the second request took the first one's connection").toEqual({ connections: 1, requests: 2 });
    // 1.2 s idle: the target would still keep it for 0.8 s, but a request written now could cross its closing.
    await pause(1_200);
    await get();
    expect(await seen()).toEqual({ connections: 2, requests: 3 });
  }));

test("a worker busy past the target's keep-alive timeout sends its next request on a new connection: one request sent, one received, no retry", () =>
  withTargetInThread(2_000, async ({ get, seen }) => {
    await get();
    await pause(50);
    // The target closes the connection at 2 s; the worker, busy until 3.5 s, has not yet seen it close.
    busyFor(3_500);
    expect(await get()).toMatchObject({ status: 200, attempts: 1 });
    expect(await seen()).toEqual({ connections: 2, requests: 2 });
  }));

// The server itself keeps connections 30 s; each answer announces its own timeout.
test('a stale connection closes with every one freed before it, so the connection handed out next is open, whatever each announced', () =>
  withTargetInThread(30_000, async ({ get, seen }) => {
    // Two connections: the first freed announced 10 s, the one freed after it 2 s.
    await Promise.all([get('?announce=10'), get('?announce=2&delay=150')]);
    expect(await seen()).toEqual({ connections: 2, requests: 2 });
    // 1.2 s on, the later one is stale and the earlier one is not. The agent hands out the last freed
    // first, and skips closed ones only at the front: closing the stale one alone would hand it out closed.
    await pause(1_200);
    expect(await get()).toMatchObject({ status: 200, attempts: 1 });
    expect(await seen()).toEqual({ connections: 3, requests: 3 });
  }));
