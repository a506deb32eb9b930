// A proxy in front of a real reference, for the self-tests that need a target misbehaving in one
// chosen way: `intercept` answers (or breaks) a request itself and says so by returning true, or
// returns false to let the reference answer it untouched.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyInFront {
  /** The proxy's address, with the reference's base path. */
  base: string;
  close(): Promise<void>;
}

export async function proxyInFront(
  upstreamBase: string,
  intercept: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean,
): Promise<ProxyInFront> {
  const upstream = new URL(upstreamBase);
  const proxy = createServer((incoming, outgoing) => {
    if (intercept(incoming, outgoing)) return;
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname}`,
    // Called once the run has ended: a connection still open (kept alive, or held by intercept) is cut.
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
