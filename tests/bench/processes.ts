// The processes the benchmark times: the suite as `npm run conformance` runs it, a trivial
// Playwright run, the reference and the Prism mock as servers. Each is spawned, not imported, so
// it pays its own start-up as a user's would, and none shares a CPU-bound event loop with another.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import type { RunTiming } from './timing-reporter.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
const PRISM_CLI = join(PROJECT_ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const TIMING_REPORTER = fileURLToPath(new URL('./timing-reporter.ts', import.meta.url));
const CONFORMANCE_REPORTER = fileURLToPath(new URL('../../reports/conformance-reporter.ts', import.meta.url));
const FLOOR_CONFIG = fileURLToPath(new URL('./floor/playwright.config.ts', import.meta.url));

/** The benchmark's runs use the suite's defaults, with one fixed seed so every run sends the same requests. */
const BENCH_SEED = '20261121';
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ENV_FILE: '', CONFORMANCE_SEED: BENCH_SEED });

interface Exit {
  code: number | null;
  output: string;
  ms: number;
}

function run(argv: string[], env: Record<string, string>, timeoutMs = 600_000): Promise<Exit> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: PROJECT_ROOT, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Decoded as a stream, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    let output = '';
    child.stdout.on('data', (chunk: string) => (output += chunk));
    child.stderr.on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: performance.now() - started });
    });
  });
}

export interface SuiteRun {
  /** From spawning the runner to its exit. */
  totalMs: number;
  /** Spawn to the runner's onBegin: Playwright's start-up, the embedded reference's start-up, test loading. */
  toBeginMs: number;
  /** onBegin to the first test's start: worker start-up and the first fixtures. */
  toFirstTestMs: number;
  /** First test's start to the end of the run. */
  testsMs: number;
  tests: number;
  requests: number;
  verdict: string;
}

/**
 * One default conformance run, as `npm run conformance` runs it: against the embedded reference with
 * `calls` calls (its start-up included), or against a reference already running at `target`, so
 * that only the suite's own cost is timed. A run against a faulty target is expected to exit 1.
 */
export async function timeSuiteRun(
  calls: number,
  target?: string,
  expectedExit = 0,
  extra: { env?: Record<string, string>; args?: string[] } = {},
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-suite-'));
  const timingFile = join(dir, 'timing.json');
  try {
    const started = Date.now();
    const exit = await run(
      [
        PLAYWRIGHT_CLI,
        'test',
        '--project=conformance',
        `--reporter=list,${CONFORMANCE_REPORTER},${TIMING_REPORTER}`,
        `--output=${join(dir, 'artefacts')}`,
        ...(extra.args ?? []),
      ],
      {
        ...(target ? referenceTargetEnv(target) : { REFERENCE_CALLS: String(calls) }),
        REPORT_DIR: join(dir, 'report'),
        BENCH_TIMING_FILE: timingFile,
        ...extra.env,
      },
    );
    if (exit.code !== expectedExit)
      throw new Error(
        `the conformance run against ${target ?? `${calls} calls`} exited ${exit.code}, not ${expectedExit}:\n${exit.output.slice(-3000)}`,
      );
    const timing = JSON.parse(readFileSync(timingFile, 'utf8')) as RunTiming;
    const report = JSON.parse(readFileSync(join(dir, 'report', 'results.json'), 'utf8')) as ConformanceReport;
    const firstTest = timing.firstTest ?? timing.end;
    return {
      totalMs: exit.ms,
      toBeginMs: timing.begin - started,
      toFirstTestMs: firstTest - timing.begin,
      testsMs: timing.end - firstTest,
      tests: timing.tests,
      requests: report.summary.requests,
      verdict: report.verdict,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor's runner half: Playwright with one trivial test, spawn to exit. */
export async function timeTrivialPlaywrightRun(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  try {
    const exit = await run([PLAYWRIGHT_CLI, 'test', '-c', FLOOR_CONFIG, `--output=${dir}`, 'trivial.spec.ts'], {});
    if (exit.code !== 0) throw new Error(`the trivial Playwright run exited ${exit.code}:\n${exit.output.slice(-2000)}`);
    return exit.ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The suite's shape through Playwright's request context, checking nothing, against a running reference at `base`. */
export async function timeShapedPlaywrightRun(base: string, tests: number, requests: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-shape-'));
  try {
    const env = { BENCH_BASE: base, BENCH_TESTS: String(tests), BENCH_REQUESTS: String(requests), BENCH_API_KEY: DEMO_KEYS.fullAccess };
    const exit = await run([PLAYWRIGHT_CLI, 'test', '-c', FLOOR_CONFIG, `--output=${dir}`, 'shape.spec.ts'], env);
    if (exit.code !== 0) throw new Error(`the run of the suite's shape exited ${exit.code}:\n${exit.output.slice(-2000)}`);
    return exit.ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Server {
  base: string;
  /** Spawn to the first line saying it listens (the reference) or the first answer (Prism). */
  startupMs: number;
  /** Its process id. */
  pid: number;
  stop(): Promise<void>;
}

/** The reference as the suite's web server starts it (playwright.config.ts), on a free port. */
export function startReference(calls: number): Promise<Server> {
  return startServer(
    ['--import', 'tsx', 'reference/main.ts', '--port', '0', '--calls', String(calls)],
    /reference server listening on (http:\/\/\S+)/,
  );
}

/** Stoplight Prism's mock server on the same OpenAPI document, on `port`, logging errors only. */
export function startPrism(port: number): Promise<Server> {
  return startServer(
    [PRISM_CLI, 'mock', 'openapi/calls-api.openapi.yaml', '--port', String(port), '--host', '127.0.0.1', '--verboseLevel', 'error'],
    undefined,
    `http://127.0.0.1:${port}`,
  );
}

function startServer(argv: string[], listening: RegExp | undefined, knownBase?: string): Promise<Server> {
  const started = performance.now();
  const child = spawn(process.execPath, argv, { cwd: PROJECT_ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
    });
  return new Promise<Server>((resolve, reject) => {
    const fail = (why: string) => {
      void stop();
      reject(new Error(`${argv.slice(0, 3).join(' ')} did not start: ${why}\n${output.slice(-2000)}`));
    };
    const timer = setTimeout(() => fail('no answer within 60 s'), 60_000);
    const ready = (base: string) => {
      clearTimeout(timer);
      resolve({ base, startupMs: performance.now() - started, pid: child.pid!, stop });
    };
    child.on('close', (code) => fail(`it exited with ${code}`));
    const onData = (chunk: string) => {
      output += chunk;
      const match = listening && output.match(listening);
      if (match) ready(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (!listening) {
      // Prism prints nothing at this log level: poll until it answers.
      const poll = async () => {
        while (child.exitCode === null) {
          try {
            await fetch(`${knownBase}/calls`);
            return ready(knownBase!);
          } catch {
            await new Promise((next) => setTimeout(next, 50));
          }
        }
      };
      void poll();
    }
  });
}

/** The kill matrix, as `npm run kill-matrix` runs it: spawn to exit, and the matrix it wrote. */
export async function timeKillMatrix(): Promise<{ ms: number; code: number | null }> {
  const exit = await run([PLAYWRIGHT_CLI, 'test', '--project=faults', '--reporter=dot'], { CONFORMANCE_SELF_TESTS: '1' }, 3_600_000);
  return { ms: exit.ms, code: exit.code };
}
