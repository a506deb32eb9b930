// `npm run bench [-- --runs N] [--skip-detection] [--remote-only] [--clients-only] [--living-only] [--old-answers-only] [--passive-only] [--proxy-only] [--answer-size-only] [--diff-faults-only] [--diff-only] [--write-docs]`: the benchmark. It measures,
// in one run and as medians over N runs: the time to a default verdict and its parts, against the
// floor (the same number of requests from autocannon plus a trivial Playwright run) and against the
// suite's shape (its tests and requests through the request context, checking nothing); the same run
// against 1,000 and 200,000 calls; a run against a target with one fault beside a clean one;
// detection per fault (the kill matrix, whose full runs also give each fault's requests and time
// beside the clean reference's); remote targets, behind a latency proxy (remote.ts); the CPU a request
// costs by HTTP client (clients.ts); runs against the reference living beside standing still (living.ts); one answer
// judged against its size, 1,000 to 100,000 participant entries (answer-size.ts); and the reference against Stoplight Prism's mock of the same
// OpenAPI document. It writes bench-results/bench.json and
// bench-results/bench.md, and with --write-docs puts the table into docs/speed.md (--write-readme, its
// name from when the table was in the README, still works).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { createServer } from '../../reference/server.ts';
import { findFault, type Fault } from '../../reference/faults/catalog.ts';
import type { MatrixRow } from '../faults/kill-matrix.ts';
import { freeLoopbackPort } from '../runner/run-suite.ts';
import { readOperations, sendFor, timeAmount, type LoadResult } from './load.ts';
import {
  PROJECT_ROOT,
  startPrism,
  startReference,
  timeKillMatrix,
  timeShapedPlaywrightRun,
  timeSuiteRun,
  timeTrivialPlaywrightRun,
  type SuiteRun,
} from './processes.ts';
import { renderMarkdown, SPEED_DOC, writeDocSection, type BenchResults, type Target } from './render.ts';
import { measureRemote, remoteTargets, renderRemote } from './remote.ts';
import { measureClients, renderClients } from './clients.ts';
import { median, percentile, ratio } from './stats.ts';
import { livingTargets, measureLiving, renderLiving } from './living.ts';
import { measureOldAnswers, oldAnswersTargets, renderOldAnswers } from './old-answers.ts';
import { measurePassive, passiveTargets, renderPassive } from './passive.ts';
import { measureProxy, proxyTargets, renderProxy } from './proxy.ts';
import { measureProxyLoad, proxyLoadTargets } from './proxy-load.ts';
import { judgeSpeedTarget, measureJudgeSpeedOnThread } from './judge-speed.ts';
import { answerSizeTargets, measureAnswerSize, renderAnswerSize } from './answer-size.ts';
import { readOptions } from '../../core/run/read-options.ts';
import { measureDiffFaults, renderDiffFaults, writeDiffFaultsSection } from './diff-faults.ts';
import { diffTargets, measureDiffCost, renderDiffCost } from './diff-cost.ts';

const SMALL = 1_000;
const LARGE = 200_000;
const PEER_SECONDS = 3;
const OUT_DIR = join(PROJECT_ROOT, 'bench-results');
const MATRIX_FILE = join(PROJECT_ROOT, 'kill-matrix', 'kill-matrix.json');
/**
 * Faults a failing run is timed against: one that breaks a call invariant of some calls, one that
 * breaks every page past the first. Each fails a test or two of its own; the rest of the run must
 * cost what a passing run does.
 */
const FAILING_FAULTS = ['minutes-of-initiator-only', 'page-echoed-first-page-served'];

interface Options {
  runs: number;
  detection: boolean;
  writeDocs: boolean;
  /** Only the remote case: bench-results/remote.json, docs/speed.md untouched. */
  remoteOnly: boolean;
  /** Only the CPU per request by client: bench-results/clients.json, docs/speed.md untouched. */
  clientsOnly: boolean;
  /** Only runs against the reference standing still and living: bench-results/living.json, docs/speed.md untouched. */
  livingOnly: boolean;
  /** Only runs against the reference living and answering old (old-answers.ts): bench-results/old-answers.json, docs/speed.md untouched. */
  oldAnswersOnly: boolean;
  /** Only the judging of a 1 GiB HAR (passive.ts): bench-results/passive.json, docs/speed.md untouched. */
  passiveOnly: boolean;
  /** Only what the judging proxy adds per exchange: bench-results/proxy.json, docs/speed.md untouched. */
  proxyOnly: boolean;
  /** Only one answer judged against its size (answer-size.ts): bench-results/answer-size.json, docs/speed.md untouched. */
  answerSizeOnly: boolean;
  /** Only the diff against each catalog fault (diff-faults.ts): bench-results/diff-faults.json, with --write-docs docs/diff.md's table. */
  diffFaultsOnly: boolean;
  /** Only the diff against itself and its cost (diff-cost.ts): bench-results/diff.json, docs/speed.md untouched. */
  diffOnly: boolean;
  /** Say what would be measured and written, and measure nothing (how the self-tests run every documented bench command). */
  plan: boolean;
}

/** Requests each client sends per run (clients.ts). */
const CLIENT_REQUESTS = 600;

const USAGE =
  'Usage: npm run bench -- [--runs N] [--skip-detection] [--remote-only] [--clients-only] [--living-only] [--old-answers-only] [--passive-only] [--proxy-only] [--answer-size-only] [--diff-faults-only] [--diff-only] [--write-docs] [--plan]';

function parseOptions(argv: string[]): Options {
  const flag = { type: 'boolean', default: false } as const;
  const read = readOptions({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      'skip-detection': flag,
      'write-docs': flag,
      // Its name from when the table was in the README.
      'write-readme': flag,
      'remote-only': flag,
      'clients-only': flag,
      'living-only': flag,
      'old-answers-only': flag,
      'passive-only': flag,
      'proxy-only': flag,
      'answer-size-only': flag,
      'diff-faults-only': flag,
      'diff-only': flag,
      plan: flag,
    },
    strict: true,
  });
  if (read.refusal !== undefined) refuse(read.refusal);
  const { values } = read.parsed;
  if (!/^[1-9]\d*$/.test(values.runs)) refuse(`--runs takes a whole number of 1 or more (got "${values.runs}")`);
  return {
    runs: Number(values.runs),
    detection: !values['skip-detection'],
    writeDocs: values['write-docs'] || values['write-readme'],
    remoteOnly: values['remote-only'],
    clientsOnly: values['clients-only'],
    livingOnly: values['living-only'],
    oldAnswersOnly: values['old-answers-only'],
    passiveOnly: values['passive-only'],
    proxyOnly: values['proxy-only'],
    answerSizeOnly: values['answer-size-only'],
    diffFaultsOnly: values['diff-faults-only'],
    diffOnly: values['diff-only'],
    plan: values.plan,
  };
}

function refuse(problem: string): never {
  process.stderr.write(`bench: ${problem}\n${USAGE}\n`);
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function repeat<T>(runs: number, label: string, measure: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let run = 1; run <= runs; run += 1) {
    log(`${label} (${run}/${runs})`);
    results.push(await measure());
  }
  return results;
}

const summarize = (runs: SuiteRun[]) => ({
  totalMs: median(runs.map((run) => run.totalMs)),
  toBeginMs: median(runs.map((run) => run.toBeginMs)),
  toFirstTestMs: median(runs.map((run) => run.toFirstTestMs)),
  testsMs: median(runs.map((run) => run.testsMs)),
  requests: median(runs.map((run) => run.requests)),
  tests: median(runs.map((run) => run.tests)),
});

/** What a bench command would do, in a few lines: the part it measures, how often, and what it writes. */
function planOf(options: Options): string {
  const only = (
    [
      ['remoteOnly', 'the remote case (a target behind a proxy adding latency)', 'bench-results/remote.json'],
      ['clientsOnly', 'the CPU a request costs by HTTP client', 'bench-results/clients.json'],
      ['livingOnly', 'runs against the reference standing still and living', 'bench-results/living.json'],
      [
        'oldAnswersOnly',
        'runs against the reference living, answering fresh and old (a list cache, a replica behind), clean and failing',
        'bench-results/old-answers.json',
      ],
      ['passiveOnly', 'the judging of a 1 GiB HAR file', 'bench-results/passive.json'],
      [
        'proxyOnly',
        "the judge's speed, the judging proxy under load (throughput against direct, share judged, p99 added, slowest answer, peak memory) and what it adds per exchange",
        'bench-results/proxy.json',
      ],
      [
        'answerSizeOnly',
        'one answer judged against its size (1,000, 10,000 and 100,000 participant entries, passive mode)',
        'bench-results/answer-size.json',
      ],
      [
        'diffFaultsOnly',
        'the diff against every catalog fault, with writes for those of mark-unread',
        'bench-results/diff-faults.json (with --write-docs, the table of docs/diff.md too)',
      ],
      [
        'diffOnly',
        'the diff of the reference against itself, ten seeds standing and living, and its cost beside a conformance run',
        'bench-results/diff.json',
      ],
    ] as const
  ).find(([flag]) => options[flag]);
  const part = only
    ? `part: ${only[1]}`
    : `parts: time to verdict and at scale, failing runs, the floor, the remote case, the suite's shape, clients, living, one answer against its size, the Prism peer, the diff against itself, the diff's fault sweep${options.detection ? ', the kill matrix' : ''}`;
  const writes = only ? only[2] : `bench-results/bench.json and bench.md${options.writeDocs ? ' and the tables of docs/speed.md' : ''}`;
  return [`bench plan: ${part}`, `runs: ${options.runs}`, `writes: ${writes}`].join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.plan) return void process.stdout.write(`${planOf(options)}\n`);
  const startedAt = new Date().toISOString();
  if (options.remoteOnly) return benchRemoteOnly(options);
  if (options.clientsOnly) return benchClientsOnly(options);
  if (options.livingOnly) return benchLivingOnly(options);
  if (options.oldAnswersOnly) return benchOldAnswersOnly(options);
  if (options.passiveOnly) return benchPassiveOnly();
  if (options.proxyOnly) return benchProxyOnly(options);
  if (options.answerSizeOnly) return benchAnswerSizeOnly(options);
  if (options.diffFaultsOnly) return benchDiffFaultsOnly(options);
  if (options.diffOnly) return benchDiffOnly();

  // Time to verdict, and the same run at scale, interleaved so that drift of the machine hits both.
  // At scale, twice: with the embedded reference (which builds the larger data set first) and against
  // references already running, which times the suite alone: it samples, so its cost must stay flat.
  const small: SuiteRun[] = [];
  const large: SuiteRun[] = [];
  const smallRunning: SuiteRun[] = [];
  const largeRunning: SuiteRun[] = [];
  const running = { small: await startReference(SMALL), large: await startReference(LARGE) };
  try {
    await Promise.all([firstSessionId(running.small.base), firstSessionId(running.large.base)]);
    for (let run = 1; run <= options.runs; run += 1) {
      log(`conformance run against ${SMALL} calls (${run}/${options.runs})`);
      small.push(await timeSuiteRun(SMALL));
      log(`conformance run against ${LARGE} calls (${run}/${options.runs})`);
      large.push(await timeSuiteRun(LARGE));
      log(`conformance runs against running references of ${SMALL} and ${LARGE} calls (${run}/${options.runs})`);
      smallRunning.push(await timeSuiteRun(SMALL, running.small.base));
      largeRunning.push(await timeSuiteRun(LARGE, running.large.base));
    }
  } finally {
    await Promise.all([running.small.stop(), running.large.stop()]);
  }
  const verdict = summarize(small);
  const scale = summarize(large);
  const suiteAlone = { small: summarize(smallRunning), large: summarize(largeRunning) };
  const failing = await measureFailingRuns(options.runs);

  // The floor: a trivial Playwright run, the reference's start-up, and the suite's number of requests from autocannon.
  const trivialMs = median(await repeat(options.runs, 'trivial Playwright run', timeTrivialPlaywrightRun));
  const referenceStarts: number[] = [];
  const floorLoads: LoadResult[] = [];
  for (let run = 1; run <= options.runs; run += 1) {
    log(`reference start-up and autocannon with ${verdict.requests} requests (${run}/${options.runs})`);
    const reference = await startReference(SMALL);
    referenceStarts.push(reference.startupMs);
    try {
      const sessionId = await firstSessionId(reference.base);
      floorLoads.push(await timeAmount(reference.base, readOperations(sessionId), Math.round(verdict.requests)));
    } finally {
      await reference.stop();
    }
  }
  const referenceStartMs = median(referenceStarts);
  const loadMs = median(floorLoads.map((load) => load.ms));
  const floorMs = trivialMs + referenceStartMs + loadMs;
  const remote = await measureRemote(options.runs, SMALL, trivialMs, UNCHANGED, FAILING_FAULTS);

  // The suite's shape: its tests and requests through the request context, checking nothing.
  const shapeReference = await startReference(SMALL);
  let shapeMs: number;
  try {
    shapeMs = median(
      await repeat(
        options.runs,
        `the suite's shape (${verdict.tests} tests, ${verdict.requests} requests) through the request context`,
        () => timeShapedPlaywrightRun(shapeReference.base, Math.round(verdict.tests), Math.round(verdict.requests)),
      ),
    );
  } finally {
    await shapeReference.stop();
  }
  const shapeTotalMs = shapeMs + referenceStartMs;
  const clients = await timeClients(options.runs);
  const living = await measureLiving(options.runs, SMALL);
  const answerSize = await measureAnswerSize(options.runs);
  const diff = await measureDiffCost(SMALL);

  // The reference against Prism, operation by operation, in the same run.
  log('the reference and the Prism mock, side by side');
  const reference = await startReference(SMALL);
  // Prism takes no port 0, so it gets one the system just gave back.
  const prism = await startPrism(await freeLoopbackPort());
  const peers: BenchResults['peers'] = [];
  try {
    const sessionId = await firstSessionId(reference.base);
    for (const operation of readOperations(sessionId)) {
      const referenceRuns: LoadResult[] = [];
      const prismRuns: LoadResult[] = [];
      for (let run = 1; run <= options.runs; run += 1) {
        log(`  ${operation.name} (${run}/${options.runs})`);
        referenceRuns.push(await sendFor(reference.base, operation, PEER_SECONDS));
        prismRuns.push(await sendFor(prism.base, operation, PEER_SECONDS));
      }
      peers.push({ operation: operation.name, reference: medianLoad(referenceRuns), prism: medianLoad(prismRuns) });
    }
  } finally {
    await Promise.all([reference.stop(), prism.stop()]);
  }

  const detection = await measureDetection(options.detection);
  const diffFaults = await measureDiffFaults(log);

  const results: BenchResults = {
    startedAt,
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: availableParallelism(),
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      os: `${process.platform} ${release()}`,
    },
    runs: options.runs,
    verdict: {
      ...verdict,
      requestsPerSecond: verdict.requests / (verdict.testsMs / 1000),
      referenceStartMs,
      runnerStartMs: verdict.toBeginMs - referenceStartMs,
    },
    floor: {
      trivialPlaywrightMs: trivialMs,
      referenceStartMs,
      autocannonMs: loadMs,
      totalMs: floorMs,
      ratio: ratio(verdict.totalMs, floorMs),
    },
    shape: {
      playwrightMs: shapeMs,
      totalMs: shapeTotalMs,
      ratio: ratio(verdict.totalMs, shapeTotalMs),
      floorRatio: ratio(shapeTotalMs, floorMs),
    },
    scale: {
      smallCalls: SMALL,
      largeCalls: LARGE,
      small: verdict,
      large: scale,
      embeddedTimeRatio: ratio(scale.totalMs, verdict.totalMs),
      suiteAlone,
      timeRatio: ratio(suiteAlone.large.totalMs, suiteAlone.small.totalMs),
      requestsRatio: ratio(suiteAlone.large.requests, suiteAlone.small.requests),
    },
    failing,
    remote,
    clients,
    living,
    answerSize,
    diff,
    detection,
    diffFaults,
    peers,
  };
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = renderMarkdown(results);
  writeFileSync(join(OUT_DIR, 'bench.md'), markdown);
  process.stdout.write(markdown);
  if (options.writeDocs) writeDocSection(join(PROJECT_ROOT, SPEED_DOC), results);
  if (options.writeDocs) writeDiffFaultsSection(join(PROJECT_ROOT, 'docs', 'diff.md'), diffFaults);
}

async function benchDiffFaultsOnly(options: Options): Promise<void> {
  const sweep = await measureDiffFaults(log);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'diff-faults.json'), `${JSON.stringify(sweep, null, 2)}\n`);
  process.stdout.write(`${renderDiffFaults(sweep).join('\n')}\n`);
  if (options.writeDocs) writeDiffFaultsSection(join(PROJECT_ROOT, 'docs', 'diff.md'), sweep);
}

async function benchRemoteOnly(options: Options): Promise<void> {
  const trivialMs = median(await repeat(options.runs, 'trivial Playwright run', timeTrivialPlaywrightRun));
  const remote = await measureRemote(options.runs, SMALL, trivialMs, UNCHANGED, FAILING_FAULTS);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'remote.json'), `${JSON.stringify({ trivialMs, remote }, null, 2)}\n`);
  const markdown = [...targetTable(remoteTargets(remote)), '', ...renderRemote(remote)].join('\n');
  process.stdout.write(`${markdown}\n`);
}

async function benchLivingOnly(options: Options): Promise<void> {
  const living = await measureLiving(options.runs, SMALL);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'living.json'), `${JSON.stringify(living, null, 2)}\n`);
  const markdown = [...targetTable(livingTargets(living)), '', ...renderLiving(living)].join('\n');
  process.stdout.write(`${markdown}\n`);
}

async function benchOldAnswersOnly(options: Options): Promise<void> {
  const old = await measureOldAnswers(options.runs, SMALL);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'old-answers.json'), `${JSON.stringify(old, null, 2)}\n`);
  process.stdout.write(`${[...targetTable(oldAnswersTargets(old)), '', ...renderOldAnswers(old)].join('\n')}\n`);
}

async function benchPassiveOnly(): Promise<void> {
  const passive = await measurePassive();
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'passive.json'), `${JSON.stringify(passive, null, 2)}\n`);
  process.stdout.write(`${[...targetTable(passiveTargets(passive)), '', ...renderPassive(passive)].join('\n')}\n`);
}

async function benchProxyOnly(options: Options): Promise<void> {
  // The judge's own speed on one thread, then the proxy under load, then what it adds one exchange at a time.
  const judge = await measureJudgeSpeedOnThread();
  const load = await measureProxyLoad();
  const proxy = await measureProxy(options.runs);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'proxy.json'), `${JSON.stringify({ judge, load, ...proxy }, null, 2)}\n`);
  const targets = [judgeSpeedTarget(judge), ...proxyLoadTargets(load), ...proxyTargets(proxy)];
  process.stdout.write(`${[...targetTable(targets), '', ...renderProxy(proxy)].join('\n')}\n`);
}

async function benchAnswerSizeOnly(options: Options): Promise<void> {
  const answerSize = await measureAnswerSize(options.runs);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'answer-size.json'), `${JSON.stringify(answerSize, null, 2)}\n`);
  process.stdout.write(`${[...targetTable(answerSizeTargets(answerSize)), '', ...renderAnswerSize(answerSize)].join('\n')}\n`);
}

async function benchDiffOnly(): Promise<void> {
  const diff = await measureDiffCost(SMALL);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'diff.json'), `${JSON.stringify(diff, null, 2)}\n`);
  process.stdout.write(`${[...targetTable(diffTargets(diff)), '', ...renderDiffCost(diff)].join('\n')}\n`);
}

/** The targets of a partial bench as a table, each marked met or missed. */
const targetTable = (targets: Target[]) => [
  '| Target | Measured | |',
  '|---|---:|---|',
  ...targets.map((target) => `| ${target.name} | ${target.value} | ${target.met ? 'met' : '**missed**'} |`),
];

/** The CPU a request costs by client, against a reference of its own. */
async function timeClients(runs: number) {
  log(`CPU per request by HTTP client (${runs} runs of ${CLIENT_REQUESTS} requests each)`);
  const reference = await startReference(SMALL);
  try {
    return await measureClients(reference.base, CLIENT_REQUESTS, runs);
  } finally {
    await reference.stop();
  }
}

async function benchClientsOnly(options: Options): Promise<void> {
  const clients = await timeClients(options.runs);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'clients.json'), `${JSON.stringify(clients, null, 2)}\n`);
  process.stdout.write(`${renderClients(clients).join('\n')}\n`);
}

const medianLoad = (runs: LoadResult[]) => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  latencyP50Ms: median(runs.map((run) => run.latencyP50Ms)),
  latencyP99Ms: median(runs.map((run) => run.latencyP99Ms)),
  errors: runs.reduce((sum, run) => sum + run.errors, 0),
});

async function firstSessionId(base: string): Promise<string> {
  const response = await fetch(`${base}/calls?perPage=1`, { headers: { apikey: DEMO_KEYS.fullAccess } });
  const body = (await response.json()) as { data?: Array<{ sessionId?: string }> };
  const id = body.data?.[0]?.sessionId;
  if (!id) throw new Error(`the reference at ${base} listed no call`);
  return id;
}

/**
 * A fault that changes nothing, but takes the reference off the path where it writes each page from
 * calls serialized once: a faulty reference answers more slowly than the clean one, and the target's
 * own speed is not what the comparison is about. The clean run goes through the same path.
 */
const UNCHANGED: Fault = {
  name: 'unchanged',
  description: 'Shows every call as it is.',
  requirements: [],
  hooks: () => ({ showCall: (call) => call }),
};

/** A run against the reference with one fault, beside a run against the clean reference, interleaved; all in this process, already running. */
async function measureFailingRuns(runs: number): Promise<BenchResults['failing']> {
  const servers = [UNCHANGED, ...FAILING_FAULTS.map((name) => findFault(name)!)].map((fault) => createServer({ calls: SMALL, fault }));
  const [clean, ...faulty] = await Promise.all(servers.map(async (server) => ({ base: await server.listen(0) })));
  try {
    const cleanRuns: SuiteRun[] = [];
    const faultyRuns: SuiteRun[][] = FAILING_FAULTS.map(() => []);
    for (let run = 1; run <= runs; run += 1) {
      log(`a clean run and a run against each of ${FAILING_FAULTS.join(', ')} (${run}/${runs})`);
      cleanRuns.push(await timeSuiteRun(SMALL, clean!.base));
      for (const [index, server] of faulty.entries()) faultyRuns[index]!.push(await timeSuiteRun(SMALL, server.base, 1));
    }
    const cleanPhases = summarize(cleanRuns);
    return {
      clean: cleanPhases,
      faults: FAILING_FAULTS.map((fault, index) => {
        const phases = summarize(faultyRuns[index]!);
        return {
          fault,
          ...phases,
          timeRatio: ratio(phases.totalMs, cleanPhases.totalMs),
          requestsRatio: ratio(phases.requests, cleanPhases.requests),
        };
      }),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

async function measureDetection(run: boolean): Promise<BenchResults['detection']> {
  let matrixMs: number | undefined;
  if (run) {
    log('the kill matrix (every fault of the catalog)');
    const matrix = await timeKillMatrix();
    if (matrix.code !== 0) log(`the kill matrix exited ${matrix.code}; see kill-matrix/kill-matrix.md`);
    matrixMs = matrix.ms;
  }
  if (!existsSync(MATRIX_FILE)) return undefined;
  const all = (JSON.parse(readFileSync(MATRIX_FILE, 'utf8')) as { rows: MatrixRow[] }).rows;
  const rows = all.filter((row) => row.expected === 'fail');
  const requests = rows.flatMap((row) => (row.requestsToDetect === null ? [] : [row.requestsToDetect]));
  const runMs = rows.map((row) => row.seconds * 1000);
  // Each faulty run beside the clean reference's on the same data seed and readings, in the same matrix.
  const cleanOf = (row: MatrixRow) =>
    all.find(
      (candidate) =>
        candidate.fault.startsWith('clean') &&
        candidate.readings === row.readings &&
        candidate.referenceSeed === row.referenceSeed &&
        candidate.live === row.live,
    );
  const paired = rows.flatMap((row) => {
    const clean = cleanOf(row);
    return clean ? [{ requests: ratio(row.requests, clean.requests), time: ratio(row.seconds, clean.seconds) }] : [];
  });
  return {
    measuredNow: run,
    matrixMs,
    faults: rows.length,
    caught: rows.filter((row) => row.outcome === 'killed').length,
    unjudged: rows.filter((row) => row.outcome === 'unjudged').map((row) => row.fault),
    requestsToDetect: { median: median(requests), p90: percentile(requests, 0.9), max: Math.max(...requests) },
    runMs: { median: median(runMs), p90: percentile(runMs, 0.9), max: Math.max(...runMs) },
    againstClean: {
      requests: { median: median(paired.map((pair) => pair.requests)), max: Math.max(...paired.map((pair) => pair.requests)) },
      time: { median: median(paired.map((pair) => pair.time)), max: Math.max(...paired.map((pair) => pair.time)) },
    },
    perFault: rows.map((row) => ({
      fault: row.fault,
      requestsToDetect: row.requestsToDetect,
      requests: row.requests,
      ms: row.seconds * 1000,
    })),
  };
}

await main();
