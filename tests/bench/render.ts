// The benchmark's results as a Markdown table, with each target of the issue marked met or missed,
// and the section of docs/speed.md it replaces between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { seconds, times } from './stats.ts';
import { remoteTargets, renderRemote, type RemoteResults } from './remote.ts';
import { renderClients, type ClientCost } from './clients.ts';
import { livingTargets, renderLiving, type LivingResults } from './living.ts';
import { answerSizeTargets, renderAnswerSize, type AnswerSizeResults } from './answer-size.ts';
import { diffFaultsTarget, type DiffFaultSweep } from './diff-faults.ts';
import { diffTargets, renderDiffCost, type DiffCostResults } from './diff-cost.ts';

interface PhaseTimes {
  totalMs: number;
  toBeginMs: number;
  toFirstTestMs: number;
  testsMs: number;
  requests: number;
  tests: number;
}

interface PeerLoad {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
}

export interface BenchResults {
  startedAt: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; os: string };
  runs: number;
  verdict: PhaseTimes & { requestsPerSecond: number; referenceStartMs: number; runnerStartMs: number };
  floor: { trivialPlaywrightMs: number; referenceStartMs: number; autocannonMs: number; totalMs: number; ratio: number };
  /** The suite's tests and requests through the request context, checking nothing, plus the reference's start-up. */
  shape: { playwrightMs: number; totalMs: number; ratio: number; floorRatio: number };
  scale: {
    smallCalls: number;
    largeCalls: number;
    /** With the embedded reference, which builds the data set first. */
    small: PhaseTimes;
    large: PhaseTimes;
    embeddedTimeRatio: number;
    /** Against references already running: the suite's own cost, which the targets judge. */
    suiteAlone: { small: PhaseTimes; large: PhaseTimes };
    timeRatio: number;
    requestsRatio: number;
  };
  /** Runs against a target with one fault beside runs against the clean one, both already running. */
  failing: {
    clean: PhaseTimes;
    faults: Array<PhaseTimes & { fault: string; timeRatio: number; requestsRatio: number }>;
  };
  /** The reference behind a latency proxy (remote.ts). */
  remote?: RemoteResults;
  /** The CPU a request costs by HTTP client (clients.ts). */
  clients?: ClientCost[];
  /** Runs against the reference standing still and living (living.ts). */
  living?: LivingResults;
  /** One answer judged against its size (answer-size.ts). */
  answerSize?: AnswerSizeResults;
  /** The diff against each catalog fault that changes a read; its table is docs/diff.md's. */
  diffFaults?: DiffFaultSweep;
  /** The diff against itself and its cost (diff-cost.ts). */
  diff?: DiffCostResults;
  detection?: {
    measuredNow: boolean;
    matrixMs?: number;
    faults: number;
    caught: number;
    /** Faults whose run left some other requirement in error. */
    unjudged: string[];
    requestsToDetect: { median: number; p90: number; max: number };
    /** Each faulty run, whole. */
    runMs: { median: number; p90: number; max: number };
    /** Each faulty run's requests and time over the clean reference's in the same matrix. */
    againstClean: { requests: { median: number; max: number }; time: { median: number; max: number } };
    perFault: Array<{ fault: string; requestsToDetect: number | null; requests: number; ms: number }>;
  };
  peers: Array<{ operation: string; reference: PeerLoad; prism: PeerLoad }>;
}

export const SECTION_START = '<!-- bench:start -->';
export const SECTION_END = '<!-- bench:end -->';
/** The page whose tables `npm run bench -- --write-docs` replaces, relative to the project. */
export const SPEED_DOC = 'docs/speed.md';

const mark = (met: boolean) => (met ? 'met' : '**missed**');
const count = (value: number) => Math.round(value).toLocaleString('en');
/** autocannon reports latencies in whole milliseconds. */
const ms = (value: number) => (value < 1 ? '<1 ms' : `${Math.round(value)} ms`);

export interface Target {
  name: string;
  value: string;
  met: boolean;
}

export function targetsOf(results: BenchResults): Target[] {
  const slowestPeer = results.peers.reduce(
    (worst, peer) => Math.min(worst, peer.reference.requestsPerSecond / peer.prism.requestsPerSecond),
    Number.POSITIVE_INFINITY,
  );
  return [
    { name: 'A default verdict in under 10 s', value: seconds(results.verdict.totalMs), met: results.verdict.totalMs < 10_000 },
    { name: 'Within 2x of the floor', value: times(results.floor.ratio), met: results.floor.ratio <= 2 },
    {
      name: `Time at ${count(results.scale.largeCalls)} calls within 1.2x of ${count(results.scale.smallCalls)}`,
      value: times(results.scale.timeRatio),
      met: results.scale.timeRatio <= 1.2,
    },
    {
      name: `Requests at ${count(results.scale.largeCalls)} calls within 1.2x of ${count(results.scale.smallCalls)}`,
      value: times(results.scale.requestsRatio),
      met: results.scale.requestsRatio <= 1.2,
    },
    {
      name: 'The reference ahead of the Prism mock on every operation',
      value: `${times(slowestPeer)} Prism's throughput at the closest`,
      met: slowestPeer > 1,
    },
    ...failingTargets(results),
    ...(results.remote ? remoteTargets(results.remote) : []),
    ...(results.living ? livingTargets(results.living) : []),
    ...(results.answerSize ? answerSizeTargets(results.answerSize) : []),
    ...(results.diffFaults ? [diffFaultsTarget(results.diffFaults)] : []),
    ...(results.diff ? diffTargets(results.diff) : []),
  ];
}

/** A run against a target with one fault costs what a clean run does: within 1.5x in time and in requests. */
function failingTargets(results: BenchResults): Target[] {
  const worst = (key: 'timeRatio' | 'requestsRatio') =>
    results.failing.faults.reduce((most, fault) => (fault[key] > most[key] ? fault : most));
  const time = worst('timeRatio');
  const requests = worst('requestsRatio');
  return [
    {
      name: 'A run against one fault within 1.5x of a clean run in time',
      value: `${times(time.timeRatio)} (${time.fault})`,
      met: time.timeRatio <= 1.5,
    },
    {
      name: 'A run against one fault within 1.5x of a clean run in requests',
      value: `${times(requests.requestsRatio)} (${requests.fault})`,
      met: requests.requestsRatio <= 1.5,
    },
  ];
}

export function renderMarkdown(results: BenchResults): string {
  const { machine, verdict, floor, scale, detection } = results;
  const lines = [
    `Measured ${results.startedAt.slice(0, 10)} on ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}; medians of ${results.runs} runs, all in one \`npm run bench\`.`,
    '',
    '| Target | Measured | |',
    '|---|---:|---|',
    ...targetsOf(results).map((target) => `| ${target.name} | ${target.value} | ${mark(target.met)} |`),
    '',
    '**Time to verdict** (a default run against the embedded reference, spawn to exit):',
    '',
    '| Part | Time |',
    '|---|---:|',
    `| Runner start-up (Playwright, loading the tests) | ${seconds(verdict.runnerStartMs)} |`,
    `| Reference start-up (measured alone) | ${seconds(verdict.referenceStartMs)} |`,
    `| Worker start-up and first fixtures | ${seconds(verdict.toFirstTestMs)} |`,
    `| Tests (${verdict.tests}) | ${seconds(verdict.testsMs)} |`,
    `| **Total** | **${seconds(verdict.totalMs)}** |`,
    '',
    `${count(verdict.requests)} requests, ${count(verdict.requestsPerSecond)} per second over the tests' time.`,
    '',
    `**Floor**: ${seconds(floor.totalMs)}: a trivial Playwright run ${seconds(floor.trivialPlaywrightMs)}, the reference's start-up ${seconds(floor.referenceStartMs)}, and the same ${count(verdict.requests)} requests from autocannon ${seconds(floor.autocannonMs)} (at the rate it reaches with the read operations mixed, over 4 connections). The suite takes ${times(floor.ratio)} the floor.`,
    '',
    `**The suite's shape through Playwright's request context**: ${seconds(results.shape.totalMs)}: ${verdict.tests} tests sending the same ${count(verdict.requests)} requests through the request context and checking nothing (${seconds(results.shape.playwrightMs)}), plus the reference's start-up. That alone is ${times(results.shape.floorRatio)} the floor${results.shape.floorRatio > 2 ? ', so no suite of this shape run through the request context can be within 2x of it' : ''}; the suite takes ${times(results.shape.ratio)} its shape, the rest being its checks, fixtures and properties.`,
    '',
    "**Scale** (the same default run; the targets judge the suite against references already running, since building the larger data set is the reference's cost, not the suite's):",
    '',
    '| Calls in the reference | Reference | Total | Start-up to first test | Tests | Requests |',
    '|---:|---|---:|---:|---:|---:|',
    ...(
      [
        [scale.smallCalls, 'already running', scale.suiteAlone.small],
        [scale.largeCalls, 'already running', scale.suiteAlone.large],
        [scale.smallCalls, 'embedded (built first)', scale.small],
        [scale.largeCalls, 'embedded (built first)', scale.large],
      ] as const
    ).map(
      ([calls, reference, run]) =>
        `| ${count(calls)} | ${reference} | ${seconds(run.totalMs)} | ${seconds(run.toBeginMs + run.toFirstTestMs)} | ${seconds(run.testsMs)} | ${count(run.requests)} |`,
    ),
    '',
    `With the embedded reference, the run at ${count(scale.largeCalls)} calls takes ${times(scale.embeddedTimeRatio)} the run at ${count(scale.smallCalls)}: the difference is the reference building and indexing the larger data set, which it does while the runner starts its worker.`,
    '',
    '**Failing runs** (a whole run against a reference with one fault, beside one against the clean reference answering through the same path, all already running):',
    '',
    '| Target | Total | Tests | Requests | Time | Requests |',
    '|---|---:|---:|---:|---:|---:|',
    `| clean | ${seconds(results.failing.clean.totalMs)} | ${count(results.failing.clean.tests)} | ${count(results.failing.clean.requests)} | | |`,
    ...results.failing.faults.map(
      (fault) =>
        `| \`${fault.fault}\` | ${seconds(fault.totalMs)} | ${count(fault.tests)} | ${count(fault.requests)} | ${times(fault.timeRatio)} | ${times(fault.requestsRatio)} |`,
    ),
    '',
  ];
  if (results.remote) lines.push(...renderRemote(results.remote));
  if (results.clients) lines.push(...renderClients(results.clients), '');
  if (results.living) lines.push(...renderLiving(results.living));
  if (results.answerSize) lines.push(...renderAnswerSize(results.answerSize), '');
  if (results.diff) lines.push(...renderDiffCost(results.diff));
  if (detection) {
    lines.push(
      `**Detection** (${detection.measuredNow ? 'the kill matrix run now' : 'from the last kill-matrix/kill-matrix.json'}): ${detection.caught} of ${detection.faults} fault runs that must fail were caught, each naming what it breaks and leaving no other requirement in error${detection.unjudged.length > 0 ? ` (left in error by: ${detection.unjudged.join(', ')})` : ''}${detection.matrixMs === undefined ? '' : `; the whole matrix took ${seconds(detection.matrixMs)}`}. Requests until the first test naming the fault ended: median ${count(detection.requestsToDetect.median)}, 90th percentile ${count(detection.requestsToDetect.p90)}, max ${count(detection.requestsToDetect.max)}. Each whole faulty run beside the clean reference's in the same matrix (two runs side by side on the machine): requests median ${times(detection.againstClean.requests.median)}, max ${times(detection.againstClean.requests.max)}; time median ${times(detection.againstClean.time.median)}, max ${times(detection.againstClean.time.max)}. Per fault: \`bench-results/bench.json\` and \`kill-matrix/kill-matrix.md\`.`,
      '',
    );
  }
  lines.push(
    '**The reference against the Prism mock** (autocannon, 10 connections, 3 s per operation and server):',
    '',
    '| Operation | Reference req/s | Prism req/s | Reference p50 / p99 | Prism p50 / p99 |',
    '|---|---:|---:|---:|---:|',
    ...results.peers.map(
      (peer) =>
        `| ${peer.operation} | ${count(peer.reference.requestsPerSecond)} | ${count(peer.prism.requestsPerSecond)} | ${ms(peer.reference.latencyP50Ms)} / ${ms(peer.reference.latencyP99Ms)} | ${ms(peer.prism.latencyP50Ms)} / ${ms(peer.prism.latencyP99Ms)} |`,
    ),
    '',
  );
  return `${lines.join('\n')}\n`;
}

export function writeDocSection(docPath: string, results: BenchResults): void {
  const doc = readFileSync(docPath, 'utf8');
  const start = doc.indexOf(SECTION_START);
  const end = doc.indexOf(SECTION_END);
  if (start < 0 || end < start) throw new Error(`${docPath} has no ${SECTION_START} … ${SECTION_END} section`);
  writeFileSync(docPath, `${doc.slice(0, start + SECTION_START.length)}\n${renderMarkdown(results)}${doc.slice(end)}`);
}
