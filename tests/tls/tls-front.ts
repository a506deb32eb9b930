// A target over HTTPS, as every deployed one is: TLS on loopback in front of a plain HTTP server,
// passing the decrypted bytes through untouched. The certificate is the self-tests' own
// (make-certificates.sh): for localhost and 127.0.0.1, signed by a certificate authority no machine
// trusts unless told to (NODE_EXTRA_CA_CERTS=CA_CERTIFICATE).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { trackedSockets } from '../transport/tracked-sockets.ts';

/** The certificate authority that signed the front's certificate, as a PEM file. */
export const CA_CERTIFICATE = fileURLToPath(new URL('./ca.pem', import.meta.url));

const identity = () => ({
  key: readFileSync(new URL('./localhost.key', import.meta.url)),
  cert: readFileSync(new URL('./localhost.pem', import.meta.url)),
});

export interface TlsFront {
  /** `http://…` of the server behind, as `https://host:port…` of the front, path kept. */
  base: string;
  close(): Promise<void>;
}

/**
 * TLS in front of the HTTP server at `backend`, listening on `host` (a loopback address; one the
 * certificate does not name, such as 127.0.0.2, makes a target whose certificate is for another host).
 */
export async function startTlsFront(backend: string, host = '127.0.0.1'): Promise<TlsFront> {
  const behind = new URL(backend);
  // A client that refuses the certificate, or goes away, ends its connection; nothing else.
  const { track, destroyAll } = trackedSockets();
  const server = createServer(identity(), (client) => {
    const upstream = connect(Number(behind.port), behind.hostname);
    track(client);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.on('tlsClientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    base: `https://${host}:${port}${behind.pathname.replace(/\/$/, '')}`,
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
