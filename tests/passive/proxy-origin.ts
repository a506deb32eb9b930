// A target for the judging proxy's tests that answers in every way HTTP allows a target to: bodies
// binary and chunked, compressed, empty, cut off half-way, odd status texts, repeated headers. It
// records each request as it arrived (headers as sent, body bytes), so that a test can compare what
// reached it directly with what reached it through the proxy, and a raw client reads answers as bytes.
import { createServer, request, Agent, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

interface Arrival {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

export interface Origin {
  /** `http://127.0.0.1:port/v3` */
  base: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** A fixed date, so that an answer is the same bytes whenever it is sent. */
const DATE = 'Thu, 26 Nov 2026 00:00:00 GMT';
export const BINARY = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte));
export const GZIPPED_JSON = { data: [{ sessionId: 'v1.us.gz', type: 'audio' }], note: 'é ✓' };

export async function startOrigin(): Promise<Origin> {
  const arrivals: Arrival[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      arrivals.push({ method: incoming.method ?? '', url: incoming.url ?? '', rawHeaders: incoming.rawHeaders, body });
      const path = (incoming.url ?? '').split('?')[0];
      outgoing.setHeader('Date', DATE);
      if (path === '/v3/echo') {
        // Repeated headers, in a letter case of their own, and the request's body back.
        outgoing.writeHead(200, 'OK', [
          'Content-Type',
          'application/octet-stream',
          'X-Repeated',
          'one',
          'x-repeated',
          'two',
          'Set-Cookie',
          'a=1; HttpOnly',
          'Set-Cookie',
          'b=2',
          'Content-Length',
          String(body.length),
        ]);
        return void outgoing.end(body);
      }
      if (path === '/v3/binary') {
        outgoing.writeHead(203, 'Fine Thanks', { 'content-type': 'image/png', 'content-length': BINARY.length });
        return void outgoing.end(BINARY);
      }
      if (path === '/v3/chunked') {
        // No length: the body goes in chunks, some time apart.
        outgoing.writeHead(200, { 'content-type': 'text/plain' });
        let part = 0;
        const next = () => {
          if (part === 5) return void outgoing.end('end\n');
          outgoing.write(`part ${part++}\n`);
          setTimeout(next, 5);
        };
        return void next();
      }
      if (path === '/v3/gzip') {
        const zipped = gzipSync(Buffer.from(JSON.stringify(GZIPPED_JSON)));
        outgoing.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-encoding': 'gzip',
          'content-length': zipped.length,
        });
        return void outgoing.end(zipped);
      }
      if (path === '/v3/empty') {
        outgoing.writeHead(204, { 'x-why': 'nothing to say' });
        return void outgoing.end();
      }
      if (path === '/v3/slow') {
        // Answers after the time its query asks for (?ms=…): an exchange a test can catch in flight.
        const ms = Number(new URL(incoming.url ?? '', 'http://x').searchParams.get('ms') ?? 500);
        return void setTimeout(() => {
          outgoing.writeHead(200, { 'content-type': 'text/plain' });
          outgoing.end('slow\n');
        }, ms);
      }
      if (path === '/v3/cut') {
        outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
        outgoing.write('{"data": [');
        return void setTimeout(() => outgoing.destroy(), 20);
      }
      const json = JSON.stringify({ method: incoming.method, url: incoming.url });
      outgoing.writeHead(404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      outgoing.end(json);
    });
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

export interface RawAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

// One agent for both paths, kept alive as the proxy's own connections to the target are, so that
// what reaches the target directly and through the proxy can be compared header by header.
const agent = new Agent({ keepAlive: true });

/** Sends a request as given (headers as a flat list, in order and letter case) and reads the answer as bytes. */
export function sendRaw(url: string, method = 'GET', headers: string[] = [], body?: Buffer | Buffer[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Node adds no Host to headers given as a list: the client names its server, as any does.
    const withHost = headers.some((name, index) => index % 2 === 0 && name.toLowerCase() === 'host')
      ? headers
      : ['Host', new URL(url).host, ...headers];
    const sent = request(url, { method, headers: withHost, agent }, (answer: IncomingMessage) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          statusMessage: answer.statusMessage ?? '',
          rawHeaders: answer.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      answer.on('error', reject);
    });
    sent.on('error', reject);
    // Several buffers go as several writes: without a Content-Length, as chunks.
    for (const part of Array.isArray(body) ? body : body ? [body] : []) sent.write(part);
    sent.end();
  });
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** Header pairs as sent, without those that belong to one connection. */
export function endToEndHeaders(rawHeaders: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[index]!.toLowerCase())) pairs.push([rawHeaders[index]!, rawHeaders[index + 1]!]);
  }
  return pairs;
}
