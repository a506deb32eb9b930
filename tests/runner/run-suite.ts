// Runs the conformance suite as a child process, the way a user runs it, with a clean environment
// so that nothing of the surrounding test run (its own reference, its worker variables) leaks in.
import { spawn } from 'node:child_process';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';
import { DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { loadConfig, type Env } from '../../core/run/config.ts';
import { preflightAsks } from '../../core/run/preflight-checks.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLAYWRIGHT_CLI = fileURLToPath(new URL('../../node_modules/@playwright/test/cli.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when `stopWhen` ended the run early. */
  stopped: boolean;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Called with each line of stdout as it arrives; returning true stops the run (its whole process group). */
  stopWhen?: (line: string) => boolean;
  /** Called likewise; returning true sends SIGINT to the process group once, as Ctrl-C in a terminal does. */
  interruptWhen?: (line: string) => boolean;
  /** The folder the child runs in: the project's by default. */
  cwd?: string;
}

/**
 * The requests a run configured by `env` sends before any test and its report does not count
 * (core/run/preflight-checks.ts), each answered with a success: the reads. Its write is listed with
 * the run's requests, as every write is.
 */
export const preflightRequests = (env: Env): number => preflightAsks(loadConfig(env)).filter((ask) => ask.method === 'GET').length;

/** The suite's environment for a reference (with its demo keys and fixtures) at `base`, as a remote target with writes allowed. */
export function referenceTargetEnv(base: string): Record<string, string> {
  return {
    CALLS_BASE_URL: base,
    CHAT_BASE_URL: base,
    API_KEY: DEMO_KEYS.fullAccess,
    RESTRICTED_API_KEY: DEMO_KEYS.readOnly,
    ALLOW_WRITES: 'true',
    GROUP_GUID: UNREAD_FIXTURE.groupGuid,
    MESSAGE_ID: String(UNREAD_FIXTURE.messageId),
    ACTING_UID: UNREAD_FIXTURE.actingUid,
  };
}

/** A loopback port nothing listens on: taken from the system, then given back. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The project's own runs use a fixed seed, so that its tests are deterministic; exploring seeds is a deliberate act. */
export const SELF_TEST_SEED = '20261121';

export function runSuite(args: string[], env: Record<string, string> = {}, options: number | RunOptions = {}): Promise<RunResult> {
  // Its own output folder: Playwright empties the output folder when a run starts, and the project's
  // test-results/ belongs to the surrounding run (the kill matrix keeps its rows there).
  const output = args.some((arg) => arg.startsWith('--output')) ? undefined : mkdtempSync(join(tmpdir(), 'conformance-run-'));
  // Likewise the conformance reports, unless the caller reads them from a folder it names.
  const reports = env.REPORT_DIR === undefined ? mkdtempSync(join(tmpdir(), 'conformance-reports-')) : undefined;
  const remove = () => [output, reports].forEach((dir) => dir && rmSync(dir, { recursive: true, force: true }));
  const runArgs = [PLAYWRIGHT_CLI, 'test', ...args, ...(output ? [`--output=${output}`] : [])];
  return runNode(runArgs, { ...(reports && { REPORT_DIR: reports }), ...env }, options).finally(remove);
}

/** Runs one of the project's command-line scripts (`cli/certify.ts`) as `npm run` does, through tsx. */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  options: number | RunOptions = {},
): Promise<RunResult> {
  return runNode(['--import', 'tsx', script, ...args], env, options);
}

/**
 * The clean environment a self-test's child process of the project runs in, with `env` on top: PATH
 * and HOME, no env file, the self-tests' seed, and Node's compile cache (no setting of the suite's,
 * which npm test turns on for every process it starts: playwright.config.ts).
 */
export function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const cache = process.env.NODE_COMPILE_CACHE;
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ENV_FILE: '',
    CONFORMANCE_SEED: SELF_TEST_SEED,
    ...(cache && { NODE_COMPILE_CACHE: cache }),
    ...env,
  };
}

/**
 * The calling test's bound grows by each child's: a test that runs the suite twice is bounded by its
 * children's bounds (each child is killed at its own), not by the self project's 60 s, which a whole
 * run beside npm test's others can pass. Outside a test (a benchmark) there is no bound to grow.
 */
function allowForChild(timeoutMs: number): void {
  let info;
  try {
    info = test.info();
  } catch {
    return;
  }
  if (info.timeout > 0) info.setTimeout(info.timeout + timeoutMs);
}

/** Node with `argv` in the project folder (or `cwd`), in a clean environment and a process group of its own. */
export function runNode(argv: string[], env: Record<string, string> = {}, options: number | RunOptions = {}): Promise<RunResult> {
  const {
    timeoutMs = 120_000,
    stopWhen,
    interruptWhen,
    cwd = PROJECT_ROOT,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  allowForChild(timeoutMs);
  const cleanEnv = childEnv(env);
  return new Promise<RunResult>((resolve, reject) => {
    // Its own process group, so that stopping it stops its workers and its web server too.
    const child = spawn(process.execPath, argv, { cwd, env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Decoded as a stream, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    let stdout = '';
    let stderr = '';
    let pending = '';
    let stopped = false;
    let interrupted = false;
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      if (interruptWhen && !interrupted && lines.some((line) => interruptWhen(line))) {
        interrupted = true;
        process.kill(-child.pid!, 'SIGINT');
      }
      if (stopWhen && !stopped && lines.some((line) => stopWhen(line))) {
        stopped = true;
        killGroup();
      }
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`node ${argv.join(' ')} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, stopped });
    });
  });
}

interface JsonSpec {
  title: string;
  tags: string[];
  tests: Array<{ annotations: Array<{ type: string; description?: string }>; results: Array<{ status: string }> }>;
}
interface JsonSuite {
  specs: JsonSpec[];
  suites?: JsonSuite[];
}

/** The specs of Playwright's JSON report, flattened. */
export function specsOf(report: { suites: JsonSuite[] }): JsonSpec[] {
  const walk = (suite: JsonSuite): JsonSpec[] => [...suite.specs, ...(suite.suites ?? []).flatMap(walk)];
  return report.suites.flatMap(walk);
}
