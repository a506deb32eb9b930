// A one-off experiment (issue 36, item 2): direct against (a) the judging proxy as it is, judge off
// (before commit 0673cc7 it forwarded through Node's http module; since, it pipes bytes as (b) does),
// and (b) a forwarder that pipes bytes on one upstream socket per client connection, with only a
// boundary tracker on the answer (proxy-forwarding-child.ts). 10 connections flat out, List Calls
// pages of 25 calls from the reference, in one run, the order rotated each round. With RATE and
// CONNECTIONS set, at a steady rate instead (the p99s are then the measure).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { PROJECT_ROOT, startReference } from './processes.ts';
import { median } from './stats.ts';

const SECONDS = Number(process.env.SECONDS_EACH ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
/** A steady overall rate instead of flat out (RATE=200 CONNECTIONS=50: the bench's latency measure). */
const RATE = process.env.RATE === undefined ? undefined : Number(process.env.RATE);

async function rps(origin: string, prefix: string, seconds: number): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: `${origin}${prefix}/calls?perPage=25`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { apikey: DEMO_KEYS.fullAccess },
    ...(RATE !== undefined && { overallRate: RATE }),
  });
  return { rps: result.requests.total / seconds, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

function startForwarder(mode: string, target: string): Promise<{ origin: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/proxy-forwarding-child.ts', mode, target], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.setEncoding('utf8');
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /listening (http:\/\/\S+)/.exec(out);
      if (match) resolve({ origin: match[1]!, stop: () => void child.kill('SIGTERM') });
    });
  });
}

const reference = await startReference(1_000);
const base = new URL(reference.base);
const prefix = base.pathname.replace(/\/$/, '');
const a = await startForwarder('http', base.origin);
const b = await startForwarder('pipe', base.origin);
const paths: Record<string, string> = { direct: base.origin, a: a.origin, b: b.origin };
const loads = [loadavg()[0]!.toFixed(1)];
for (const origin of Object.values(paths)) await rps(origin, prefix, 1);
const measured: Record<string, number[]> = { direct: [], a: [], b: [] };
const p99s: Record<string, number[]> = { direct: [], a: [], b: [] };
const orders = [
  ['direct', 'a', 'b'],
  ['b', 'a', 'direct'],
  ['a', 'direct', 'b'],
  ['b', 'direct', 'a'],
];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const which of orders[round % orders.length]!) {
    const result = await rps(paths[which]!, prefix, SECONDS);
    measured[which]!.push(result.rps);
    p99s[which]!.push(result.p99);
    process.stderr.write(`round ${round} ${which}: ${result.rps.toFixed(0)}/s p99 ${result.p99} ms errors ${result.errors}\n`);
  }
  loads.push(loadavg()[0]!.toFixed(1));
}
a.stop();
b.stop();
await reference.stop();
const direct = median(measured.direct!);
for (const which of ['direct', 'a', 'b']) {
  const value = median(measured[which]!);
  process.stdout.write(
    `${which}: median ${value.toFixed(0)}/s (${measured[which]!.map((v) => v.toFixed(0)).join(', ')}), ${(value / direct).toFixed(2)}x direct; ` +
      `per-round ratios ${measured[which]!.map((v, i) => (v / measured.direct![i]!).toFixed(2)).join(', ')}; p99 ${p99s[which]!.join(', ')} ms\n`,
  );
}
process.stdout.write(`load averages (1 min) during: ${loads.join(', ')}; node ${process.version}\n`);
