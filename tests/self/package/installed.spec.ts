// The suite as another project gets it: `npm pack` here, `npm i -D ./calls-conformance-X.tgz` in a
// fresh project outside this repository, then `npx calls-conformance` there, with nothing of this
// repository on the path (no NODE_PATH, no node_modules/.bin of ours on PATH, the project as the
// working directory). One pack and one install serve every test of the file.
// docs/install.md's commands run here: `npm pack`, `npm i -D ./calls-conformance-0.1.0.tgz`,
// `npx calls-conformance`, `npx calls-conformance --shard=1/3 --add-reporter=blob` (as one shard of
// one), `npx calls-conformance merge all-blob-reports` (the project's blob-report folder).
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findFault } from '../../../reference/faults/catalog.ts';
import type { ConformanceReport } from '../../../fixtures/results/report-model.ts';
import { PROJECT_ROOT, referenceTargetEnv, SELF_TEST_SEED, type RunResult } from '../runner/run-suite.ts';
import { withReference } from '../reports/report-runs.ts';

/** Packing, installing from the npm cache and two suite runs; on a busy 2-core machine, several minutes. */
const FILE_TIMEOUT_MS = 600_000;
const FAULT = 'get-answers-next-call';

test.describe.configure({ mode: 'serial', timeout: FILE_TIMEOUT_MS });

/** PATH without any node_modules/.bin (npx and npm test put this repository's there), HOME for the npm cache. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  const npmCache = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^npm_config_cache$/i.test(name)));
  return { PATH: path, HOME: process.env.HOME ?? '/tmp', ...(npmCache as Record<string, string>), ...extra };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = cleanEnv()): Promise<RunResult & { ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // Decoded as streams, so a character split between two chunks arrives whole.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, stopped: false, ms: Date.now() - started }));
  });
}

interface Installed {
  root: string;
  project: string;
  files: string[];
  tarballBytes: number;
  installMs: number;
}

let installed: Promise<Installed> | undefined;

/** Packs the repository and installs the tarball into a fresh project, once for the file. */
function install(): Promise<Installed> {
  return (installed ??= (async () => {
    const root = mkdtempSync(join(tmpdir(), 'conformance-package-'));
    const project = join(root, 'project');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', root], PROJECT_ROOT);
    if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`);
    const added = await run('npm', ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', join(root, info!.filename)], project);
    if (added.code !== 0) throw new Error(`npm i of the tarball failed: ${added.stderr}`);
    return { root, project, files: info!.files.map((file) => file.path), tarballBytes: info!.size, installMs: added.ms };
  })());
}

test.afterAll(async () => {
  if (installed) rmSync((await installed).root, { recursive: true, force: true });
});

const PACKAGE_TESTS = 'node_modules/calls-conformance/tests';

/**
 * The 1-based line of the `test(` call, in the installed file, whose title starts with `id` and a
 * space: where Playwright places the test. The title may be on the call's line or, as the formatter
 * lays out a long one, on the next.
 */
function lineOf(project: string, file: string, id: string): number {
  const lines = readFileSync(join(project, PACKAGE_TESTS, file), 'utf8').split('\n');
  const titled = lines.flatMap((line, index) => (line.includes(`'${id} `) ? [index] : []));
  expect(titled, `the test titled ${id} in ${file}`).toHaveLength(1);
  const call = [titled[0]!, titled[0]! - 1].find((index) => /\btest\(/.test(lines[index] ?? ''));
  expect(call, `the test( call of ${id} in ${file}`).toBeDefined();
  return call! + 1;
}

/** A command line a report printed, run as a user would paste it into a shell in the project. */
const shell = (project: string, command: string, env: Record<string, string>) => run('sh', ['-c', command], project, cleanEnv(env));

const npx = (project: string, args: string[], env: Record<string, string> = {}) =>
  run('npx', ['calls-conformance', ...args], project, cleanEnv({ CONFORMANCE_SEED: SELF_TEST_SEED, ...env }));

test('the tarball holds what running needs and none of the self-tests, bench or development files', async ({}, testInfo) => {
  const { files, tarballBytes, installMs, project } = await install();
  testInfo.annotations.push({
    type: 'measured',
    description: `tarball ${tarballBytes} bytes, ${files.length} files; npm i of it ${installMs} ms`,
  });
  for (const needed of [
    'bin/calls-conformance.js',
    'playwright.config.ts',
    'package.json',
    'openapi/calls-api.openapi.yaml',
    'openapi/requirements.yaml',
    'reference/main.ts',
    'reporters/cli/conformance.ts',
    'fixtures/config.ts',
    'tests/calls-list/pagination.spec.ts',
    'tests/chat-unread/mark-unread.spec.ts',
  ]) {
    expect(files, needed).toContain(needed);
  }
  expect(
    files.filter(
      (file) =>
        file.startsWith('tests/self/') || file.startsWith('tests/bench/') || file === 'openapi/redocly.yaml' || file === 'tsconfig.json',
    ),
  ).toEqual([]);
  // The development tools are not installed with it.
  for (const devOnly of ['@redocly/cli', 'typescript', 'autocannon', '@stoplight/prism-cli', 'openapi-types']) {
    expect(existsSync(join(project, 'node_modules', devOnly)), devOnly).toBe(false);
  }
});

test('npx calls-conformance --help and a refused command work from the installed package', async () => {
  const { project } = await install();
  const help = await npx(project, ['--help']);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/^calls-conformance: the conformance suite/);
  expect(help.stdout).toContain('Exit codes:');
  const refused = await npx(project, ['frob']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('calls-conformance: unknown command "frob"');
});

test('npx calls-conformance in the installing project: CONFORMANT against the embedded reference, exit 0, reports in that project', async () => {
  const { project } = await install();
  const result = await npx(project, []);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('Conformance verdict: CONFORMANT.');
  const report = JSON.parse(readFileSync(join(project, 'conformance-report', 'results.json'), 'utf8')) as ConformanceReport;
  expect(report.verdict).toBe('CONFORMANT');
  for (const file of ['index.html', 'junit.xml']) expect(existsSync(join(project, 'conformance-report', file)), file).toBe(true);
  // Playwright's artefacts go to the project too, never into the installed package.
  expect(existsSync(join(project, 'node_modules', 'calls-conformance', 'test-results'))).toBe(false);
  // Tests are placed where their test() call is, as from the clone (tsx's output alone put them at line 1).
  const locations = report.requirements.flatMap((requirement) => requirement.tests.map((entry) => entry.location));
  expect(locations.length).toBeGreaterThan(50);
  for (const location of locations) expect(location).toMatch(/^node_modules\/calls-conformance\/tests\/\S+\.spec\.ts:([2-9]|\d{2,})$/);
  const notFound = report.requirements.find((requirement) => requirement.id === 'CALLS-GET-NOT-FOUND')!.tests[0]!;
  expect(notFound.location).toBe(
    `${PACKAGE_TESTS}/calls-get/not-found.spec.ts:${lineOf(project, 'calls-get/not-found.spec.ts', 'CALLS-GET-NOT-FOUND')}`,
  );
});

const readReport = (project: string, dir: string) =>
  JSON.parse(readFileSync(join(project, dir, 'results.json'), 'utf8')) as ConformanceReport;

test(`npx calls-conformance against a remote target named in the project's .env (the reference with the fault ${FAULT}): NON-CONFORMANT, exit 1, REPORT_DIR relative to the project; its rerun and replay lines replay the failure there`, async () => {
  const { project } = await install();
  const declared = findFault(FAULT)!.requirements;
  const { result, rerun, replay } = await withReference(FAULT, async (base) => {
    const env = { ...referenceTargetEnv(base), REPORT_DIR: 'reports/remote' };
    writeFileSync(
      join(project, '.env'),
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    try {
      const result = await npx(project, []);
      // The commands the report gives, pasted as they are (their seed in them, the target from .env).
      const failure = readReport(project, 'reports/remote').failures.find(
        (entry) => entry.requirements.includes(declared[0]!) && !entry.credited,
      );
      const replayLine = failure?.message.match(/^Replay with: (.+)$/m)?.[1];
      return {
        result,
        failure,
        rerun: failure && { command: failure.rerun, run: await shell(project, failure.rerun, { REPORT_DIR: 'reports/rerun' }) },
        replay:
          replayLine === undefined
            ? undefined
            : { command: replayLine, run: await shell(project, replayLine, { REPORT_DIR: 'reports/replay' }) },
      };
    } finally {
      rmSync(join(project, '.env'));
    }
  });
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toContain('Conformance verdict: NON-CONFORMANT.');
  const report = readReport(project, 'reports/remote');
  expect(report.verdict).toBe('NON-CONFORMANT');
  for (const id of declared) expect(report.summary.mustFailed).toContain(id);

  // The rerun line names the installed command and the test's real line, and replays the failure.
  const line = lineOf(project, 'calls-get/get-call.spec.ts', declared[0]!);
  expect(line).toBeGreaterThan(1);
  // The console's line for the failed requirement places it there too.
  expect(result.stdout).toContain(`first: ${PACKAGE_TESTS}/calls-get/get-call.spec.ts:${line} "${declared[0]} `);
  expect(rerun?.command).toBe(
    `CONFORMANCE_SEED=${SELF_TEST_SEED} npx calls-conformance run ${PACKAGE_TESTS}/calls-get/get-call.spec.ts:${line}`,
  );
  expect(rerun!.run.code, rerun!.run.stderr).toBe(1);
  expect(readReport(project, 'reports/rerun').summary.mustFailed).toEqual(declared);
  // That test alone: the location selects it.
  expect(Object.values(readReport(project, 'reports/rerun').summary.tests).reduce((sum, count) => sum + count, 0)).toBe(1);

  // The property's replay line (seed and counterexample path) does the same.
  expect(replay?.command).toMatch(
    new RegExp(`^CONFORMANCE_SEED=${SELF_TEST_SEED} CONFORMANCE_PATH=[\\d:]+ npx calls-conformance run --grep "${declared[0]} "$`),
  );
  expect(replay!.run.code, replay!.run.stderr).toBe(1);
  expect(readReport(project, 'reports/replay').summary.mustFailed).toEqual(declared);
});

test('sharded from the installed package: --add-reporter=blob writes blob-report/ in the project, and merge turns it into the report and verdict', async () => {
  const { project } = await install();
  const shard = await npx(project, ['--shard=1/1', '--add-reporter=blob', '--grep', 'CALLS-GET-NOT-FOUND '], {
    REPORT_DIR: 'reports/shard',
  });
  expect(shard.code, shard.stderr).toBe(0);
  expect(readdirSync(join(project, 'blob-report')).filter((file) => file.endsWith('.zip'))).toHaveLength(1);
  expect(existsSync(join(project, 'node_modules', 'calls-conformance', 'blob-report'))).toBe(false);
  const merged = await npx(project, ['merge', 'blob-report'], { REPORT_DIR: 'reports/merged' });
  expect(merged.code, merged.stderr).toBe(0);
  expect(merged.stdout).toContain('Conformance verdict: CONFORMANT.');
  expect(existsSync(join(project, 'reports', 'merged', 'results.json'))).toBe(true);
});
