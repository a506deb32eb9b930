// The command line read into a command, a help or a refusal (cli/command-line.ts): every
// help asked for, and every refusal, without starting anything.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { EXPECTATIONS_VARIABLE } from '../../core/results/expectations.ts';
import { readCommandLine } from '../../cli/command-line.ts';
import { COMMANDS, findCommand, commandHelp, mainHelp, variables } from '../../cli/usage.ts';
import { PLAYWRIGHT_TEST_OPTIONS, REFUSED_PLAYWRIGHT_OPTIONS } from '../../core/run/playwright-options.ts';

const help = (text: string) => ({ kind: 'help', text });
const command = (name: string, args: string[]) => ({ kind: 'command', command: name, args });

test("--help, -h and help print the main help: every command, the variables, the exit codes, the reports, and Playwright's options", () => {
  for (const argv of [['--help'], ['-h'], ['help'], ['help', '--help']]) expect(readCommandLine(argv)).toEqual(help(mainHelp()));
  const text = mainHelp();
  // The text is wrapped at 100 columns: read as one line.
  const flat = text.replace(/\s+/g, ' ');
  for (const entry of COMMANDS) expect(text).toMatch(new RegExp(`^  ${entry.name}\\b`, 'm'));
  expect(text).toContain('run (default)');
  for (const code of ['0  CONFORMANT', '1  NON-CONFORMANT', '2  configuration or suite error', '3  INCONCLUSIVE'])
    expect(text).toContain(code);
  expect(flat).toContain(
    'index.html, results.json, junit.xml, results.sarif in REPORT_DIR (conformance-report/ in the current directory; passive-report/ for har and the proxy, with summary.md)',
  );
  expect(flat).toContain('npm run conformance -- run --playwright-help');
  expect(flat).toContain('npx playwright test --help');
  for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
});

test('every command has its own help: COMMAND --help, COMMAND -h and help COMMAND', () => {
  for (const entry of COMMANDS.filter((entry) => entry.name !== 'help')) {
    const expected = help(commandHelp(entry));
    expect(readCommandLine([entry.name, '--help'])).toEqual(expected);
    expect(readCommandLine([entry.name, '-h'])).toEqual(expected);
    expect(readCommandLine(['help', entry.name])).toEqual(expected);
    expect(expected.text).toContain(`Usage: npm run conformance -- ${entry.name}`);
    for (const option of entry.options) expect(expected.text).toContain(option.flag);
    for (const line of expected.text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  }
  expect(readCommandLine(['--grep', 'X', '--help'])).toEqual(help(commandHelp(findCommand('run')!)));
  expect(readCommandLine(['--playwright-help'])).toEqual({ kind: 'playwright-help' });
  expect(readCommandLine(['run', '--playwright-help'])).toEqual({ kind: 'playwright-help' });
});

test('the help shows the defaults the configuration really applies', () => {
  const byName = new Map(variables().map((variable) => [variable.name, variable.default]));
  expect(byName.get('REQUEST_TIMEOUT_MS')).toBe('10000');
  expect(byName.get('MAX_IN_FLIGHT')).toBe('8');
  expect(byName.get('CONFORMANCE_RUNS')).toBe('20');
  expect(byName.get('CONFORMANCE_RETRIES')).toBe('1');
  expect(byName.get('CONFORMANCE_PROFILE')).toBe('spec');
  expect(byName.get('REPORT_DIR')).toBe('conformance-report; passive-report for har, proxy');
  expect(byName.get('ALLOW_WRITES')).toBe('true for the reference, false for a remote target');
});

test('every variable the help names is one the configuration reads (core/run/config.ts, the one place it enters, and the reference options and diff settings it asks for)', () => {
  const source = [
    new URL('../../core/run/config.ts', import.meta.url),
    new URL('../../reference/options-from-env.ts', import.meta.url),
    new URL('../../core/diff/diff-settings.ts', import.meta.url),
  ]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const names = variables().flatMap((variable) => variable.name.split(', '));
  expect(names.length).toBeGreaterThan(15);
  for (const name of names)
    expect(name === EXPECTATIONS_VARIABLE || source.includes(`'${name}'`) || source.includes(`env.${name}`), name).toBe(true);
});

test('the run is the default command; its Playwright options, test filters and anything after -- are passed on', () => {
  expect(readCommandLine([])).toEqual(command('run', []));
  expect(readCommandLine(['--grep', '@get-call', '--shard=1/3', '-j', '2', '-x'])).toEqual(
    command('run', ['--grep', '@get-call', '--shard=1/3', '-j', '2', '-x']),
  );
  expect(readCommandLine(['run', 'suite/calls-list', '--reporter=dot'])).toEqual(command('run', ['suite/calls-list', '--reporter=dot']));
  // A value that looks like an option is the option's value, not an option.
  expect(readCommandLine(['-g', '-x-'])).toEqual(command('run', ['-g', '-x-']));
  // After --, nothing is checked, and the -- itself is not passed (Playwright would take what follows as test filters).
  expect(readCommandLine(['run', '--grep', 'A', '--', '--ignore-snapshots'])).toEqual(
    command('run', ['--grep', 'A', '--ignore-snapshots']),
  );
  expect(readCommandLine(['--', '--ignore-snapshots'])).toEqual(command('run', ['--ignore-snapshots']));
  expect(readCommandLine(['dry-run'])).toEqual(command('dry-run', []));
  expect(readCommandLine(['merge', 'blobs'])).toEqual(command('merge', ['blobs']));
  expect(readCommandLine(['compare', 'a', 'b'])).toEqual(command('compare', ['a', 'b']));
  expect(readCommandLine(['certify', '--out', 'b', '--signing-key=k.pem'])).toEqual(
    command('certify', ['--out', 'b', '--signing-key=k.pem']),
  );
  expect(readCommandLine(['verify-bundle', 'b', '--public-key', 'k.pub'])).toEqual(
    command('verify-bundle', ['b', '--public-key', 'k.pub']),
  );
  expect(readCommandLine(['reference', '--port', '0', '--list-faults'])).toEqual(command('reference', ['--port', '0', '--list-faults']));
});

const refusals: Array<[string[], string, string]> = [
  [['frob'], 'unknown command "frob"', 'Commands:'],
  [['pagination'], 'unknown command "pagination"', 'Commands:'],
  [['help', 'frob'], 'help takes one command name (got "frob")', 'Commands:'],
  [['--grpe', 'X'], 'unknown option --grpe for run', 'Usage: npm run conformance -- run'],
  [['run', '--ignore-snapshots'], 'unknown option --ignore-snapshots for run', 'Usage: npm run conformance -- run'],
  [
    ['--config', 'mine.ts'],
    'refused option --config for run: the suite runs with its own configuration',
    'Usage: npm run conformance -- run',
  ],
  [['-c', 'mine.ts'], 'refused option -c for run: the suite runs with its own configuration', 'Usage: npm run conformance -- run'],
  [['--project=self'], 'refused option --project for run: the suite is its own conformance project', 'Usage: npm run conformance -- run'],
  [['--retries=3'], 'refused option --retries for run: set CONFORMANCE_RETRIES instead', 'Usage: npm run conformance -- run'],
  [['--list=yes'], 'option --list of run takes no value', 'Usage: npm run conformance -- run'],
  [['--grep'], 'option --grep of run needs a value', 'Usage: npm run conformance -- run'],
  [['dry-run', '--grep', 'X'], 'unknown option --grep for dry-run', 'Usage: npm run conformance -- dry-run'],
  [['dry-run', 'now'], 'dry-run takes no arguments (got "now")', 'Usage: npm run conformance -- dry-run'],
  [['merge', '--output=x', 'blobs'], 'unknown option --output for merge', 'Usage: npm run conformance -- merge'],
  [['compare', '--json', 'a', 'b'], 'unknown option --json for compare', 'Usage: npm run conformance -- compare'],
  [['certify', '--sign', 'k.pem'], 'unknown option --sign for certify', 'Usage: npm run conformance -- certify'],
  [['certify', '--out'], 'option --out of certify needs a value', 'Usage: npm run conformance -- certify'],
  [['verify-bundle', 'b', '--key', 'k'], 'unknown option --key for verify-bundle', 'Usage: npm run conformance -- verify-bundle'],
  [['proxy', '--traget', 'http://x'], 'unknown option --traget for proxy', 'Usage: npm run conformance -- proxy'],
  [['reference', '--bogus'], 'unknown option --bogus for reference', 'Usage: npm run conformance -- reference'],
];

for (const [argv, problem, usage] of refusals) {
  test(`refused with the usage: ${argv.join(' ')}`, () => {
    const line = readCommandLine(argv);
    expect(line.kind).toBe('refused');
    const text = (line as { text: string }).text;
    expect(text.split('\n')[0]).toBe(`calls-conformance: ${problem}`);
    expect(text).toContain(usage);
  });
}

test('no refused Playwright option is also passed on', () => {
  for (const name of Object.keys(REFUSED_PLAYWRIGHT_OPTIONS)) expect(PLAYWRIGHT_TEST_OPTIONS[name]).toBeUndefined();
});
