// A paced load: `connections` clients, each sending on a kept-alive connection of its own at
// random moments (a Poisson process of `rate / connections` a second), as independent clients of a
// staging do. Each request's latency counts from the moment it was due, not from when it was sent:
// a request that had to wait for its connection's previous answer waited for the server (no
// coordinated omission).
//
// Why not autocannon's own rate (`overallRate`): it gives each connection its quota at the start of
// each second, so all the connections fire their whole second's requests at once and the p99 is the
// time to clear that burst, a measure of throughput (the flat-out ratio measures that). Its correction
// for coordinated omission also takes `Math.ceil(1 / rate)` as the expected interval, 1 ms for a
// connection's 4 a second, and records one made-up sample per millisecond of every slow answer.
import { Agent, request } from 'node:http';
import { percentile } from './stats.ts';

export interface PacedLoad {
  sent: number;
  /** Answers other than 2xx, and requests that failed (reset, refused, timed out). */
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Every answer's latency, in the order they came: to pool several runs' answers. */
  latencies: number[];
}

export interface PacedLoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Requests a second, all connections together. */
  rate: number;
  seconds: number;
  /** A source of numbers in [0, 1) for the arrival times (Math.random by default; a seeded one for tests). */
  random?: () => number;
}

/** The moments (ms from the start) at which one client sends, within `seconds`: exponential gaps of mean `1000 / rate`. */
export function arrivals(rate: number, seconds: number, random: () => number = Math.random): number[] {
  const moments: number[] = [];
  for (let at = -Math.log(1 - random()) * (1000 / rate); at < seconds * 1000; at += -Math.log(1 - random()) * (1000 / rate))
    moments.push(at);
  return moments;
}

function send(url: string, headers: Record<string, string>, agent: Agent): Promise<boolean> {
  return new Promise((resolve) => {
    const sent = request(url, { agent, headers, timeout: 30_000 }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve(response.statusCode !== undefined && response.statusCode < 300));
      response.on('error', () => resolve(false));
    });
    sent.on('timeout', () => sent.destroy(new Error('timed out')));
    sent.on('error', () => resolve(false));
    sent.end();
  });
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoad> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const client = async () => {
    // One connection of its own, kept alive: its requests go one after another on it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const due of arrivals(options.rate / options.connections, options.seconds, options.random)) {
        const wait = start + due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const ok = await send(options.url, options.headers, agent);
        latencies.push(performance.now() - (start + due));
        if (!ok) errors += 1;
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  return {
    sent: latencies.length,
    errors,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.length === 0 ? Number.NaN : Math.max(...latencies),
    latencies,
  };
}
