// When a request goes on the wire, which is when MAX_RPS counts it (the target counts it when it
// arrives): not when its slot was granted, nor when its answer came. A new connection slow to open
// (a handshake across a network, a worker busy meanwhile) puts its request on the wire only once open.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { connect, createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '../../core/run/config.ts';
import { InFlightLimit } from '../../core/transport/in-flight.ts';
import { Pacer, pacedInFlight } from '../../core/transport/rate-limit.ts';
import { exchangeWithTarget } from '../../core/transport/target-http.ts';
import { Transport } from '../../core/transport/transport.ts';
import { CA_CERTIFICATE, startTlsFront } from '../tls/tls-front.ts';
import { startCountingDoor } from '../suite/counting-door.ts';
import { json, startScriptedServer } from './scripted-server.ts';
import { WIRES, wireOf } from './test-wires.ts';
import { trackedSockets } from './tracked-sockets.ts';

/**
 * A network whose answers take `lateMs` to come back, in front of `backend` (`https://host:port/…`):
 * a new connection's TLS handshake then takes that long to finish, as across a network.
 */
async function slowNetworkTo(backend: string, lateMs: number): Promise<{ base: string; close(): Promise<void> }> {
  const behind = new URL(backend);
  const { track, destroyAll } = trackedSockets();
  const relay = createServer((client) => {
    const upstream = connect(Number(behind.port), behind.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream);
    // Each chunk back is held as long as every other: their order is kept.
    upstream.on('data', (chunk: Buffer) => setTimeout(() => client.write(chunk), lateMs));
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    base: `https://127.0.0.1:${(relay.address() as AddressInfo).port}${behind.pathname}`,
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

/** How late the slow network brings the server's first flight back. */
const FIRST_FLIGHT_DELAY_MS = 300;

test('a request on a new connection goes on the wire once its TLS handshake is done; on one kept alive, at once', async () => {
  const server = await startScriptedServer((_request, response) => json(response, 200, { data: [] }));
  const front = await startTlsFront(server.base);
  const network = await slowNetworkTo(front.base, FIRST_FLIGHT_DELAY_MS);
  const agents = { 'http:': new HttpAgent(), 'https:': new HttpsAgent({ keepAlive: true, ca: readFileSync(CA_CERTIFICATE) }) };
  const limits = { maxBodyBytes: 100_000, timeoutMs: 5_000 };
  const exchange = async () => {
    const asked = performance.now();
    let onWire = Infinity;
    const outcome = await exchangeWithTarget(
      new URL(`${network.base}/calls`),
      'GET',
      {},
      Buffer.alloc(0),
      limits,
      agents,
      new Set(),
      () => (onWire = performance.now()),
    );
    expect(outcome.kind, JSON.stringify(outcome).slice(0, 300)).toBe('answer');
    return { asked, onWire, arrived: server.received.at(-1)!.at };
  };
  try {
    const opening = await exchange();
    // The server's first flight comes back 300 ms late; the request follows the handshake at once.
    // "At once" is judged against that delay, not a clock of its own: a mark taken before the
    // handshake, or a handshake done again, is a whole delay off, and a loaded machine is not.
    expect(opening.onWire - opening.asked).toBeGreaterThanOrEqual(FIRST_FLIGHT_DELAY_MS - 10);
    expect(opening.arrived - opening.onWire).toBeGreaterThanOrEqual(0);
    expect(opening.arrived - opening.onWire).toBeLessThan(FIRST_FLIGHT_DELAY_MS / 2);
    const keptAlive = await exchange();
    expect(keptAlive.onWire - keptAlive.asked).toBeLessThan(FIRST_FLIGHT_DELAY_MS / 2);
  } finally {
    agents['https:'].destroy();
    await network.close();
    await front.close();
    await server.close();
  }
});

for (const kind of WIRES) {
  test(`over the ${kind} wire, a request is marked as on the wire only once it is written: a worker held up right after the mark cannot make it arrive later than marked`, async ({
    request,
  }) => {
    // MAX_RPS holds at the target only if no request arrives later than its mark (rate-limit.ts). A
    // mark taken before the write let a worker that lost its core in between send it after: on a
    // loaded machine, 6 arrivals in one second at MAX_RPS=5. The door is a process of its own, so it
    // notes the arrival while this one is held up. (Through the gateway, the gateway's write is the mark.)
    const server = await startScriptedServer((_request, response) => json(response, 200, { data: [] }));
    const door = await startCountingDoor(server.base);
    const config = loadConfig({ CALLS_BASE_URL: door.base, CHAT_BASE_URL: door.base, API_KEY: 'on-wire-key', REQUEST_TIMEOUT_MS: '5000' });
    const wire = await wireOf(kind, request, config);
    try {
      for (const connection of ['a new connection', 'a connection kept alive']) {
        let marked = 0;
        const outcome = await wire.send({ method: 'GET', url: `${door.base}/calls`, headers: { apikey: '$API_KEY' } }, () => {
          marked = Date.now();
          const until = performance.now() + 300;
          while (performance.now() < until);
        });
        expect(outcome.kind, connection).toBe('answer');
        if (outcome.kind === 'answer') await outcome.answer.dispose();
        expect(marked, `${connection}: marked`).toBeGreaterThan(0);
        const arrival = (await door.arrivals()).at(-1)!;
        expect(arrival.earliest - marked, connection).toBeLessThan(100);
      }
    } finally {
      await wire.close();
      await door.close();
      await server.close();
    }
  });
}

for (const kind of WIRES) {
  test(`over the ${kind} wire, MAX_RPS counts a request from when it went on the wire, not from when its answer came`, async ({
    request,
  }) => {
    // Answers come 600 ms late; at one start a second (each counted for 1.1 s) the second request
    // may start 1.1 s after the first went out. Counted from the answer, it would wait until 1.7 s.
    const server = await startScriptedServer((_request, response) => setTimeout(() => json(response, 200, { data: [] }), 600));
    const config = loadConfig({
      CALLS_BASE_URL: server.base,
      CHAT_BASE_URL: server.base,
      API_KEY: 'on-wire-key',
      REQUEST_TIMEOUT_MS: '5000',
    });
    const wire = await wireOf(kind, request, config);
    const transport = new Transport(wire, { config, inFlight: pacedInFlight(new InFlightLimit(2), new Pacer(1)) });
    try {
      const get = () => transport.send({ method: 'GET', url: `${server.base}/calls`, headers: { apikey: '$API_KEY' } });
      await Promise.all([get(), get()]);
      const [first, second] = server.received.map((received) => received.at);
      expect(second! - first!).toBeGreaterThanOrEqual(1_050);
      expect(second! - first!).toBeLessThan(1_500);
    } finally {
      await wire.close();
      await server.close();
    }
  });
}
