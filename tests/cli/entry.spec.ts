// The command-line entry run as users run it (`npm run conformance -- …`, the scripts of
// package.json): helps on stdout with exit 0, refusals on stderr with the usage and exit 2 before
// anything runs, Playwright's options passed on, the commands that are scripts of their own reached.
// docs/install.md's commands run here: `npm run conformance -- --help`, `npm run conformance -- help
// merge`, `npm run certify -- --help`.
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mainHelp, commandHelp, findCommand } from '../../cli/usage.ts';
import { PLAYWRIGHT_TEST_OPTIONS, REFUSED_PLAYWRIGHT_OPTIONS } from '../../core/run/playwright-options.ts';
import { PROJECT_ROOT, runScript, type RunResult } from '../runner/run-suite.ts';
import { CLI, freshDir, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

const conformance = (args: string[], env: Record<string, string> = {}) => runScript(CLI.conformance, args, env);

/** `npm run -s SCRIPT -- ARGS` in the project, with a clean environment. */
function npmRun(script: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ENV_FILE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Decoded as streams, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, stopped: false }));
  });
}

test('npm run conformance -- --help prints the main help on stdout and exits 0', async () => {
  const run = await npmRun('conformance', ['--help']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe(`${mainHelp()}\n`);
  expect(run.stderr).toBe('');
});

test('-h, help and COMMAND --help from the entry exit 0 with the help asked for', async () => {
  const short = await conformance(['-h']);
  expect(short.code, short.stderr).toBe(0);
  expect(short.stdout).toBe(`${mainHelp()}\n`);
  const one = await conformance(['help', 'merge']);
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toBe(`${commandHelp(findCommand('merge')!)}\n`);
  const run = await conformance(['run', '--help']);
  expect(run.stdout).toBe(`${commandHelp(findCommand('run')!)}\n`);
});

test('npm run certify -- --help and npm run verify-bundle -- --help print their command help, exit 0, and run nothing', async () => {
  for (const script of ['certify', 'verify-bundle']) {
    const run = await npmRun(script, ['--help']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${commandHelp(findCommand(script)!)}\n`);
  }
});

test('an unknown command is refused on stderr with the usage, exit 2, nothing run', async () => {
  const run = await conformance(['frob']);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^calls-conformance: unknown command "frob"\n\nUsage: npm run conformance -- \[COMMAND\]/);
  expect(run.stderr).not.toContain('Running');
});

test("an unknown option is refused with the command's usage, exit 2, before any test runs", async () => {
  const dir = freshDir('report-refused');
  const run = await conformance(['--grpe', 'CALLS-GET'], { REPORT_DIR: dir });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^calls-conformance: unknown option --grpe for run\n\nUsage: npm run conformance -- run /);
  expect(run.stdout).toBe('');
  const certify = await conformance(['certify', '--sign', 'k.pem']);
  expect(certify.code).toBe(2);
  expect(certify.stderr).toContain('Usage: npm run conformance -- certify');
});

test('Playwright options the run does not list reach Playwright after --, and the run still gives its verdict', async () => {
  test.setTimeout(SUITE_RUN_TIMEOUT_MS);
  const dir = freshDir('report-passed-on');
  const run = await conformance(['--grep', 'CALLS-GET-NOT-FOUND ', `--output=${freshDir('artefacts')}`, '--', '--ignore-snapshots'], {
    REPORT_DIR: dir,
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Conformance verdict: CONFORMANT.');
});

test("run --playwright-help prints Playwright's own options, and every option the run passes on or refuses is one of them", async () => {
  const run = await conformance(['run', '--playwright-help']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("Playwright's options of `playwright test`");
  // Playwright prints `-g, --grep <grep>`, `--list`, `--shuffle [seed]`: the arity shows after the name.
  const arityOf = (name: string) => {
    const line = run.stdout.split('\n').find((candidate) => new RegExp(`(^|[ ,])${name}( |,|$)`).test(candidate));
    if (line === undefined) return undefined;
    const after = line.slice(line.indexOf(name) + name.length);
    return /^ </.test(after) || /^, --[a-z-]+ </.test(after) ? 'value' : /^ \[/.test(after) ? 'optional' : 'flag';
  };
  for (const [name, arity] of Object.entries(PLAYWRIGHT_TEST_OPTIONS)) expect(arityOf(name), name).toBe(arity);
  for (const name of Object.keys(REFUSED_PLAYWRIGHT_OPTIONS)) expect(arityOf(name), name).toBeDefined();
});

test('dry-run is a command, and npm run dry-run still lists what a run would send', async () => {
  const command = await conformance(['dry-run']);
  expect(command.code, command.stderr).toBe(0);
  expect(command.stdout).toContain('Dry run: nothing was sent.');
  const script = await npmRun('dry-run', []);
  expect(script.code, script.stderr).toBe(0);
  expect(script.stdout).toContain('Dry run: nothing was sent.');
});

test('reference is a command: it starts the reference and prints its address', async () => {
  const run = await runScript(
    CLI.conformance,
    ['reference', '--port', '0'],
    {},
    { stopWhen: (line) => line.includes('reference server listening on'), timeoutMs: 60_000 },
  );
  expect(run.stopped, run.stderr).toBe(true);
  expect(run.stdout).toMatch(/reference server listening on http:\/\/\S+\/v3/);
});
