// What a living target costs the suite: whole runs against the reference standing still and living
// (new calls logged at one a second and one every five seconds, reference/live/), interleaved so the
// machine's drift hits all alike, over loopback and behind a 50 ms latency proxy (where each
// comparison the data moved under costs round trips, not CPU). The target: a run against a living
// target costs at most 1.3x the requests and time of the same run against one standing still,
// and its verdict is the same (CONFORMANT). Living calls settle late by default (recordings and
// final totals 2-15 s after the end). Then the README's bounded line (REQUEST_BUDGET=800 MAX_RPS=5),
// standing still and living: a bounded run takes about its requests ÷ MAX_RPS, at most 1.2x that, and
// still gives a verdict.
import { createServer } from '../../reference/server.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { timeSuiteRun, type SuiteRun } from './processes.ts';
import { median, ratio, seconds, times } from './stats.ts';
import type { Target } from './render.ts';

/** New calls a second of each living target: one a second, and one every five seconds. */
const LIVING_RATES = [1, 0.2] as const;
const LIVING_LATENCY_MS = 50;
const TARGET_RATIO = 1.3;
/** The README's bounds for a shared staging, and how much longer than requests ÷ MAX_RPS such a run may take. */
const BOUNDED_ENV = { REQUEST_BUDGET: '800', MAX_RPS: '5' } as const;
const BOUNDED_TARGET_RATIO = 1.2;

interface LivingRun {
  totalMs: number;
  requests: number;
  verdicts: string[];
}

export interface LivingResults {
  calls: number;
  rows: Array<{ latencyMs: number; rate: number | 'still'; run: LivingRun; timeRatio: number; requestsRatio: number }>;
  /** Runs under the README's bounds: their time against requests ÷ MAX_RPS. */
  bounded?: Array<{ rate: number | 'still'; totalMs: number; requests: number; verdict: string; paceRatio: number }>;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function measureLiving(runs: number, calls: number): Promise<LivingResults> {
  const rates: Array<number | 'still'> = ['still', ...LIVING_RATES];
  const rows: LivingResults['rows'] = [];
  for (const latencyMs of [0, LIVING_LATENCY_MS]) {
    const measured = new Map<number | 'still', SuiteRun[]>(rates.map((rate) => [rate, []]));
    for (let run = 1; run <= runs; run += 1) {
      for (const rate of rates) {
        log(
          `a run against the reference ${rate === 'still' ? 'standing still' : `living at ${rate} new calls a second`}${latencyMs ? ` behind ${latencyMs} ms` : ''} (${run}/${runs})`,
        );
        // A reference of its own for each run, so that every living run starts from the same data and the same moment.
        const reference = createServer({ calls, ...(rate !== 'still' && { live: { rate } }) });
        const base = await reference.listen(0);
        const proxy = latencyMs > 0 ? await startLatencyProxy(base, latencyMs) : undefined;
        try {
          measured.get(rate)!.push(await timeSuiteRun(calls, proxy?.base ?? base));
        } finally {
          await proxy?.close();
          await reference.close();
        }
      }
    }
    const summary = (rate: number | 'still'): LivingRun => {
      const all = measured.get(rate)!;
      return {
        totalMs: median(all.map((run) => run.totalMs)),
        requests: median(all.map((run) => run.requests)),
        verdicts: all.map((run) => run.verdict),
      };
    };
    const still = summary('still');
    for (const rate of rates) {
      const run = summary(rate);
      rows.push({ latencyMs, rate, run, timeRatio: ratio(run.totalMs, still.totalMs), requestsRatio: ratio(run.requests, still.requests) });
    }
  }
  return { calls, rows, bounded: await measureBounded(calls) };
}

/** One run each, standing still and living at one call a second, under the README's bounds: each takes minutes. */
async function measureBounded(calls: number): Promise<NonNullable<LivingResults['bounded']>> {
  const bounded: NonNullable<LivingResults['bounded']> = [];
  for (const rate of ['still', LIVING_RATES[0]] as const) {
    log(
      `a run under REQUEST_BUDGET=800 MAX_RPS=5 against the reference ${rate === 'still' ? 'standing still' : `living at ${rate} new calls a second`}`,
    );
    const reference = createServer({ calls, ...(rate !== 'still' && { live: { rate } }) });
    const base = await reference.listen(0);
    try {
      const run = await timeSuiteRun(calls, base, 0, { env: { ...BOUNDED_ENV } });
      const paced = (run.requests / Number(BOUNDED_ENV.MAX_RPS)) * 1000;
      bounded.push({ rate, totalMs: run.totalMs, requests: run.requests, verdict: run.verdict, paceRatio: ratio(run.totalMs, paced) });
    } finally {
      await reference.close();
    }
  }
  return bounded;
}

export function livingTargets(living: LivingResults): Target[] {
  const moving = living.rows.filter((row) => row.rate !== 'still');
  const worst = (key: 'timeRatio' | 'requestsRatio') => moving.reduce((most, row) => (row[key] > most[key] ? row : most));
  const where = (row: LivingResults['rows'][number]) => `${row.rate} calls/s${row.latencyMs ? `, ${row.latencyMs} ms` : ', loopback'}`;
  const time = worst('timeRatio');
  const requests = worst('requestsRatio');
  const allConformant = living.rows.every((row) => row.run.verdicts.every((verdict) => verdict === 'CONFORMANT'));
  return [
    {
      name: `A run against a living target within ${TARGET_RATIO}x of one standing still in time`,
      value: `${times(time.timeRatio)} (${where(time)})`,
      met: time.timeRatio <= TARGET_RATIO,
    },
    {
      name: `A run against a living target within ${TARGET_RATIO}x of one standing still in requests`,
      value: `${times(requests.requestsRatio)} (${where(requests)})`,
      met: requests.requestsRatio <= TARGET_RATIO,
    },
    { name: 'The living reference CONFORMANT on every run', value: allConformant ? 'every run' : 'not every run', met: allConformant },
    ...(living.bounded ?? []).map((run) => ({
      name: `A run under REQUEST_BUDGET=800 MAX_RPS=5 (${run.rate === 'still' ? 'standing still' : `living at ${run.rate} calls/s`}) within ${BOUNDED_TARGET_RATIO}x of its requests ÷ MAX_RPS, CONFORMANT`,
      value: `${times(run.paceRatio)} (${seconds(run.totalMs)} for ${run.requests} requests), ${run.verdict}`,
      met: run.paceRatio <= BOUNDED_TARGET_RATIO && run.verdict === 'CONFORMANT',
    })),
  ];
}

export function renderLiving(living: LivingResults): string[] {
  return [
    `**A living target** (whole runs against the reference of ${living.calls.toLocaleString('en')} calls standing still and logging new calls, each already running, interleaved):`,
    '',
    '| Latency | Target | Total | Requests | Time | Requests | Verdicts |',
    '|---:|---|---:|---:|---:|---:|---|',
    ...living.rows.map(
      (row) =>
        `| ${row.latencyMs ? `${row.latencyMs} ms` : 'loopback'} | ${row.rate === 'still' ? 'standing still' : `${row.rate} new calls/s`} | ${seconds(row.run.totalMs)} | ${Math.round(row.run.requests).toLocaleString('en')} | ${times(row.timeRatio)} | ${times(row.requestsRatio)} | ${[...new Set(row.run.verdicts)].join(', ')} |`,
    ),
    '',
    ...(living.bounded && living.bounded.length > 0
      ? [
          "**Under the README's bounds** (`REQUEST_BUDGET=800 MAX_RPS=5`, one run each): time against requests ÷ MAX_RPS.",
          '',
          '| Target | Total | Requests | Requests ÷ MAX_RPS | Ratio | Verdict |',
          '|---|---:|---:|---:|---:|---|',
          ...living.bounded.map(
            (run) =>
              `| ${run.rate === 'still' ? 'standing still' : `${run.rate} new calls/s`} | ${seconds(run.totalMs)} | ${run.requests} | ${seconds((run.requests / Number(BOUNDED_ENV.MAX_RPS)) * 1000)} | ${times(run.paceRatio)} | ${run.verdict} |`,
          ),
          '',
        ]
      : []),
  ];
}
