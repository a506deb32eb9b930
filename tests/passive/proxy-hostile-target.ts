// Targets that misbehave, for the judging proxy's bounds (proxy-bounds.spec.ts, proxy-bombs.spec.ts):
// one that never answers, one that sends its headers and then goes quiet, one that trickles its
// answer slowly but never stops, compressed answers that inflate far past what the proxy keeps
// (gzip, deflate and brotli bombs) or do not inflate at all, a large answer, and an address that
// never completes a connection. Each is a real server on loopback; nothing is mocked.
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants, createDeflate, createGzip, type Gzip } from 'node:zlib';

export interface HostileTarget {
  /** `http://127.0.0.1:port/v3` */
  base: string;
  /** Requests that reached it, as `GET /v3/never`. */
  arrivals: string[];
  close(): Promise<void>;
}

/** `mib` MiB of spaces, compressed as `coding` says: a small answer that inflates to a large one. Built once per kind. */
const bombs = new Map<string, Promise<Buffer>>();
export function bomb(coding: 'gzip' | 'deflate' | 'br', mib: number): Promise<Buffer> {
  const key = `${coding}:${mib}`;
  let built = bombs.get(key);
  if (built === undefined) {
    built =
      coding === 'br'
        ? Promise.resolve(brotliBomb(mib))
        : streamed(coding === 'gzip' ? createGzip({ level: 9 }) : createDeflate({ level: 9 }), mib);
    bombs.set(key, built);
  }
  return built;
}

const brotliBomb = (mib: number) =>
  brotliCompressSync(Buffer.alloc(mib * 2 ** 20, 0x20), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });

/** Compressed a MiB at a time, so that building a 256 MiB bomb never holds 256 MiB. */
function streamed(compressor: Gzip | ReturnType<typeof createDeflate>, mib: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    compressor.on('end', () => resolve(Buffer.concat(chunks)));
    compressor.on('error', reject);
  });
  const spaces = Buffer.alloc(2 ** 20, 0x20);
  for (let index = 0; index < mib; index += 1) compressor.write(spaces);
  compressor.end();
  return done;
}

const query = (url: string | undefined, name: string, fallback: number) =>
  Number(new URL(url ?? '/', 'http://x').searchParams.get(name) ?? fallback);

export async function startHostileTarget(): Promise<HostileTarget> {
  const arrivals: string[] = [];
  const server = createServer((incoming, outgoing: ServerResponse) => {
    incoming.resume();
    const path = (incoming.url ?? '').split('?')[0];
    arrivals.push(`${incoming.method} ${path}`);
    // Never a word: the request is read and the connection held open.
    if (path === '/v3/never') return;
    if (path === '/v3/stall') {
      // The headers and the start of the body, then nothing more.
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      return void outgoing.write('{"data": [');
    }
    if (path === '/v3/trickle') {
      // A piece every `every` ms, `pieces` times: slow, never quiet for long.
      const every = query(incoming.url, 'every', 100);
      let left = query(incoming.url, 'pieces', 10);
      outgoing.writeHead(200, { 'content-type': 'text/plain' });
      const next = () => {
        left -= 1;
        if (left === 0) return void outgoing.end('end\n');
        outgoing.write('piece\n');
        setTimeout(next, every);
      };
      return void setTimeout(next, every);
    }
    if (path === '/v3/calls' || path === '/v3/bomb') {
      // An answer that inflates to `mib` MiB (the list path, so that the judge takes it for List Calls).
      const coding = (new URL(incoming.url ?? '/', 'http://x').searchParams.get('coding') ?? 'gzip') as 'gzip' | 'deflate' | 'br';
      return void bomb(coding, query(incoming.url, 'mib', 256)).then((body) => {
        outgoing.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding, 'content-length': body.length });
        outgoing.end(body);
      });
    }
    if (path === '/v3/corrupt') {
      const body = Buffer.from('this is not gzip at all');
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
      return void outgoing.end(body);
    }
    if (path === '/v3/big') {
      // `bytes` bytes of JSON-ish text at once.
      const body = Buffer.alloc(query(incoming.url, 'bytes', 2 ** 20), 0x20);
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      return void outgoing.end(body);
    }
    const json = JSON.stringify({ ok: true, url: incoming.url });
    outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    outgoing.end(json);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BlackHole {
  /** `http://127.0.0.1:port/v3`: a connection to it is never completed. */
  base: string;
  close(): Promise<void>;
}

/**
 * An address whose connections never complete, on loopback: a listener with a backlog of one on a
 * thread that never accepts (it waits on an Atomics flag), and its queue filled by two connections
 * of ours. The kernel then drops further SYNs, and a connect waits as it would on a dropped route.
 */
export async function startBlackHole(): Promise<BlackHole> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const thread = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const server = require('node:net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       setTimeout(() => { Atomics.wait(workerData, 0, 0); server.close(); }, 20);
     });`,
    { eval: true, workerData: flag },
  );
  const port = await new Promise<number>((resolve) => thread.once('message', resolve));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const fillers = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<Socket>((resolve) => {
          const socket: Socket = connect(port, '127.0.0.1', () => resolve(socket));
        }),
    ),
  );
  return {
    base: `http://127.0.0.1:${port}/v3`,
    close: async () => {
      for (const filler of fillers) filler.destroy();
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      await thread.terminate();
    },
  };
}
