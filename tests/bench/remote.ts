// The remote case of the benchmark: the suite's users wait on a network, not on loopback. The
// reference runs in this process behind a latency proxy (latency-proxy.ts) at 20, 50 and 150 ms a
// request, and each default run is set beside its floor: its requests × the latency ÷ MAX_IN_FLIGHT
// (the least time that many requests can take when at most that many wait together), plus a trivial
// Playwright run. Beside them: the same run over loopback, the run one request at a time
// (MAX_IN_FLIGHT=1, the suite's behaviour before requests went together), and at 50 ms a run against
// a target with one fault beside a clean one.
import { createServer } from '../../reference/server.ts';
import { findFault, type Fault } from '../../reference/faults/catalog.ts';
import { DEFAULT_MAX_IN_FLIGHT } from '../../core/run/config.ts';
import { REMOTE_WORKERS } from '../../core/run/budget-plan.ts';
import { startLatencyProxy } from './latency-proxy.ts';
import { timeSuiteRun, type SuiteRun } from './processes.ts';
import { median, ratio, seconds, times } from './stats.ts';
import type { Target } from './render.ts';

const LATENCIES_MS = [20, 50, 150] as const;
/** The latency the targets are judged at: a staging deployment in another region. */
const JUDGED_LATENCY_MS = 50;

interface RemoteRun {
  totalMs: number;
  requests: number;
  /** The most requests the proxy held at once. */
  mostInFlight: number;
}

export interface RemoteResults {
  maxInFlight: number;
  workers: number;
  loopback: RemoteRun;
  /** The embedded reference, default and one request at a time: over loopback the suite must be no slower than before. */
  embedded: { concurrent: number; oneAtATime: number };
  byLatency: Array<RemoteRun & { latencyMs: number; floorMs: number; floorRatio: number; loopbackRatio: number }>;
  /** At JUDGED_LATENCY_MS, one request at a time and one worker. */
  oneAtATime: RemoteRun;
  /** At JUDGED_LATENCY_MS, a clean target and targets with one fault. */
  failing: { clean: RemoteRun; faults: Array<RemoteRun & { fault: string; timeRatio: number; requestsRatio: number }> };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

type Measure = (env?: Record<string, string>, expectedExit?: number) => Promise<RemoteRun>;

/** A reference in this process with `fault`, behind a proxy adding `latencyMs` (none at 0): how to time a run against it. */
async function target(
  fault: Fault | undefined,
  latencyMs: number,
  calls: number,
): Promise<{ measure: Measure; close: () => Promise<void> }> {
  const server = createServer({ calls, ...(fault && { fault }) });
  const base = await server.listen(0);
  const proxy = latencyMs > 0 ? await startLatencyProxy(base, latencyMs) : undefined;
  const measure: Measure = async (env = {}, expectedExit = 0) => {
    proxy?.reset();
    const run: SuiteRun = await timeSuiteRun(calls, proxy?.base ?? base, expectedExit, { env });
    return { totalMs: run.totalMs, requests: run.requests, mostInFlight: proxy?.mostInFlight() ?? 0 };
  };
  return {
    measure,
    close: async () => {
      await proxy?.close();
      await server.close();
    },
  };
}

const medianRun = (runs: RemoteRun[]): RemoteRun => ({
  totalMs: median(runs.map((run) => run.totalMs)),
  requests: median(runs.map((run) => run.requests)),
  mostInFlight: Math.max(...runs.map((run) => run.mostInFlight)),
});

/**
 * `unchanged` is the fault that changes nothing (bench.ts): the clean run answers through the faulty
 * references' path, so the comparison is about the suite, not the target's own speed.
 */
export async function measureRemote(
  runs: number,
  calls: number,
  trivialMs: number,
  unchanged: Fault,
  failingFaults: readonly string[],
): Promise<RemoteResults> {
  const loopback: RemoteRun[] = [];
  const embedded = { concurrent: [] as number[], oneAtATime: [] as number[] };
  const byLatency = new Map<number, RemoteRun[]>(LATENCIES_MS.map((latency) => [latency, []]));
  const oneAtATime: RemoteRun[] = [];
  const clean: RemoteRun[] = [];
  const faulty: RemoteRun[][] = failingFaults.map(() => []);

  const plain = await target(undefined, 0, calls);
  const delayed = await Promise.all(LATENCIES_MS.map((latency) => target(undefined, latency, calls)));
  const judged = await Promise.all(
    [unchanged, ...failingFaults.map((name) => findFault(name)!)].map((fault) => target(fault, JUDGED_LATENCY_MS, calls)),
  );
  try {
    // Interleaved, so that drift of the machine hits every kind of run alike.
    for (let run = 1; run <= runs; run += 1) {
      log(`remote: over loopback, and the embedded reference with and without requests in flight together (${run}/${runs})`);
      loopback.push(await plain.measure());
      embedded.concurrent.push((await timeSuiteRun(calls)).totalMs);
      embedded.oneAtATime.push((await timeSuiteRun(calls, undefined, 0, { env: { MAX_IN_FLIGHT: '1' } })).totalMs);
      for (const [index, latency] of LATENCIES_MS.entries()) {
        log(`remote: ${latency} ms a request (${run}/${runs})`);
        byLatency.get(latency)!.push(await delayed[index]!.measure());
      }
      log(`remote: ${JUDGED_LATENCY_MS} ms, one request at a time (${run}/${runs})`);
      oneAtATime.push(await delayed[LATENCIES_MS.indexOf(JUDGED_LATENCY_MS)]!.measure({ MAX_IN_FLIGHT: '1' }));
      log(`remote: ${JUDGED_LATENCY_MS} ms, a clean target and one with each of ${failingFaults.join(', ')} (${run}/${runs})`);
      clean.push(await judged[0]!.measure());
      for (const [index, fault] of judged.slice(1).entries()) faulty[index]!.push(await fault.measure({}, 1));
    }
  } finally {
    await Promise.all([plain, ...delayed, ...judged].map((server) => server.close()));
  }

  const loopbackRun = medianRun(loopback);
  const cleanRun = medianRun(clean);
  return {
    maxInFlight: DEFAULT_MAX_IN_FLIGHT,
    workers: Math.min(REMOTE_WORKERS, DEFAULT_MAX_IN_FLIGHT),
    loopback: loopbackRun,
    embedded: { concurrent: median(embedded.concurrent), oneAtATime: median(embedded.oneAtATime) },
    byLatency: LATENCIES_MS.map((latencyMs) => {
      const run = medianRun(byLatency.get(latencyMs)!);
      const floorMs = (run.requests * latencyMs) / DEFAULT_MAX_IN_FLIGHT + trivialMs;
      return {
        latencyMs,
        ...run,
        floorMs,
        floorRatio: ratio(run.totalMs, floorMs),
        loopbackRatio: ratio(run.totalMs, loopbackRun.totalMs),
      };
    }),
    oneAtATime: medianRun(oneAtATime),
    failing: {
      clean: cleanRun,
      faults: failingFaults.map((fault, index) => {
        const run = medianRun(faulty[index]!);
        return { fault, ...run, timeRatio: ratio(run.totalMs, cleanRun.totalMs), requestsRatio: ratio(run.requests, cleanRun.requests) };
      }),
    },
  };
}

export function remoteTargets(remote: RemoteResults): Target[] {
  const judged = remote.byLatency.find((run) => run.latencyMs === JUDGED_LATENCY_MS)!;
  const requestsRatio = ratio(judged.requests, remote.oneAtATime.requests);
  const most = Math.max(
    ...remote.byLatency.map((run) => run.mostInFlight),
    ...remote.failing.faults.map((run) => run.mostInFlight),
    remote.failing.clean.mostInFlight,
  );
  const worst = (key: 'timeRatio' | 'requestsRatio') =>
    remote.failing.faults.reduce((found, fault) => (fault[key] > found[key] ? fault : found));
  const embeddedRatio = ratio(remote.embedded.concurrent, remote.embedded.oneAtATime);
  return [
    {
      name: `At ${JUDGED_LATENCY_MS} ms a request, within 1.5x of the same run over loopback`,
      value: times(judged.loopbackRatio),
      met: judged.loopbackRatio <= 1.5,
    },
    { name: `At ${JUDGED_LATENCY_MS} ms a request, within 2x of its floor`, value: times(judged.floorRatio), met: judged.floorRatio <= 2 },
    {
      name: `At ${JUDGED_LATENCY_MS} ms, requests within 5% of one request at a time`,
      value: times(requestsRatio),
      met: Math.abs(requestsRatio - 1) <= 0.05,
    },
    {
      name: `Never more than MAX_IN_FLIGHT (${remote.maxInFlight}) requests in flight`,
      value: String(most),
      met: most <= remote.maxInFlight,
    },
    {
      name: `At ${JUDGED_LATENCY_MS} ms, a run against one fault within 1.5x of a clean run in time`,
      value: `${times(worst('timeRatio').timeRatio)} (${worst('timeRatio').fault})`,
      met: worst('timeRatio').timeRatio <= 1.5,
    },
    {
      name: `At ${JUDGED_LATENCY_MS} ms, a run against one fault within 1.5x of a clean run in requests`,
      value: `${times(worst('requestsRatio').requestsRatio)} (${worst('requestsRatio').fault})`,
      met: worst('requestsRatio').requestsRatio <= 1.5,
    },
    // Noise on these machines is a few percent; more than 10% slower would be the change's, not the machine's.
    { name: 'Over loopback, no slower than one request at a time', value: times(embeddedRatio), met: embeddedRatio <= 1.1 },
  ];
}

export function renderRemote(remote: RemoteResults): string[] {
  const count = (value: number) => Math.round(value).toLocaleString('en');
  return [
    `**Remote targets** (the reference behind a proxy that holds each request for the latency shown; default run, ${remote.workers} workers, MAX_IN_FLIGHT ${remote.maxInFlight}; the floor is the run's requests × the latency ÷ MAX_IN_FLIGHT, plus a trivial Playwright run):`,
    '',
    '| Latency | Total | Floor | Over floor | Over loopback | Requests | Most in flight |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| loopback | ${seconds(remote.loopback.totalMs)} | | | | ${count(remote.loopback.requests)} | |`,
    ...remote.byLatency.map(
      (run) =>
        `| ${run.latencyMs} ms | ${seconds(run.totalMs)} | ${seconds(run.floorMs)} | ${times(run.floorRatio)} | ${times(run.loopbackRatio)} | ${count(run.requests)} | ${run.mostInFlight} |`,
    ),
    `| ${JUDGED_LATENCY_MS} ms, MAX_IN_FLIGHT=1 | ${seconds(remote.oneAtATime.totalMs)} | | | | ${count(remote.oneAtATime.requests)} | ${remote.oneAtATime.mostInFlight} |`,
    '',
    `The embedded reference over loopback: ${seconds(remote.embedded.concurrent)} by default, ${seconds(remote.embedded.oneAtATime)} with MAX_IN_FLIGHT=1.`,
    '',
    `At ${JUDGED_LATENCY_MS} ms, a target with one fault beside a clean one (clean: ${seconds(remote.failing.clean.totalMs)}, ${count(remote.failing.clean.requests)} requests):`,
    '',
    '| Fault | Total | Requests | Time | Requests |',
    '|---|---:|---:|---:|---:|',
    ...remote.failing.faults.map(
      (run) =>
        `| \`${run.fault}\` | ${seconds(run.totalMs)} | ${count(run.requests)} | ${times(run.timeRatio)} | ${times(run.requestsRatio)} |`,
    ),
    '',
  ];
}
