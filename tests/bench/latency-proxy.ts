// A target across a network, on loopback: a proxy in front of a server that holds each request for
// a fixed time before passing it on, as a staging deployment in another region would. It counts the
// requests and the most that were in flight at once, which is what the suite's concurrency is judged
// by (the bench, and the self-tests of MAX_IN_FLIGHT).
import { Agent, createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LatencyProxy {
  /** The proxy's address with the target's path (http://127.0.0.1:port/v3). */
  base: string;
  /** Requests answered or failed so far. */
  requests(): number;
  /** The most requests that were in the proxy at once. */
  mostInFlight(): number;
  /** Each request as it arrived (method and path), since the last reset. */
  seen(): string[];
  /** Forgets the counts (between two runs against the same proxy). */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a base address with a path) that adds `latencyMs` to each request. */
export async function startLatencyProxy(target: string, latencyMs: number): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let inFlight = 0;
  let most = 0;
  let count = 0;
  let arrived: string[] = [];

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    arrived.push(`${incoming.method} ${incoming.url}`);
    const done = () => {
      inFlight -= 1;
      count += 1;
    };
    outgoing.once('close', done);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      setTimeout(() => {
        const headers = { ...incoming.headers, host: upstream.host };
        const proxied = forward(
          { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers, agent },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        proxied.on('error', (error) => {
          if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
          outgoing.end(`latency proxy: ${error.message}`);
        });
        proxied.end(Buffer.concat(chunks));
      }, latencyMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    requests: () => count,
    mostInFlight: () => most,
    seen: () => [...arrived],
    reset: () => {
      count = 0;
      arrived = [];
      most = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
