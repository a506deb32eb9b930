// A real reference server behind a real loopback proxy that can watch or rewrite what passes: the
// suite's self-tests use it to see every request a run sends. (Faults in the answers themselves
// belong in the reference's fault catalog, reference/faults/.)
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ReferenceServer } from '../../reference/server.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';

export interface ProxiedRequest {
  method: string;
  /** Path and query as received, e.g. /v3/calls?type=audio. */
  url: string;
  headers: IncomingHttpHeaders;
}

interface ProxiedAnswer {
  status: number;
  body: unknown;
}

/** Rewrites a request on its way in (return it unchanged to pass it on). */
export type RequestBreaker = (request: ProxiedRequest) => ProxiedRequest;
/** Rewrites an answer on its way out; the body is parsed JSON. */
export type AnswerBreaker = (request: ProxiedRequest, answer: ProxiedAnswer) => ProxiedAnswer;

export interface BrokenTarget {
  /** The suite's environment for this target: both base addresses, keys and writes. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startBrokenTarget(breaks: { request?: RequestBreaker; answer?: AnswerBreaker }): Promise<BrokenTarget> {
  const reference: ReferenceServer = createServer({ seed: 3, calls: 400 });
  const upstream = new URL(await reference.listen(0));
  const proxy: Server = createHttpServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const original: ProxiedRequest = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers };
      const sent = breaks.request ? breaks.request(original) : original;
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: sent.method, path: sent.url, headers: sent.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            const received: ProxiedAnswer = { status: answer.statusCode ?? 502, body: JSON.parse(text) };
            const { status, body } = breaks.answer ? breaks.answer(original, received) : received;
            outgoing.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          });
        },
      );
      forward.on('error', () => outgoing.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v3`;
  return {
    env: referenceTargetEnv(base),
    async close() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await reference.close();
    },
  };
}
