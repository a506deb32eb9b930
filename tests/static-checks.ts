// `npm run checks`, the part of `npm test` before any test runs: the typecheck, ESLint, Prettier's
// check, the OpenAPI lint and Knip (no unused file, dependency or export). Each is an npm script of
// its own; here they run at once, since none needs another and ESLint alone keeps one core busy for
// most of their time (one after the other they took about 47 s on two cores, at once 38 to 41).
// Each one's output is printed whole when it ends, so that they never interleave, and each that
// failed is named at the end.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm scripts `npm run checks` runs, all at once. */
export const STATIC_CHECKS = ['typecheck', 'lint:code', 'lint:format', 'lint:openapi', 'lint:unused'] as const;

export interface CheckOutcome {
  script: string;
  status: number | null;
  seconds: number;
  output: string;
}

/** Runs `npm run <script>` for each script at once in `cwd`; each outcome as it ends, through `onEnd`. */
export function runChecks(
  scripts: readonly string[],
  cwd: string,
  onEnd: (outcome: CheckOutcome) => void = () => {},
): Promise<CheckOutcome[]> {
  return Promise.all(
    scripts.map(
      (script) =>
        new Promise<CheckOutcome>((done) => {
          const started = performance.now();
          const child = spawn('npm', ['run', '--silent', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
          let ended = false;
          // A command that cannot start says so twice ('error', then 'close'): it ends once.
          const end = (status: number | null, more = '') => {
            if (ended) return;
            ended = true;
            const outcome = { script, status, seconds: (performance.now() - started) / 1000, output: output + more };
            onEnd(outcome);
            done(outcome);
          };
          child.on('error', (error) => end(null, `${error.message}\n`));
          child.on('close', (status) => end(status));
        }),
    ),
  );
}

async function main(): Promise<number> {
  const project = fileURLToPath(new URL('../', import.meta.url));
  const outcomes = await runChecks(STATIC_CHECKS, project, ({ script, status, seconds, output }) => {
    process.stdout.write(`${output}${output === '' || output.endsWith('\n') ? '' : '\n'}`);
    process.stdout.write(`${status === 0 ? 'passed' : 'FAILED'}: npm run ${script} (${seconds.toFixed(1)} s)\n`);
  });
  const failed = outcomes.filter((outcome) => outcome.status !== 0).map((outcome) => outcome.script);
  if (failed.length > 0) process.stdout.write(`Static checks failed: ${failed.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();
