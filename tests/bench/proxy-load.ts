// The judging proxy under load (issue 36, items 1, 2 and 6): List Calls pages of 25 calls, as a
// team's traffic to a staging would mostly be. The reference and the proxy each run as a process of
// their own, the proxy as a team starts it (`npm run conformance -- proxy`), judging.
// - Flat out at 10 connections (autocannon): requests a second through the proxy over requests a
//   second direct, the two alternated (direct, proxied, proxied, direct) so that the machine's drift
//   hits both alike.
// - A steady 1,000 a second (paced-load.ts: 10 clients sending at random moments): the share of the
//   exchanges the proxy judged, and how it chose them.
// - 50 connections at a steady 200 a second (paced-load.ts), alternated: the p99 latency through the
//   proxy less the p99 direct, each over all its rounds' answers.
// - 500 connections flat out (autocannon), direct and through a fresh proxy: the slowest answer, and
//   the slowest first answer of a connection (a client arriving at a busy proxy).
// - The CPU time each exchange cost flat out, per process (the load, the reference, the proxy) and per
//   role of the proxy's threads (thread-cpu.ts): what the ratio above can be at best on shared cores.
// - The proxy's peak resident memory (its threads' included) over all of these.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { startProxyProcess, type ProxyExit } from '../passive/proxy-process.ts';
import { pacedLoad, type PacedLoad } from './paced-load.ts';
import { startReference } from './processes.ts';
import { median, percentile } from './stats.ts';
import type { Target } from './render.ts';
import { CpuTally, type CpuPerExchange } from './thread-cpu.ts';

const CALLS = 1_000;
const PAGE = '/calls?perPage=25';

export interface LoadSizes {
  /** Seconds of each flat-out run (four per round: direct, proxied, proxied, direct). */
  flatSeconds: number;
  flatRounds: number;
  /** Seconds at the steady rate. */
  steadySeconds: number;
  steadyRate: number;
  /** Seconds of each run at 50 connections, rounds of four runs (proxied, direct, direct, proxied), and their overall rate. */
  latencySeconds: number;
  latencyRounds: number;
  latencyRate: number;
  /** Seconds flat out at 500 connections, each way. */
  stallSeconds: number;
}

const LOAD_SIZES: LoadSizes = {
  flatSeconds: 5,
  flatRounds: 2,
  steadySeconds: 30,
  steadyRate: 1_000,
  latencySeconds: 5,
  latencyRounds: 3,
  latencyRate: 200,
  stallSeconds: 5,
};

export interface ProxyLoadResults {
  flat: {
    connections: number;
    directRps: number;
    proxiedRps: number;
    ratio: number;
    errors: number;
    /** Where /proc can be read: each way's CPU per exchange, and the ratio the traffic's thread alone allows. */
    cpu?: { direct: CpuPerExchange; proxied: CpuPerExchange; bestRatio: number };
  };
  steady: { rate: number; seconds: number; sent: number; passed: number; judged: number; share: number; sampling: string; verdict: string };
  latency: {
    connections: number;
    rate: number;
    /** Answers each way, over all the rounds. */
    answers: number;
    directP50Ms: number;
    proxiedP50Ms: number;
    directP99Ms: number;
    proxiedP99Ms: number;
    addedP99Ms: number;
    errors: number;
  };
  stalls: {
    connections: number;
    directMaxMs: number;
    proxiedMaxMs: number;
    /** The slowest first answer of a connection: how long a client arriving among 500 waited. */
    directFirstMaxMs: number;
    proxiedFirstMaxMs: number;
    directP99Ms: number;
    proxiedP99Ms: number;
    directRps: number;
    proxiedRps: number;
    errors: number;
    non2xx: number;
  };
  /** The proxy's peak resident memory, the highest of its runs (one per measure above). */
  peakMiB: number;
  /** Each run's peak: flat out, steady, 50 connections, 500 connections. */
  peaksMiB: number[];
  verdicts: string[];
}

interface Load {
  rps: number;
  sent: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest first answer of a connection. */
  firstMaxMs: number;
  errors: number;
  non2xx: number;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function load(base: string, connections: number, seconds: number): Promise<Load> {
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  // Each connection's first answer: a client's wait to be let in, beside the wait of the ones already in.
  const answered = new WeakSet<object>();
  let firstMaxMs = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${new URL(base).origin}${prefix}${PAGE}`, connections, duration: seconds, headers: { apikey: DEMO_KEYS.fullAccess } },
      (error, finished) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished)),
    );
    instance.on('response', (client: object, _status: number, _bytes: number, responseMs: number) => {
      if (answered.has(client)) return;
      answered.add(client);
      firstMaxMs = Math.max(firstMaxMs, responseMs);
    });
  });
  return {
    rps: result.requests.total / seconds,
    sent: result.requests.total,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    firstMaxMs,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** List Calls pages at a steady `rate`, from `connections` clients at random moments (paced-load.ts). */
const paced = (base: string, connections: number, rate: number, seconds: number): Promise<PacedLoad> =>
  pacedLoad({ url: `${base.replace(/\/$/, '')}${PAGE}`, headers: { apikey: DEMO_KEYS.fullAccess }, connections, rate, seconds });

interface ProxyRun {
  exit: ProxyExit;
  peakMiB: number;
  passed: number;
  judged: number;
  sampling: string;
  verdict: string;
}

/** A proxy in front of `target` for the time `body` takes; what it said at stop. */
async function withProxy(target: string, body: (base: string, pid: number) => Promise<void>): Promise<ProxyRun> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-proxy-load-'));
  const proxy = await startProxyProcess(['--target', target, '--port', '0', '--report-every-minutes', '0'], {
    REPORT_DIR: reports,
  });
  try {
    await body(proxy.base, proxy.pid);
    const exit = await proxy.stop('SIGTERM');
    const number = (pattern: RegExp) => Number(pattern.exec(exit.stdout)?.[1] ?? 0);
    return {
      exit,
      peakMiB: number(/peak memory of the proxy: (\d+) MiB/),
      passed: number(/(\d+) exchanges? passed through the proxy/),
      judged: number(/(\d+) exchange\(s\) of the three operations judged/),
      sampling: /^judged a share of the traffic: .*$/m.exec(exit.stdout)?.[0] ?? 'every exchange handed to the judge',
      verdict: /Passive verdict: ([^.]+)\./.exec(exit.stdout)?.[1] ?? `no verdict (exit ${exit.code}): ${exit.stderr.slice(-300)}`,
    };
  } finally {
    await proxy.stop('SIGKILL').catch(() => undefined);
    rmSync(reports, { recursive: true, force: true });
  }
}

export async function measureProxyLoad(sizes: LoadSizes = LOAD_SIZES): Promise<ProxyLoadResults> {
  const reference = await startReference(CALLS);
  const runs: ProxyRun[] = [];
  try {
    const direct = reference.base;
    // Warm the reference up (its first pages build its indexes).
    await load(direct, 10, 1);

    log(`flat out at 10 connections, ${sizes.flatRounds} round(s) of direct, proxied, proxied, direct (${sizes.flatSeconds} s each)`);
    const directRps: number[] = [];
    const proxiedRps: number[] = [];
    let flatErrors = 0;
    const directCpu = new CpuTally();
    const proxiedCpu = new CpuTally();
    runs.push(
      await withProxy(direct, async (proxied, proxyPid) => {
        await load(proxied, 10, 1);
        for (let round = 0; round < sizes.flatRounds; round += 1) {
          for (const [via, into, tally] of [
            [direct, directRps, directCpu],
            [proxied, proxiedRps, proxiedCpu],
            [proxied, proxiedRps, proxiedCpu],
            [direct, directRps, directCpu],
          ] as const) {
            const reading = tally.start(reference.pid, via === proxied ? proxyPid : undefined);
            const measured = await load(via, 10, sizes.flatSeconds);
            reading.end(measured.sent);
            into.push(measured.rps);
            flatErrors += measured.errors + measured.non2xx;
          }
        }
      }),
    );

    log(`a steady ${sizes.steadyRate} a second through the proxy for ${sizes.steadySeconds} s, from 10 clients at random moments`);
    let sent = 0;
    const steadyRun = await withProxy(direct, async (proxied) => {
      sent = (await paced(proxied, 10, sizes.steadyRate, sizes.steadySeconds)).sent;
    });
    runs.push(steadyRun);

    log(
      `50 connections at a steady ${sizes.latencyRate} a second, ${sizes.latencyRounds} round(s) of proxied, direct, direct, proxied after a second's warm-up (${sizes.latencySeconds} s each)`,
    );
    const latencyDirect: PacedLoad[] = [];
    const latencyProxied: PacedLoad[] = [];
    runs.push(
      await withProxy(direct, async (proxied) => {
        await paced(proxied, 50, sizes.latencyRate, 1);
        await paced(direct, 50, sizes.latencyRate, 1);
        for (let round = 0; round < sizes.latencyRounds; round += 1)
          for (const [via, into] of [
            [proxied, latencyProxied],
            [direct, latencyDirect],
            [direct, latencyDirect],
            [proxied, latencyProxied],
          ] as const)
            into.push(await paced(via, 50, sizes.latencyRate, sizes.latencySeconds));
      }),
    );
    // Each way's answers pooled over its runs: a p99 of thousands of answers, not a median of a few p99s.
    const directAnswers = latencyDirect.flatMap((measured) => measured.latencies);
    const proxiedAnswers = latencyProxied.flatMap((measured) => measured.latencies);
    const errorsOf = (loads: PacedLoad[]) => loads.reduce((sum, measured) => sum + measured.errors, 0);

    log(`500 connections flat out, direct and through a fresh proxy (${sizes.stallSeconds} s each)`);
    let stallDirect: Load | undefined;
    let stallProxied: Load | undefined;
    runs.push(
      await withProxy(direct, async (proxied) => {
        stallDirect = await load(direct, 500, sizes.stallSeconds);
        stallProxied = await load(proxied, 500, sizes.stallSeconds);
      }),
    );

    const flatDirect = median(directRps);
    const flatProxied = median(proxiedRps);
    const cpuDirect = directCpu.perExchange();
    const cpuProxied = proxiedCpu.perExchange();
    return {
      flat: {
        connections: 10,
        directRps: flatDirect,
        proxiedRps: flatProxied,
        ratio: flatProxied / flatDirect,
        errors: flatErrors,
        ...(cpuDirect &&
          cpuProxied && {
            cpu: {
              direct: cpuDirect,
              proxied: cpuProxied,
              // On shared cores the hop costs what its thread spends beside the load and the reference,
              // even were the judge and V8's helpers to spend nothing.
              bestRatio:
                (cpuDirect.loadUs + cpuDirect.referenceUs) / (cpuDirect.loadUs + cpuDirect.referenceUs + cpuProxied.proxyTrafficUs!),
            },
          }),
      },
      steady: {
        rate: sizes.steadyRate,
        seconds: sizes.steadySeconds,
        sent,
        passed: steadyRun.passed,
        judged: steadyRun.judged,
        share: steadyRun.passed === 0 ? 0 : steadyRun.judged / steadyRun.passed,
        sampling: steadyRun.sampling,
        verdict: steadyRun.verdict,
      },
      latency: {
        connections: 50,
        rate: sizes.latencyRate,
        answers: proxiedAnswers.length,
        directP50Ms: percentile(directAnswers, 0.5),
        proxiedP50Ms: percentile(proxiedAnswers, 0.5),
        directP99Ms: percentile(directAnswers, 0.99),
        proxiedP99Ms: percentile(proxiedAnswers, 0.99),
        addedP99Ms: percentile(proxiedAnswers, 0.99) - percentile(directAnswers, 0.99),
        errors: errorsOf([...latencyDirect, ...latencyProxied]),
      },
      stalls: {
        connections: 500,
        directMaxMs: stallDirect!.maxMs,
        proxiedMaxMs: stallProxied!.maxMs,
        directFirstMaxMs: stallDirect!.firstMaxMs,
        proxiedFirstMaxMs: stallProxied!.firstMaxMs,
        directP99Ms: stallDirect!.p99Ms,
        proxiedP99Ms: stallProxied!.p99Ms,
        directRps: stallDirect!.rps,
        proxiedRps: stallProxied!.rps,
        errors: stallProxied!.errors,
        non2xx: stallProxied!.non2xx,
      },
      peakMiB: Math.max(...runs.map((run) => run.peakMiB)),
      peaksMiB: runs.map((run) => run.peakMiB),
      verdicts: runs.map((run) => run.verdict),
    };
  } finally {
    await reference.stop();
  }
}

const us = (value: number | undefined) => `${(value ?? 0).toFixed(0)} µs`;

/** Where each exchange's CPU went flat out, and the best ratio the proxy's hop allows on shared cores. */
function cpuNote(cpu: ProxyLoadResults['flat']['cpu']): string {
  if (cpu === undefined) return '';
  const { direct, proxied } = cpu;
  return (
    `; CPU per exchange: direct, the load ${us(direct.loadUs)} and the reference ${us(direct.referenceUs)}; through the proxy, ` +
    `its traffic's thread ${us(proxied.proxyTrafficUs)}, its judge ${us(proxied.proxyJudgeUs)}, its other threads ${us(proxied.proxyOtherUs)}: ` +
    `at best ${cpu.bestRatio.toFixed(2)}x on shared cores, were the judge and the other threads to spend nothing`
  );
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

export function proxyLoadTargets(results: ProxyLoadResults): Target[] {
  return [
    {
      name: 'Flat out at 10 connections: through the proxy / direct (target ≥ 0.5x)',
      value: `${results.flat.ratio.toFixed(2)}x (${results.flat.proxiedRps.toFixed(0)} / ${results.flat.directRps.toFixed(0)} a second)${cpuNote(results.flat.cpu)}`,
      met: results.flat.ratio >= 0.5 && results.flat.errors === 0,
    },
    {
      name: `Share judged at a steady ${results.steady.rate} a second for ${results.steady.seconds} s (target: every exchange)`,
      value: `${pct(results.steady.share)} of ${results.steady.passed} (${results.steady.sampling})`,
      met: results.steady.share >= 0.999,
    },
    {
      name: `p99 added at 50 connections, a steady ${results.latency.rate} a second (target ≤ 5 ms)`,
      value: `${results.latency.addedP99Ms.toFixed(1)} ms (p99 ${results.latency.proxiedP99Ms.toFixed(1)} ms through the proxy, ${results.latency.directP99Ms.toFixed(1)} ms direct; p50 ${results.latency.proxiedP50Ms.toFixed(2)} and ${results.latency.directP50Ms.toFixed(2)} ms; ${results.latency.answers} answers each way)`,
      met: results.latency.addedP99Ms <= 5 && results.latency.errors === 0,
    },
    {
      name: 'Slowest answer at 500 connections flat out (target: no multi-second stall)',
      value: `${ms(results.stalls.proxiedMaxMs)} through the proxy (p99 ${ms(results.stalls.proxiedP99Ms)}; a connection's first answer at most ${ms(results.stalls.proxiedFirstMaxMs)}), ${ms(results.stalls.directMaxMs)} direct (p99 ${ms(results.stalls.directP99Ms)}; first answer at most ${ms(results.stalls.directFirstMaxMs)}); ${results.stalls.errors} errors, ${results.stalls.non2xx} non-2xx`,
      met: results.stalls.proxiedMaxMs < 2_000 && results.stalls.errors === 0 && results.stalls.non2xx === 0,
    },
    {
      name: "The proxy's peak memory (target ≤ 300 MiB)",
      value: `${results.peakMiB} MiB (flat out at 10, steady, 50 and 500 connections: ${results.peaksMiB.join(', ')} MiB)`,
      met: results.peakMiB <= 300,
    },
    {
      name: "The proxy's verdicts on the reference's traffic",
      value: results.verdicts.join('; '),
      met: results.verdicts.every((verdict) => verdict.startsWith('NO VIOLATIONS')),
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const results = await measureProxyLoad(
    quick
      ? { ...LOAD_SIZES, flatSeconds: 3, flatRounds: 1, steadySeconds: 10, latencySeconds: 3, latencyRounds: 1, stallSeconds: 3 }
      : LOAD_SIZES,
  );
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  for (const target of proxyLoadTargets(results))
    process.stdout.write(`${target.met ? 'met' : 'NOT MET'}: ${target.name}: ${target.value}\n`);
}
