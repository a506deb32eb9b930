// What judging recorded traffic costs (issue 29): a HAR of 1 GiB, made on disk (in os.tmpdir(),
// deleted afterwards) by repeating the exchanges of a real suite run against the reference, recorded
// on the wire; judged as `npm run conformance -- har` judges it, in a process of its own. Targets:
// its resident memory peak under 400 MiB, and its speed (exchanges judged a second) at least half
// the speed at which an active run judges the same exchanges (the run's exchanges over its time,
// from its first test to its end, against the embedded reference). The same exchanges are then
// written as 1 GiB captures off the path (an Envoy /tap stream, JSON Lines of exchanges) and judged
// the same way, one at a time: resident memory under 256 MiB each, and at least 1,000 exchanges
// judged a CPU-second (issue 58).
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS } from '../../reference/fixtures.ts';
import { harOf, startRecordingForwarder, type HarEntry } from '../passive/recording-forwarder.ts';
import { PROJECT_ROOT, timeSuiteRun } from './processes.ts';
import type { Target } from './render.ts';
import { coverageTarget, measureCoverageCost, type CoverageCost } from './coverage-cost.ts';
import { exchangeLine, tapTrace } from '../passive/capture-files.ts';
import { measureParseFloor, type ParseFloor } from './parse-floor.ts';

const PASSIVE_HAR_BYTES = 2 ** 30;
const MEMORY_TARGET_MIB = 400;
const SPEED_TARGET = 0.5;
const CAPTURE_MEMORY_TARGET_MIB = 256;
/** Issue 58: exchanges judged a CPU-second from a file, per core. */
const CAPTURE_SPEED_TARGET = 1_000;

/** The captures off the path, each written as its tool writes it: a pretty-printed trace after another, a line per exchange. */
const CAPTURES = {
  'Envoy /tap stream': (entry: HarEntry) => `${JSON.stringify(tapTrace(entry), null, 2)}\n`,
  'JSON Lines of exchanges': (entry: HarEntry) => `${JSON.stringify(exchangeLine(entry))}\n`,
} as const;
type CaptureShape = keyof typeof CAPTURES;

export interface PassiveResults {
  harBytes: number;
  recordedExchanges: number;
  active: { exchanges: number; testsMs: number; exchangesPerSecond: number };
  passive: {
    entries: number;
    exchanges: number;
    ms: number;
    /** CPU time of the judging process, its threads' included (passive-child.ts). */
    cpuMs: number;
    exchangesPerSecond: number;
    peakRssMiB: number;
    verdict: string;
  };
  speedRatio: number;
  /** What coverage cost the recorded run, against the active run's time. */
  coverage: CoverageCost;
  /** The same exchanges as captures off the path, each judged as the HAR was. */
  captures: Array<{ shape: CaptureShape; bytes: number; passive: PassiveResults['passive'] }>;
  /** Their bodies made text and parsed, nothing else: the floor under the captures' speed. */
  floor: ParseFloor;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The exchanges of one suite run against the reference, recorded on the wire. */
async function recordRun(): Promise<HarEntry[]> {
  const reference = createServer({ calls: DEFAULT_CALLS });
  const base = await reference.listen(0);
  const forwarder = await startRecordingForwarder(base);
  try {
    await timeSuiteRun(DEFAULT_CALLS, forwarder.base);
    return forwarder.entries;
  } finally {
    await forwarder.close();
    await reference.close();
  }
}

/** A HAR of at least `bytes`, the entries repeated in order; written as a stream, never held whole. */
async function writeLargeHar(path: string, entries: readonly HarEntry[], bytes: number): Promise<number> {
  const out = createWriteStream(path);
  const [head, tail] = JSON.stringify(harOf([])).split('[]');
  const texts = entries.map((entry) => JSON.stringify(entry));
  let written = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${head}[`);
  let first = true;
  while (written < bytes) {
    for (const text of texts) {
      await write(first ? text : `,${text}`);
      first = false;
    }
  }
  await write(`]${tail}`);
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

/** A capture of at least `bytes`, the entries repeated in order, each as `shape` writes it; written as a stream. */
async function writeLargeCapture(path: string, entries: readonly HarEntry[], bytes: number, shape: CaptureShape): Promise<number> {
  const out = createWriteStream(path);
  const texts = entries.map(CAPTURES[shape]);
  let written = 0;
  while (written < bytes)
    for (const text of texts) {
      written += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

/** Each capture shape written, judged in a child and deleted, one after another: one file on disk at a time. */
async function measureCaptures(entries: readonly HarEntry[]): Promise<PassiveResults['captures']> {
  const captures: PassiveResults['captures'] = [];
  for (const shape of Object.keys(CAPTURES) as CaptureShape[]) {
    const path = join(tmpdir(), `bench-passive-${process.pid}.capture`);
    try {
      log(`writing ${shape} of ${PASSIVE_HAR_BYTES} bytes, and judging it`);
      const bytes = await writeLargeCapture(path, entries, PASSIVE_HAR_BYTES, shape);
      captures.push({ shape, bytes, passive: await judgeInChild(path) });
    } finally {
      rmSync(path, { force: true });
    }
  }
  return captures;
}

/** `npm run conformance -- har FILE`'s judging of one file, in a process of its own (passive-child.ts). */
export function judgeInChild(path: string): Promise<PassiveResults['passive']> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/passive-child.ts', path], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    // Decoded as streams, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.stderr.on('data', (chunk: string) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the passive judging exited ${code}: ${errors.slice(-2000)}`));
      const measured = JSON.parse(output.trim().split('\n').at(-1)!) as Omit<PassiveResults['passive'], 'exchangesPerSecond'>;
      resolve({ ...measured, exchangesPerSecond: measured.exchanges / (measured.ms / 1000) });
    });
  });
}

export async function measurePassive(): Promise<PassiveResults> {
  log('recording a suite run against the reference');
  const entries = await recordRun();
  log(`timing an active run against the embedded reference (${DEFAULT_CALLS} calls)`);
  const active = await timeSuiteRun(DEFAULT_CALLS);
  const path = join(tmpdir(), `bench-passive-${process.pid}.har`);
  try {
    log(`writing a HAR of ${PASSIVE_HAR_BYTES} bytes from ${entries.length} recorded exchanges`);
    const harBytes = await writeLargeHar(path, entries, PASSIVE_HAR_BYTES);
    log('judging it');
    const passive = await judgeInChild(path);
    const activeSpeed = active.requests / (active.testsMs / 1000);
    rmSync(path, { force: true });
    const captures = await measureCaptures(entries);
    return {
      harBytes,
      recordedExchanges: entries.length,
      active: { exchanges: active.requests, testsMs: active.testsMs, exchangesPerSecond: activeSpeed },
      passive,
      speedRatio: passive.exchangesPerSecond / activeSpeed,
      coverage: measureCoverageCost(entries, active.testsMs),
      captures,
      floor: measureParseFloor(entries),
    };
  } finally {
    rmSync(path, { force: true });
  }
}

export function passiveTargets(results: PassiveResults): Target[] {
  return [
    {
      name: `resident memory peak judging a ${(results.harBytes / 2 ** 30).toFixed(2)} GiB HAR < ${MEMORY_TARGET_MIB} MiB`,
      value: `${results.passive.peakRssMiB.toFixed(0)} MiB`,
      met: results.passive.peakRssMiB < MEMORY_TARGET_MIB,
    },
    {
      name: `passive speed ≥ ${SPEED_TARGET}x an active run's`,
      value: `${results.speedRatio.toFixed(1)}x (${results.passive.exchangesPerSecond.toFixed(0)} vs ${results.active.exchangesPerSecond.toFixed(0)} exchanges/s)`,
      met: results.speedRatio >= SPEED_TARGET,
    },
    coverageTarget(results.coverage),
    ...results.captures.flatMap(({ shape, bytes, passive }) => {
      const perCpuSecond = passive.exchanges / (passive.cpuMs / 1000);
      return [
        {
          name: `resident memory peak judging a ${(bytes / 2 ** 30).toFixed(2)} GiB ${shape} < ${CAPTURE_MEMORY_TARGET_MIB} MiB`,
          value: `${passive.peakRssMiB.toFixed(0)} MiB (${passive.exchanges} exchanges)`,
          met: passive.peakRssMiB < CAPTURE_MEMORY_TARGET_MIB,
        },
        {
          name: `exchanges of the ${shape} judged a CPU-second ≥ ${CAPTURE_SPEED_TARGET}`,
          value: perCpuSecond.toFixed(0),
          met: perCpuSecond >= CAPTURE_SPEED_TARGET,
        },
      ];
    }),
  ];
}

export function renderPassive(results: PassiveResults): string[] {
  return [
    `A HAR of ${results.harBytes} bytes (${results.passive.entries} entries: the ${results.recordedExchanges} exchanges of one suite run, repeated) judged in ${(results.passive.ms / 1000).toFixed(1)} s: ${results.passive.exchanges} exchanges, ${results.passive.exchangesPerSecond.toFixed(0)} a second, resident memory peak ${results.passive.peakRssMiB.toFixed(0)} MiB; verdict ${results.passive.verdict}.`,
    `The active run judged ${results.active.exchanges} exchanges in ${(results.active.testsMs / 1000).toFixed(1)} s (first test to end): ${results.active.exchangesPerSecond.toFixed(0)} a second.`,
    `The floor under the captures' speed: their bodies (${(results.floor.meanBodyBytes / 1000).toFixed(0)} KB on average) made text and parsed (${results.floor.parsed} of them JSON), nothing else: ${results.floor.exchangesPerCpuSecond.toFixed(0)} exchanges a CPU-second.`,
  ];
}
