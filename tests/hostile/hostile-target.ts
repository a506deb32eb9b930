// A hostile answer of the catalog served on loopback: the reference (with the caller's keys, and the
// answer's fault if it has one) behind a proxy that rewrites each answer, whole, as the target sends it.
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '../../reference/server.ts';
import type { HostileAnswer } from './hostile-answers.ts';

export interface HostileTarget {
  /** The base address the suite is pointed at. */
  base: string;
  close(): Promise<void>;
}

export async function startHostileTarget(hostile: HostileAnswer, keys: { fullAccess: string; readOnly: string }): Promise<HostileTarget> {
  const reference = createServer({ keys, ...(hostile.fault && { fault: hostile.fault() }) });
  const upstream = new URL(await reference.listen(0));
  const proxy = createHttpServer((incoming, outgoing) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const leaving = {
            path: (incoming.url ?? '/').split('?')[0]!,
            key: String(incoming.headers.apikey ?? ''),
            status: answer.statusCode ?? 502,
            headers: answer.headers,
            body: Buffer.concat(parts),
          };
          const sent = hostile.rewrite ? hostile.rewrite(leaving) : { body: leaving.body };
          outgoing
            .writeHead(sent.status ?? leaving.status, {
              'content-type': String(answer.headers['content-type'] ?? 'application/json'),
              ...sent.headers,
              'content-length': String(sent.body.length),
            })
            .end(sent.body);
        });
      },
    );
    forward.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname}`,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await reference.close();
    },
  };
}
