// `npm run test:quick`, the edit loop: after the static checks (typecheck, lint, OpenAPI lint and
// Knip, at once: static-checks.ts), the self-tests that judge the suite's parts in seconds (checks, transport,
// learning, property tests, arbitraries, the run's configuration and verdict, reference, contract,
// catalog, fixtures, the passive judge, the command line), and
// none that runs the whole suite, a command or a benchmark as a child process: those are what make
// `npm test` take minutes, and it still runs them all. tests/runner/quick-selection.spec.ts
// keeps this list honest.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders and files under tests/, as Playwright's command line takes them (a path filter each). */
export const QUICK_PATHS = [
  'tests/checks/',
  'tests/transport/',
  'tests/learning/',
  'tests/property/',
  'tests/arbitraries/',
  'tests/run/config.spec.ts',
  'tests/run/verdict.spec.ts',
  'tests/run/read-options.spec.ts',
  'tests/reference/',
  'tests/openapi/',
  'tests/fixtures/',
  'tests/structure/',
  'tests/results/',
  'tests/runner/matrix-rows.spec.ts',
  'tests/cli/command-line.spec.ts',
  'tests/passive/proxy-forwarding.spec.ts',
  'tests/passive/proxy-bounds.spec.ts',
  'tests/passive/proxy-har.spec.ts',
  'tests/passive/proxy-request-head.spec.ts',
  'tests/passive/proxy-client-clock.spec.ts',
  'tests/passive/not-judged.spec.ts',
] as const;

function main(): number {
  const project = fileURLToPath(new URL('../', import.meta.url));
  const env = { ...process.env, CONFORMANCE_SELF_TESTS: '1' };
  for (const [command, args] of [
    ['npm', ['run', '--silent', 'checks']],
    ['npx', ['playwright', 'test', '--project=self', ...QUICK_PATHS, ...process.argv.slice(2)]],
  ] as const) {
    const run = spawnSync(command, [...args], { cwd: project, env, stdio: 'inherit' });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
