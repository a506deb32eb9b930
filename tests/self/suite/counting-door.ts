// Where a deployment counts a rate: at its front door, as each request arrives, before any of its
// work. Here a proxy in a thread of its own, in front of the reference, notes every arrival. Nothing
// else runs in that thread, so the reference's work (and the test's) never delays the count. But on a
// loaded machine the thread itself may wait for a core, and a request that arrived meanwhile is read
// only when it gets one: two cores running two suites have kept it from running for up to 370 ms.
// The door says when that happened. A heartbeat every 5 ms marks each spell it missed, and a request
// read after such a spell is known only to have arrived at some time within it (busiestSecondSeen).
import { Worker } from 'node:worker_threads';

/** When a request arrived, on the door's clock (ms): at `at`, or at some time from `earliest` to `at`. */
export interface Arrival {
  earliest: number;
  at: number;
}

export interface CountingDoor {
  /** The backend's address, through the door (same path). */
  base: string;
  arrivals(): Promise<Arrival[]>;
  close(): Promise<void>;
}

/**
 * Plain JavaScript for the thread. A heartbeat late by more than BLIND_AFTER_MS marks a spell the
 * door did not run. A request read then is one that arrived within it. The heartbeat may be the first
 * to run after the spell (it then marks the spell, for what is read before the next beat) or come
 * after the requests (they then find it overdue).
 */
const DOOR_THREAD = `
const { createServer, request, Agent } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const HEARTBEAT_MS = 5;
const BLIND_AFTER_MS = 20;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);
const arrivals = [];
let lastBeat = performance.now();
let blindFrom = 0;
let blindUntil = -Infinity;
const heartbeat = setInterval(() => {
  const now = performance.now();
  if (now - lastBeat > HEARTBEAT_MS + BLIND_AFTER_MS) {
    blindFrom = lastBeat;
    blindUntil = now + HEARTBEAT_MS;
  }
  lastBeat = now;
}, HEARTBEAT_MS);
const agent = new Agent({ keepAlive: true });
const behind = new URL(workerData.backend);
const server = createServer((incoming, outgoing) => {
  const at = performance.now();
  const earliest = at - lastBeat > HEARTBEAT_MS + BLIND_AFTER_MS ? lastBeat : at < blindUntil ? blindFrom : at;
  arrivals.push({ earliest, at });
  const upstream = request({ host: behind.hostname, port: behind.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent }, (answer) => {
    const headers = [];
    for (let index = 0; index < answer.rawHeaders.length; index += 2) {
      if (!HOP_BY_HOP.has(answer.rawHeaders[index].toLowerCase())) headers.push(answer.rawHeaders[index], answer.rawHeaders[index + 1]);
    }
    outgoing.writeHead(answer.statusCode, headers);
    answer.pipe(outgoing);
  });
  upstream.on('error', () => outgoing.destroy());
  outgoing.on('close', () => upstream.destroy());
  incoming.pipe(upstream);
});
parentPort.on('message', (message) => {
  if (message === 'arrivals') parentPort.postMessage(arrivals);
  if (message === 'close') {
    clearInterval(heartbeat);
    server.closeAllConnections();
    agent.destroy();
    server.close(() => parentPort.close());
  }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/** A counting door in front of the HTTP server at `backend` (`http://127.0.0.1:port/path`). */
export async function startCountingDoor(backend: string): Promise<CountingDoor> {
  const thread = new Worker(DOOR_THREAD, { eval: true, workerData: { backend } });
  const next = <T>() => new Promise<T>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  const port = await next<number>();
  return {
    base: `http://127.0.0.1:${port}${new URL(backend).pathname}`,
    arrivals: () => {
      const answer = next<Arrival[]>();
      thread.postMessage('arrivals');
      return answer;
    },
    close: async () => {
      thread.postMessage('close');
      await new Promise((resolve) => thread.once('exit', resolve));
    },
  };
}
