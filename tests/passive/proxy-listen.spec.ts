// Where the judging proxy listens (proxy-listen.ts): on Linux, on LISTENING_SOCKETS sockets sharing
// its port, so that one turn of its event loop accepts up to that many waiting clients instead of one;
// and a port already in use is still refused, whoever holds it, so that two proxies never silently
// share one port. The turn is observed, not timed: the clients connect while this thread's loop is
// held, the kernel completes their connections into the sockets' queues, and the queues are read
// from /proc/net/tcp after exactly one turn.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { startJudgingProxy } from '../../passive/proxy/proxy.ts';
import { LISTENING_SOCKETS, listenShared, type Listening } from '../../passive/proxy/proxy-listen.ts';
import { freeLoopbackPort } from '../runner/run-suite.ts';
import { startOrigin } from './proxy-origin.ts';

const onLinux = process.platform === 'linux';

/** The loopback sockets listening on `port`, and the connections waiting in their queues (/proc/net/tcp's rx_queue of a listening socket). */
function listeningOn(port: number): { sockets: number; waiting: number } {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let sockets = 0;
  let waiting = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local_address, state 0A (LISTEN), tx_queue:rx_queue
    if (fields[1]?.endsWith(hexPort) !== true || fields[3] !== '0A') continue;
    sockets += 1;
    waiting += Number.parseInt(fields[4]!.split(':')[1]!, 16);
  }
  return { sockets, waiting };
}

/**
 * `clients` connections made while this thread's loop is held, so that all of them wait in the
 * kernel's queues; then how many the listener accepted in the loop's next turn (or two).
 */
async function acceptedInOneTurn(port: number, clients: number): Promise<number> {
  const sockets: Socket[] = [];
  for (let index = 0; index < clients; index += 1) sockets.push(connect({ host: '127.0.0.1', port }).on('error', () => undefined));
  // Node connects on the next tick, before the loop turns: after them, and still within this turn.
  await new Promise((resolve) => process.nextTick(resolve));
  // Held until every connection is complete and queued (loopback: at once, but never assumed).
  const until = Date.now() + 5_000;
  while (listeningOn(port).waiting < clients && Date.now() < until);
  expect(listeningOn(port).waiting, 'every connection queued while the loop was held').toBe(clients);
  // The check phase of this turn, then that of the next: one polling of the sockets between them
  // (two, if this code runs before this turn's polling).
  const waitingAfter = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(listeningOn(port).waiting))));
  for (const socket of sockets) socket.destroy();
  return clients - waitingAfter;
}

test.describe('the sockets the judging proxy listens on', () => {
  test.skip(!onLinux, 'SO_REUSEPORT spreads connections on Linux only; elsewhere the proxy listens on one socket');

  test('the proxy listens on LISTENING_SOCKETS sockets of one port, and one turn of its loop accepts many waiting clients where one socket accepts one', async () => {
    const origin = await startOrigin();
    const proxy = await startJudgingProxy({ target: new URL(origin.base), port: 0, sinks: [] });
    const alone: Listening = await listenShared(0, '127.0.0.1', (socket) => socket.destroy(), 1);
    try {
      const port = Number(new URL(proxy.address).port);
      expect(LISTENING_SOCKETS).toBe(64);
      expect(listeningOn(port).sockets).toBe(LISTENING_SOCKETS);
      // 200 clients over 64 sockets leave about 61 of them with a client waiting: each accepts one a turn.
      expect(await acceptedInOneTurn(port, 200)).toBeGreaterThanOrEqual(32);
      // The same measure on one socket: one a turn, the stall the shared sockets remove.
      expect(listeningOn(alone.port).sockets).toBe(1);
      expect(await acceptedInOneTurn(alone.port, 200)).toBeLessThanOrEqual(2);
    } finally {
      alone.close();
      await proxy.stop(1_000);
      await origin.close();
    }
  });

  test('every client of a proxy listening on shared sockets is served, whichever socket took it', async () => {
    const origin = await startOrigin();
    const proxy = await startJudgingProxy({ target: new URL(origin.base), port: 0, sinks: [] });
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, () => fetch(`${proxy.base}/echo`, { method: 'POST', body: 'x' }).then((r) => r.status)),
      );
      expect(answers.filter((status) => status === 200)).toHaveLength(300);
      expect(origin.arrivals).toHaveLength(300);
      expect((await proxy.stop(1_000)).exchanges).toBe(300);
    } finally {
      await proxy.stop(1_000);
      await origin.close();
    }
  });

  test('a port another program listens on is refused, also when that program shares it (a second proxy on the same port)', async () => {
    const origin = await startOrigin();
    const port = await freeLoopbackPort();
    const first = await startJudgingProxy({ target: new URL(origin.base), port, sinks: [] });
    const plain = createServer();
    try {
      await expect(startJudgingProxy({ target: new URL(origin.base), port, sinks: [] })).rejects.toThrow(/EADDRINUSE/);
      expect(listeningOn(port).sockets, 'the first proxy keeps its sockets, and no more joined them').toBe(LISTENING_SOCKETS);
      const plainPort = await freeLoopbackPort();
      await new Promise<void>((resolve) => plain.listen(plainPort, '127.0.0.1', resolve));
      await expect(startJudgingProxy({ target: new URL(origin.base), port: plainPort, sinks: [] })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      plain.close();
      await first.stop(1_000);
      await origin.close();
    }
  });
});
