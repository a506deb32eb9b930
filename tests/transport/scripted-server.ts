// A small HTTP server on loopback whose every answer a test scripts: the misbehaving targets of the
// transport's tests (stalls, resets, cut bodies, huge or compressed bodies, 5xx, 429). It records
// what it received, so a test can see what reached the target and when.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Names and values as sent, names in their letter case. */
  rawHeaders: string[];
  /** performance.now() when the request arrived. */
  at: number;
}

/** Answers the n-th request (from 0); it may answer late, partly, or never. */
export type Script = (request: IncomingMessage, response: ServerResponse, n: number) => void;

export interface ScriptedServer {
  /** The base address, ending in /v3. */
  base: string;
  received: Received[];
  /** Bytes written to response bodies so far, across requests. */
  bytesWritten(): number;
  close(): Promise<void>;
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let written = 0;
  const server = createServer((request, response) => {
    const n = received.length;
    received.push({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      at: performance.now(),
    });
    const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) written += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof response.write;
    request.resume();
    request.on('end', () => script(request, response, n));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`,
    received,
    bytesWritten: () => written,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON answer. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

/** Writes chunks of `chunk` for as long as the client reads them, or until `limit` bytes; one chunk a turn of the event loop. */
export function stream(response: ServerResponse, chunk: Buffer, limit = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const pump = () => {
    if (response.destroyed) return;
    if (sent >= limit) return void response.end();
    sent += chunk.length;
    if (response.write(chunk)) setImmediate(pump);
    else response.once('drain', pump);
  };
  pump();
}
