// The reference's command-line entry run as a child process, the way a user starts it, in a clean
// environment. Every wait is bounded and, when the bound is passed, fails saying what was awaited
// and what the process printed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ReferenceProcess {
  stdout(): string;
  stderr(): string;
  /** The first stdout line that matches. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** The exit, once the output is all read. */
  waitForExit(timeoutMs: number): Promise<Exit>;
  signal(signal: NodeJS.Signals): void;
  /** Kills the process if it still runs; for `finally`. */
  stop(): void;
}

export function startReference(args: string[], env: Record<string, string> = {}): ReferenceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'reference/main.ts', ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const printed = () => `stdout: ${JSON.stringify(stdout.slice(0, 500))}, stderr: ${JSON.stringify(stderr.slice(0, 500))}`;

  const lineMatching = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const line = stdout.split('\n').find((candidate) => pattern.test(candidate));
        if (line !== undefined) resolve(line);
      };
      child.stdout.on('data', look);
      look();
      void closed.then((exit) =>
        reject(new Error(`the reference exited (${JSON.stringify(exit)}) without printing a line matching ${pattern}; ${printed()}`)),
      );
    });

  return {
    stdout: () => stdout,
    stderr: () => stderr,
    waitForLine: (pattern, timeoutMs) => within(lineMatching(pattern), timeoutMs, () => `no stdout line matching ${pattern}; ${printed()}`),
    waitForExit: (timeoutMs) => within(closed, timeoutMs, () => `the reference did not exit; ${printed()}`),
    signal: (signal) => void child.kill(signal),
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** The promise's outcome, or a failure naming what did not happen within the bound. */
function within<T>(promise: Promise<T>, timeoutMs: number, missing: () => string): Promise<T> {
  const bound = AbortSignal.timeout(timeoutMs);
  return new Promise<T>((resolve, reject) => {
    const fail = () => reject(new Error(`${missing()} (waited ${timeoutMs} ms)`));
    bound.addEventListener('abort', fail, { once: true });
    promise.then(resolve, reject).finally(() => bound.removeEventListener('abort', fail));
  });
}
