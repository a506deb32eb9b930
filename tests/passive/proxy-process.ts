// The judging proxy as a team runs it: `npm run conformance -- proxy --target …` in a process of its
// own, stopped by a signal. Used by the proxy's self-tests and by the benchmark (tests/bench/proxy.ts).
import { spawn } from 'node:child_process';
import { childEnv, PROJECT_ROOT } from '../runner/run-suite.ts';

const PROXY_COMMAND = ['--import', 'tsx', 'cli/conformance.ts', 'proxy'];

export interface ProxyProcess {
  /** `http://127.0.0.1:port`, as the proxy printed it. */
  address: string;
  /** The base URL it told its users to take (the address with the target's path). */
  base: string;
  /** Sends `signal` and resolves once the proxy has exited, with its exit code and output. */
  stop(signal?: NodeJS.Signals): Promise<ProxyExit>;
  /** Output so far. */
  output(): string;
  /** Sends `signal` (SIGUSR1: an interim report) and goes on. */
  signal(signal: NodeJS.Signals): void;
  /** The proxy's process id (the benchmark reads its threads' CPU time). */
  pid: number;
}

export interface ProxyExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the proxy with `args` (after `proxy`) and the environment `env` (on top of a clean one);
 * resolves once it listens. `launcher`: a command that execs Node in its own place (`taskset -c 0`),
 * so that the process id is still the proxy's.
 */
export function startProxyProcess(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  launcher: readonly string[] = [],
): Promise<ProxyProcess> {
  const [command, ...prefix] = [...launcher, process.execPath];
  const child = spawn(command, [...prefix, ...PROXY_COMMAND, ...args], {
    cwd: PROJECT_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<ProxyExit>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the proxy did not listen within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`the proxy exited with ${code} before it listened:\n${stdout}\n${stderr}`));
    });
    // Decoded as streams, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const listening = stdout.match(/judging proxy listening on (http:\/\/\S+?),/);
      const base = stdout.match(/Point your app, SDK or tests at (http:\/\/\S+) as their base URL/);
      if (!listening || !base) return;
      clearTimeout(timer);
      resolve({
        address: listening[1]!,
        base: base[1]!,
        output: () => `${stdout}\n${stderr}`,
        signal: (signal) => void child.kill(signal),
        pid: child.pid!,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null) child.kill(signal);
          // A proxy that does not stop is a failure of the test, not a process left behind. Generous:
          // on a machine busy with npm test's other runs, a judge below normal priority writes its
          // final reports slowly (30 s was seen to kill proxies that were still writing them).
          const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
          return exited.finally(() => clearTimeout(killer));
        },
      });
    });
  });
}
