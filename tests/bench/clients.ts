// The CPU a request costs the suite's worker, by HTTP client: what chose the wire (core/transport/
// wire.ts). Each client sends the same List Calls requests, one after another, to a reference in
// another process, so the CPU measured in this process is the client's alone (and the gateway's,
// where it runs here too). Measured: the direct wire (Node's own client, the default); Playwright's
// request context through the gateway (runs with tracing, secret keys), and without it; and fetch
// (undici), the other client Node ships.
import { request as playwrightRequest } from '@playwright/test';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { startGateway } from '../../core/transport/gateway.ts';
import { directWire, requestContextWire, type Wire } from '../../core/transport/wire.ts';
import { median } from './stats.ts';

export interface ClientCost {
  client: string;
  /** CPU (user + system) of this process per request, in ms. */
  cpuMsPerRequest: number;
  /** Wall time per request, one at a time over loopback, in ms. */
  wallMsPerRequest: number;
}

const SECRETS: ReadonlyMap<string, string> = new Map([['$API_KEY', DEMO_KEYS.fullAccess]]);
const LIMITS = { maxBodyBytes: 10 * 2 ** 20, timeoutMs: 30_000 };
const WARM_UP = 50;

/** `requests` requests per client and run, over `runs` interleaved runs; medians. */
export async function measureClients(base: string, requests: number, runs: number): Promise<ClientCost[]> {
  const context = await playwrightRequest.newContext();
  const gateway = await startGateway({ secrets: SECRETS, ...LIMITS });
  const wires: Array<{ client: string; wire: Wire }> = [
    { client: 'direct wire (Node http, the default)', wire: directWire(SECRETS, LIMITS, 8) },
    { client: 'request context through the gateway (tracing on)', wire: requestContextWire(context, gateway, SECRETS, LIMITS.timeoutMs) },
    { client: 'request context, key put in by the suite', wire: requestContextWire(context, undefined, SECRETS, LIMITS.timeoutMs) },
    { client: 'fetch (undici)', wire: fetchWire() },
  ];
  const urls = Array.from({ length: requests }, (_, index) => `${base}/calls?perPage=${1 + (index % 20)}&page=${1 + (index % 5)}`);
  const samples = new Map(wires.map(({ client }) => [client, { cpu: [] as number[], wall: [] as number[] }]));
  try {
    for (let run = 0; run < runs; run += 1) {
      for (const { client, wire } of wires) {
        const send = async (url: string) => {
          const outcome = await wire.send({ method: 'GET', url, headers: { apikey: '$API_KEY' } });
          if (outcome.kind !== 'answer' || outcome.answer.status !== 200) throw new Error(`${client}: ${url} was not answered 200`);
          await outcome.answer.text();
        };
        for (const url of urls.slice(0, WARM_UP)) await send(url);
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (const url of urls) await send(url);
        const used = process.cpuUsage(cpu);
        samples.get(client)!.cpu.push((used.user + used.system) / 1000 / requests);
        samples.get(client)!.wall.push((performance.now() - started) / requests);
      }
    }
  } finally {
    for (const { wire } of wires) await wire.close();
    await context.dispose();
  }
  return wires.map(({ client }) => ({
    client,
    cpuMsPerRequest: median(samples.get(client)!.cpu),
    wallMsPerRequest: median(samples.get(client)!.wall),
  }));
}

/** fetch as a wire, for comparison only: no body bound, no decoding control. */
function fetchWire(): Wire {
  return {
    async send({ method, url, headers }) {
      const resolved = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, value === '$API_KEY' ? SECRETS.get('$API_KEY')! : value]),
      );
      const response = await fetch(url, { method, headers: resolved, redirect: 'manual' });
      const text = await response.text();
      return {
        kind: 'answer',
        answer: { status: response.status, headers: Object.fromEntries(response.headers), text: async () => text, dispose: async () => {} },
      };
    },
    async close() {},
  };
}

export function renderClients(costs: readonly ClientCost[]): string[] {
  const direct = costs[0]!;
  return [
    '**CPU per request by HTTP client** (List Calls pages, one request at a time to the reference in another process; CPU of the sending process):',
    '',
    '| Client | CPU per request | Wall per request | CPU beside the direct wire |',
    '|---|---:|---:|---:|',
    ...costs.map(
      (cost) =>
        `| ${cost.client} | ${cost.cpuMsPerRequest.toFixed(2)} ms | ${cost.wallMsPerRequest.toFixed(2)} ms | ${(cost.cpuMsPerRequest / direct.cpuMsPerRequest).toFixed(2)}x |`,
    ),
  ];
}
