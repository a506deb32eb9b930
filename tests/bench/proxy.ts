// What the judging proxy adds to each exchange (`npm run bench -- --proxy-only`): the interface's
// read operations sent one at a time to the reference directly and through the proxy, interleaved
// request by request (alternating which goes first) so that drift of the machine hits both alike,
// over loopback and behind the latency proxy (a target 50 ms away). The reference and the judging
// proxy run as processes of their own, the proxy as a team runs it (`npm run conformance -- proxy`),
// judging every exchange; the added time is the median of the paired differences. Target: under
// 2 ms at the median on loopback; the proxy's own verdict on this traffic: NO VIOLATIONS.
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { startProxyProcess } from '../passive/proxy-process.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { readOperations, type Operation } from './load.ts';
import { startReference } from './processes.ts';
import { median, percentile } from './stats.ts';
import type { Target } from './render.ts';

const CALLS = 1_000;
const EXCHANGES = 600;
const WARM_UP = 60;
const LATENCY_MS = 50;
/** Fewer behind the latency proxy: each costs 100 ms of waiting, both ways. */
const REMOTE_EXCHANGES = 120;
const TARGET_ADDED_MS = 2;

interface ProxyRow {
  path: string;
  exchanges: number;
  directMedianMs: number;
  proxiedMedianMs: number;
  /** Median and 90th percentile of (proxied − direct), request by request. */
  addedMedianMs: number;
  addedP90Ms: number;
  /** The proxy's own verdict on the traffic it judged (NO VIOLATIONS IN N EXCHANGES). */
  verdict: string;
  exitCode: number | null;
}

export interface ProxyResults {
  runs: number;
  rows: ProxyRow[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One request, timed from its sending to the last byte of its answer. */
function timed(agent: Agent, base: string, operation: Operation): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request(`${base}${operation.path}`, { method: operation.method, headers: operation.headers, agent }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(performance.now() - started));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

async function firstSessionId(base: string): Promise<string> {
  const response = await fetch(`${base}/calls?perPage=1`, { headers: { apikey: DEMO_KEYS.fullAccess } });
  const body = (await response.json()) as { data?: Array<{ sessionId?: string }> };
  return body.data![0]!.sessionId!;
}

/** `exchanges` paired requests to `direct` and through a judging proxy in front of it. */
async function measurePath(path: string, direct: string, exchanges: number): Promise<ProxyRow> {
  const warmUp = Math.min(WARM_UP, exchanges);
  const reports = mkdtempSync(join(tmpdir(), 'bench-proxy-'));
  const proxy = await startProxyProcess(['--target', direct, '--port', '0'], { REPORT_DIR: reports });
  // One connection each way, kept alive, as a client's own would be.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const operations = readOperations(await firstSessionId(direct));
    const directMs: number[] = [];
    const proxiedMs: number[] = [];
    for (let index = 0; index < warmUp + exchanges; index += 1) {
      const operation = operations[index % operations.length]!;
      const pair =
        index % 2 === 0
          ? [await timed(agent, direct, operation), await timed(agent, proxy.base, operation)]
          : [await timed(agent, proxy.base, operation), await timed(agent, direct, operation)].reverse();
      if (index < warmUp) continue;
      directMs.push(pair[0]!);
      proxiedMs.push(pair[1]!);
    }
    const added = proxiedMs.map((ms, index) => ms - directMs[index]!);
    const exit = await proxy.stop('SIGTERM');
    const verdict = /Passive verdict: ([^.]+)\./.exec(exit.stdout)?.[1] ?? `no verdict (exit ${exit.code}): ${exit.stderr.slice(-300)}`;
    return {
      path,
      exchanges,
      directMedianMs: median(directMs),
      proxiedMedianMs: median(proxiedMs),
      addedMedianMs: median(added),
      addedP90Ms: percentile(added, 0.9),
      verdict,
      exitCode: exit.code,
    };
  } finally {
    agent.destroy();
    await proxy.stop('SIGKILL').catch(() => undefined);
    rmSync(reports, { recursive: true, force: true });
  }
}

/** Exchanges per run: over loopback, and behind the latency proxy (the self-test asks for a few). */
export interface ProxySizes {
  exchanges: number;
  remoteExchanges: number;
}

export async function measureProxy(
  runs: number,
  sizes: ProxySizes = { exchanges: EXCHANGES, remoteExchanges: REMOTE_EXCHANGES },
): Promise<ProxyResults> {
  const reference = await startReference(CALLS);
  const remote = await startLatencyProxy(reference.base, LATENCY_MS);
  const byPath = new Map<string, ProxyRow[]>();
  try {
    for (let run = 1; run <= runs; run += 1) {
      log(`the judging proxy over loopback: ${sizes.exchanges} exchanges, each beside the same one sent directly (${run}/${runs})`);
      const loopback = await measurePath('loopback', reference.base, sizes.exchanges);
      log(`the judging proxy in front of a target ${LATENCY_MS} ms away: ${sizes.remoteExchanges} exchanges likewise (${run}/${runs})`);
      const away = await measurePath(`${LATENCY_MS} ms away`, remote.base, sizes.remoteExchanges);
      for (const row of [loopback, away]) byPath.set(row.path, [...(byPath.get(row.path) ?? []), row]);
    }
  } finally {
    await remote.close();
    await reference.stop();
  }
  const medianOf = (rows: ProxyRow[], pick: (row: ProxyRow) => number) => median(rows.map(pick));
  return {
    runs,
    rows: [...byPath.values()].map((rows) => ({
      path: rows[0]!.path,
      exchanges: rows[0]!.exchanges,
      directMedianMs: medianOf(rows, (row) => row.directMedianMs),
      proxiedMedianMs: medianOf(rows, (row) => row.proxiedMedianMs),
      addedMedianMs: medianOf(rows, (row) => row.addedMedianMs),
      addedP90Ms: medianOf(rows, (row) => row.addedP90Ms),
      // The worst verdict of the runs: one run with violations is the row's.
      verdict: rows.find((row) => row.exitCode !== 0)?.verdict ?? rows[0]!.verdict,
      exitCode: rows.find((row) => row.exitCode !== 0)?.exitCode ?? 0,
    })),
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function proxyTargets(results: ProxyResults): Target[] {
  const loopback = results.rows.find((row) => row.path === 'loopback')!;
  return [
    {
      name: `Time the judging proxy adds per exchange on loopback (median; target < ${TARGET_ADDED_MS} ms)`,
      value: ms(loopback.addedMedianMs),
      met: loopback.addedMedianMs < TARGET_ADDED_MS,
    },
    {
      name: "The proxy's verdict on the reference's traffic",
      value: results.rows.map((row) => row.verdict).join('; '),
      met: results.rows.every((row) => row.exitCode === 0),
    },
  ];
}

export function renderProxy(results: ProxyResults): string[] {
  return [
    `The judging proxy, medians of ${results.runs} run${results.runs === 1 ? '' : 's'}; requests one at a time, each beside the same one sent directly:`,
    '',
    "| Path | Exchanges | Direct (median) | Through the proxy (median) | Added (median) | Added (p90) | The proxy's verdict |",
    '|---|---:|---:|---:|---:|---:|---|',
    ...results.rows.map(
      (row) =>
        `| ${row.path} | ${row.exchanges} | ${ms(row.directMedianMs)} | ${ms(row.proxiedMedianMs)} | ${ms(row.addedMedianMs)} | ${ms(row.addedP90Ms)} | ${row.verdict} |`,
    ),
  ];
}
