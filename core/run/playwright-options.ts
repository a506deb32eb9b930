// The options of `playwright test` that `calls-conformance run` passes on, checked so that a typo
// is refused (exit 2) instead of running a whole suite that ignores it. Each is checked against
// Playwright's own `test --help` by tests/cli/command-line.spec.ts. Anything after `--`
// reaches Playwright unchecked, for the options not listed here.

/** How an option takes its value: always (`--grep X` or `--grep=X`), only inline (`--shuffle=SEED`), or never. */
export type Arity = 'value' | 'optional' | 'flag';

export const PLAYWRIGHT_TEST_OPTIONS: Readonly<Record<string, Arity>> = {
  '--grep': 'value',
  '-g': 'value',
  '--grep-invert': 'value',
  '-G': 'value',
  '--workers': 'value',
  '-j': 'value',
  '--shard': 'value',
  '-x': 'flag',
  '--max-failures': 'value',
  '--list': 'flag',
  '--reporter': 'value',
  '--add-reporter': 'value',
  '--output': 'value',
  '--timeout': 'value',
  '--global-timeout': 'value',
  '--repeat-each': 'value',
  '--trace': 'value',
  '--pass-with-no-tests': 'flag',
  '--forbid-only': 'flag',
  '--fail-on-flaky-tests': 'flag',
  '--quiet': 'flag',
  '--last-failed': 'flag',
  '--last-failed-file': 'value',
  '--test-list': 'value',
  '--test-list-invert': 'value',
  '--shuffle': 'optional',
  '--fully-parallel': 'flag',
};

/** Playwright options the suite refuses, and why: each would change what the suite is, not how it runs. */
export const REFUSED_PLAYWRIGHT_OPTIONS: Readonly<Record<string, string>> = {
  '--config': 'the suite runs with its own configuration',
  '-c': 'the suite runs with its own configuration',
  '--project': 'the suite is its own conformance project',
  '--retries': 'set CONFORMANCE_RETRIES instead',
};

/** One shard of the suite (`--shard=1/3` or `--shard 1/3`): a part of the run, for `merge` to judge with the others. */
export const isShard = (args: readonly string[]): boolean => args.some((arg) => arg === '--shard' || arg.startsWith('--shard='));

/** `--add-reporter=blob` (or `--add-reporter blob`): the blob report the user asked for, not to be recorded twice. */
export const addsBlob = (args: readonly string[]): boolean =>
  args.some((arg, index) => arg === '--add-reporter=blob' || (arg === '--add-reporter' && args[index + 1] === 'blob'));
