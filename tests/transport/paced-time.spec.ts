// The suite's own waiting is not the target's (issue 34): a request held by MAX_RPS or a slot of
// MAX_IN_FLIGHT is not "waiting on the target" (a test that times out then does not mark the target
// unavailable), and the time it is held is credited back to the running test, once for overlapping
// holds, tick by tick during a long hold. Over a real loopback server answering at once.
import { test, expect } from '@playwright/test';
import { loadConfig } from '../../core/run/config.ts';
import { Transport } from '../../core/transport/transport.ts';
import { Pacer } from '../../core/transport/rate-limit.ts';
import { InFlightLimit } from '../../core/transport/in-flight.ts';
import { PacedTime } from '../../core/transport/paced-time.ts';
import { directWire } from '../../core/transport/wire.ts';
import { secretPlaceholders } from '../../core/transport/transport.ts';
import { json, startScriptedServer } from './scripted-server.ts';

test('PacedTime credits the wall-clock union of overlapping holds, and credits a long hold while it lasts', () => {
  let now = 0;
  const credits: number[] = [];
  const paced = new PacedTime(
    (ms) => credits.push(ms),
    () => now,
    60_000,
  );
  const first = paced.hold();
  now = 100;
  const second = paced.hold();
  now = 300;
  first();
  first(); // ending a hold twice changes nothing
  now = 450;
  second();
  expect(paced.creditedMs).toBe(450);
  now = 1_000;
  expect(paced.creditedMs).toBe(450); // nothing held since
});

test('PacedTime credits a hold in progress on its tick, so a hold longer than the timeout never lets it fire first', async () => {
  const credits: number[] = [];
  const paced = new PacedTime((ms) => credits.push(ms), undefined, 20);
  const started = performance.now();
  const end = paced.hold();
  // Three ticks credited while the hold lasts, however late a loaded machine runs its timers.
  await expect.poll(() => credits.length, { timeout: 10_000, intervals: [10] }).toBeGreaterThanOrEqual(3);
  end();
  const elapsed = performance.now() - started;
  const total = credits.reduce((sum, ms) => sum + ms, 0);
  // The whole hold is credited, once: what the ticks gave and the end's remainder add up to its length.
  expect(total).toBeGreaterThan(elapsed - 20);
  expect(total).toBeLessThanOrEqual(elapsed + 1);
});

test('requests held by MAX_RPS are not waiting on the target, and their held time is credited; a request on the wire is', async () => {
  const server = await startScriptedServer((_request, response, n) => {
    // The fourth request never gets an answer within the test: it is the one waiting on the target.
    if (n === 3) return;
    json(response, 200, { data: [] });
  });
  const config = loadConfig({ CALLS_BASE_URL: server.base, CHAT_BASE_URL: server.base, API_KEY: 'paced-key', REQUEST_TIMEOUT_MS: '5000' });
  const wire = directWire(secretPlaceholders(config), { maxBodyBytes: config.maxBodyBytes, timeoutMs: 5_000 }, 8);
  let credited = 0;
  const pacedTime = new PacedTime((ms) => (credited += ms));
  // Two requests a second, at most one in flight: four requests take about a second and a half of pacing.
  const transport = new Transport(wire, { config, pacer: new Pacer(2), inFlight: new InFlightLimit(1), pacedTime });
  try {
    const sends = [0, 1, 2, 3].map((n) => transport.send({ method: 'GET', url: `${server.base}/calls?n=${n}`, headers: {} }));
    // While the first requests are answered, the later ones are held by the pacer: not waiting on the target.
    await sends[0];
    const whileHeld = transport.requestsWaiting();
    expect(whileHeld.every((described) => !described.includes('n=3'))).toBe(true);
    await Promise.all(sends.slice(0, 3));
    await expect.poll(() => server.received.length, { timeout: 5_000 }).toBe(4);
    // The fourth is on the wire now, unanswered: that one waits on the target.
    expect(transport.requestsWaiting()).toEqual([`GET ${server.base}/calls?n=3`]);
    expect(credited).toBeGreaterThan(1_000);
    void sends[3]!.catch(() => {});
  } finally {
    await wire.close();
    await server.close();
  }
});
