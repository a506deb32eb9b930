// Every byte of an answer reaches the client, and the judge's copy of it, as the target sent it,
// however the answer is cut into reads: many small pieces on later turns of the target's loop, while
// the client leaves them unread (the proxy's writes to it wait, and it stops reading the target), several
// answers on as many connections at once, chunked or not, and a head that arrives in three pieces
// 30 ms apart. Each body is pseudo-random bytes, compared by digest, so that a piece lost, doubled,
// reordered or overwritten shows up as wrong bytes, not only as a wrong length.
// (An experiment that read each connection to the target into one reused buffer, to spare the
// collector, was checked by these tests, and measured no faster and no smaller: docs/passive-proxy.md.)
import { test, expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { startJudgingProxy, type JudgingProxy, type PassedExchange } from '../../passive/proxy/proxy.ts';

/** Bytes of a stream of pseudo-random numbers (xorshift32) from `seed`: no two blocks alike. */
function varied(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let state = seed >>> 0 || 1;
  for (let at = 0; at < length; at += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[at] = state & 0xff;
  }
  return bytes;
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A target on raw TCP, so that how its answers are cut into writes is ours: `/varied/N/SEED` answers
 * N varied bytes in writes of 0.5 to 12 KiB; `/split-head/N/SEED` sends its head in three writes 30 ms
 * apart, then the body; `/chunked/N/SEED` sends the body as chunks of 1 to 20 KiB.
 */
async function startTarget(): Promise<{ base: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    // One answer at a time per connection, in order (pipelined requests get theirs in turn); the
    // connections' answers go on side by side.
    let queue = Promise.resolve();
    const answerInTurn = (kind: string, size: number, seed: number) => (queue = queue.then(() => answer(socket, kind, size, seed)));
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n\r\n')) !== -1) {
        const [, kind, size, seed] = /^GET \/(\w[\w-]*)\/(\d+)\/(\d+) /.exec(pending) ?? [];
        pending = pending.slice(end + 4);
        void answerInTurn(kind ?? '', Number(size), Number(seed));
      }
    });
  });
  const answer = async (socket: Socket, kind: string, size: number, seed: number) => {
    const body = varied(size, seed);
    if (kind === 'chunked') {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n');
      for (let at = 0, step = 1; at < body.length; at += step, step = ((step * 7919) % 20_480) + 1) {
        const piece = body.subarray(at, at + step);
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        socket.write('\r\n');
      }
      socket.write('0\r\n\r\n');
      return;
    }
    const head = `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nX-Filler: ${'f'.repeat(200)}\r\nContent-Length: ${size}\r\n\r\n`;
    if (kind === 'split-head') {
      for (const part of [head.slice(0, 20), head.slice(20, 120), head.slice(120)]) {
        socket.write(part);
        await pause(30);
      }
      socket.write(body);
      return;
    }
    socket.write(head);
    // Pieces smaller than a socket's high-water mark, each on a later turn of the target's loop, so
    // that the proxy reads them one by one, and each of its writes to a client that is not reading waits.
    for (let at = 0, step = 1_000; at < body.length; at += step, step = ((step * 7919) % 12_288) + 512) {
      socket.write(body.subarray(at, at + step));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** GETs `path` through the proxy, leaving the answer unread for `holdMs` first; the body as it came. */
function slowGet(base: string, path: string, holdMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sent = request(`${base}${path}`, (answer: IncomingMessage) => {
      answer.pause();
      const chunks: Buffer[] = [];
      setTimeout(() => {
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve(Buffer.concat(chunks)));
        answer.resume();
      }, holdMs);
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

let target: Awaited<ReturnType<typeof startTarget>>;
let proxy: JudgingProxy;
let seen: PassedExchange[];

test.beforeEach(async () => {
  target = await startTarget();
  seen = [];
  proxy = await startJudgingProxy({ target: new URL(target.base), port: 0, sinks: [{ add: (exchange) => seen.push(exchange) }] });
});

test.afterEach(async () => {
  await proxy.stop(1_000);
  await target.close();
});

test('a client that leaves 8 MiB unread while the target sends it: every byte reaches it as the target sent it, and the copy judged is the same', async () => {
  const size = 8 * 2 ** 20;
  const expected = digest(varied(size, 7));
  // Unread for half a second: the kernel's buffers fill, and the proxy's writes to the client wait.
  const body = await slowGet(proxy.base, `/varied/${size}/7`, 500);
  expect(body.length).toBe(size);
  expect(digest(body)).toBe(expected);
  await expect.poll(() => seen.length).toBe(1);
  expect(digest(seen[0]!.passed.responseBody!)).toBe(expected);
});

test('answers of many pieces, chunked or not, read at once and slowly: each reaches the client and the judge byte for byte', async () => {
  const cases = [
    { path: '/varied/3000000/11', size: 3_000_000, seed: 11, holdMs: 0 },
    { path: '/chunked/2000000/12', size: 2_000_000, seed: 12, holdMs: 300 },
    { path: '/varied/700000/13', size: 700_000, seed: 13, holdMs: 300 },
    { path: '/chunked/500000/14', size: 500_000, seed: 14, holdMs: 0 },
  ];
  // At once, on connections of their own, so that the proxy's reads of the four interleave.
  const bodies = await Promise.all(cases.map(({ path, holdMs }) => slowGet(proxy.base, path, holdMs)));
  for (const [index, { size, seed }] of cases.entries())
    expect(digest(bodies[index]!), cases[index]!.path).toBe(digest(varied(size, seed)));
  await expect.poll(() => seen.length).toBe(cases.length);
  for (const exchange of seen) {
    const [, , size, seed] = new URL(exchange.request.url).pathname.split('/');
    expect(digest(exchange.passed.responseBody!), exchange.request.url).toBe(digest(varied(Number(size), Number(seed))));
  }
});

test('a head that arrives in three pieces is kept whole while the rest comes, and the answer passes as sent', async () => {
  const body = await slowGet(proxy.base, '/split-head/200000/21', 0);
  expect(digest(body)).toBe(digest(varied(200_000, 21)));
  await expect.poll(() => seen.length).toBe(1);
  expect(seen[0]!.response.status).toBe(200);
  expect(seen[0]!.response.headers).toContainEqual(['X-Filler', 'f'.repeat(200)]);
  expect(digest(seen[0]!.passed.responseBody!)).toBe(digest(varied(200_000, 21)));
});
