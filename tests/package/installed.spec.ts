// The suite as another project gets it: `npm pack` here (which compiles it into dist/, prepack),
// `npm i -D ./calls-conformance-X.tgz` in a fresh project outside this repository, then
// `npx calls-conformance` there, with nothing of this repository on the path (no NODE_PATH, no
// node_modules/.bin of ours on PATH, the project as the working directory), under each Node major
// the package supports (node-binaries.ts). One pack for the file, one install per Node version.
// docs/install.md's commands run here: `npm pack`, `npm i -D ./calls-conformance-0.1.0.tgz`,
// `npx calls-conformance`, `npx calls-conformance --shard=1/3 --add-reporter=blob` (as one shard of
// one), `npx calls-conformance merge all-blob-reports` (the project's blob-report folder).
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findFault } from '../../reference/faults/catalog.ts';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { PROJECT_ROOT, referenceTargetEnv, SELF_TEST_SEED, type RunResult } from '../runner/run-suite.ts';
import { withReference } from '../reports/report-runs.ts';
import { cleanEnv, nodeBinary, NPM_NETWORK_BOUNDS, SUPPORTED_NODE_MAJORS, UNREACHABLE, type NodeBinary } from './node-binaries.ts';

/** Packing (a tsc build), two installs from the npm cache and five suite runs; on a busy 2-core machine, a few minutes. */
const FILE_TIMEOUT_MS = 600_000;
const FAULT = 'get-answers-next-call';
/** The Node version the tests that need only one run under: the newest supported. */
const LATEST = SUPPORTED_NODE_MAJORS.at(-1)!;
/** Today's 40 MB (issue 35) with tsx, before the package shipped JavaScript. */
const MAX_INSTALLED_BYTES = 40_000_000;

test.describe.configure({ mode: 'serial', timeout: FILE_TIMEOUT_MS });

/** The clean environment with one Node version first on PATH: npm, npx and the installed command all run on it. */
function envWith(node: { bin: string }, extra: Record<string, string> = {}): Record<string, string> {
  const env = cleanEnv(extra);
  return { ...env, PATH: `${node.bin}${delimiter}${env.PATH}` };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<RunResult & { ms: number }> {
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

interface Packed {
  root: string;
  tarball: string;
  files: string[];
  tarballBytes: number;
  packMs: number;
}

interface Installed {
  node: { bin: string; version: string };
  project: string;
  installMs: number;
}

let packed: Promise<Packed> | undefined;
const installs = new Map<number, Promise<Installed | { unavailable: string }>>();
const nodes = new Map<number, NodeBinary>();

/** Packs the repository once for the file: prepack compiles it first. */
function pack(): Promise<Packed> {
  return (packed ??= (async () => {
    const root = mkdtempSync(join(tmpdir(), 'conformance-package-'));
    const packing = await run('npm', ['pack', '--json', '--pack-destination', root], PROJECT_ROOT, cleanEnv());
    if (packing.code !== 0) throw new Error(`npm pack failed: ${packing.stderr}`);
    const [info] = JSON.parse(packing.stdout) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
    return {
      root,
      tarball: join(root, info!.filename),
      files: info!.files.map((file) => file.path),
      tarballBytes: info!.size,
      packMs: packing.ms,
    };
  })());
}

/** Node of that major version, or the test skipped saying why there is none (no npm registry to fetch it from). */
function nodeOrSkip(major: number): { bin: string; version: string } {
  if (!nodes.has(major)) nodes.set(major, nodeBinary(major, cleanEnv()));
  const node = nodes.get(major)!;
  test.skip('unavailable' in node, 'unavailable' in node ? node.unavailable : '');
  return node as { bin: string; version: string };
}

/** The tarball installed into a fresh project by npm running on that Node, once per version; skipped where npm reaches no registry for its dependencies. */
async function install(major: number): Promise<Installed> {
  const node = nodeOrSkip(major);
  const installed = await installOnce(major, node);
  test.skip('unavailable' in installed, 'unavailable' in installed ? installed.unavailable : '');
  return installed as Installed;
}

function installOnce(major: number, node: { bin: string; version: string }): Promise<Installed | { unavailable: string }> {
  if (!installs.has(major))
    installs.set(
      major,
      (async () => {
        const { root, tarball } = await pack();
        const project = join(root, `project-node-${major}`);
        mkdirSync(project);
        writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`);
        const added = await run(
          'npm',
          ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', ...NPM_NETWORK_BOUNDS, tarball],
          project,
          envWith(node),
        );
        const unreachable = added.stderr.split('\n').find((line) => UNREACHABLE.test(line));
        if (added.code !== 0 && unreachable !== undefined)
          return {
            unavailable: `npm could not install the tarball's dependencies, no npm registry reachable: ${unreachable.replace(/^npm error /, '')}`,
          };
        if (added.code !== 0) throw new Error(`npm i of the tarball under Node ${node.version} failed: ${added.stderr}`);
        return { node, project, installMs: added.ms };
      })(),
    );
  return installs.get(major)!;
}

test.afterAll(async () => {
  if (packed) rmSync((await packed).root, { recursive: true, force: true });
});

const PACKAGE_TESTS = 'node_modules/calls-conformance/suite';

/**
 * The 1-based line of the `test(` call whose title starts with `id` and a space, in the TypeScript
 * the package was compiled from: where Playwright places the test. The title may be on the call's
 * line or, as the formatter lays out a long one, on the next.
 */
function lineOf(file: string, id: string): number {
  const lines = readFileSync(join(PROJECT_ROOT, 'suite', file), 'utf8').split('\n');
  const titled = lines.flatMap((line, index) => (line.includes(`'${id} `) ? [index] : []));
  expect(titled, `the test titled ${id} in ${file}`).toHaveLength(1);
  const call = [titled[0]!, titled[0]! - 1].find((index) => /\btest\(/.test(lines[index] ?? ''));
  expect(call, `the test( call of ${id} in ${file}`).toBeDefined();
  return call! + 1;
}

/** A command line a report printed, run as a user would paste it into a shell in the project. */
const shell = (installed: Installed, command: string, env: Record<string, string>) =>
  run('sh', ['-c', command], installed.project, envWith(installed.node, env));

const npx = (installed: Installed, args: string[], env: Record<string, string> = {}) =>
  run('npx', ['calls-conformance', ...args], installed.project, envWith(installed.node, { CONFORMANCE_SEED: SELF_TEST_SEED, ...env }));

/** Bytes of every file under a folder, as an installed project holds them. */
function bytesUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

test('the tarball holds compiled JavaScript with its source maps and declarations: no TypeScript to run, no tsx, no Playwright internals', async ({}, testInfo) => {
  const installed = await install(LATEST);
  const { files, tarballBytes, packMs } = await pack();
  const { project, installMs } = installed;
  const nodeModules = join(project, 'node_modules');
  const installedBytes = bytesUnder(nodeModules);
  testInfo.annotations.push({
    type: 'measured',
    description: `npm pack (with the build) ${packMs} ms; tarball ${tarballBytes} bytes, ${files.length} files; npm i of it ${installMs} ms; node_modules ${installedBytes} bytes`,
  });
  for (const needed of [
    'bin/calls-conformance.js',
    'package.json',
    '.env.example',
    'dist/package.json',
    'dist/playwright.config.js',
    'dist/openapi/calls-api.openapi.yaml',
    'dist/openapi/requirements.yaml',
    'dist/openapi/requirements.schema.json',
    'dist/reference/main.js',
    'dist/cli/conformance.js',
    'dist/reports/conformance-reporter.d.ts',
    'dist/core/run/config.js',
    'dist/suite/calls-list/pagination.spec.js',
    'dist/suite/chat-unread/mark-unread.spec.js',
  ]) {
    expect(files, needed).toContain(needed);
  }
  // TypeScript only as declarations; every module with its map.
  expect(files.filter((file) => /\.[cm]?tsx?$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
  const modules = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js'));
  expect(modules.length).toBeGreaterThan(150);
  expect(modules.filter((file) => !files.includes(`${file}.map`))).toEqual([]);
  expect(
    files.filter(
      (file) => /^(dist\/)?tests\//.test(file) || file.endsWith('redocly.yaml') || /tsconfig|tsbuildinfo|bin\/build\.js/.test(file),
    ),
  ).toEqual([]);
  // Nothing reaches into Playwright's internals (only its exported entry points), and nothing names
  // tsx but the clone's branch of package-paths (scriptLoaderArgs), which compiled code never takes.
  const installedPackage = join(nodeModules, 'calls-conformance');
  const specifiers = (file: string) =>
    [...readFileSync(join(installedPackage, file), 'utf8').matchAll(/['"]((?:tsx|playwright(?:-core)?\/lib)(?:\/[^'"]*)?)['"]/g)].map(
      (match) => `${file}: ${match[1]}`,
    );
  // The passive commands' threads name tsx too, on the clone's branch only: installed, the proxy's
  // judging thread and the har command's start from the compiled file (their own tests below).
  expect(['bin/calls-conformance.js', ...modules].flatMap(specifiers)).toEqual([
    'dist/core/run/package-paths.js: tsx',
    'dist/passive/threads.js: tsx/esm/api',
  ]);
  // The development tools, tsx among them, are not installed with it.
  for (const devOnly of ['tsx', 'esbuild', '@redocly/cli', 'typescript', 'autocannon', '@stoplight/prism-cli', 'openapi-types']) {
    expect(existsSync(join(nodeModules, devOnly)), devOnly).toBe(false);
  }
  expect(installedBytes).toBeLessThan(MAX_INSTALLED_BYTES);
});

test('npx calls-conformance --help, reference --list-faults and a refused command work from the installed package', async () => {
  const installed = await install(LATEST);
  const help = await npx(installed, ['--help']);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/^calls-conformance: the conformance suite/);
  // Installed, every command line printed is the one that works here (issue 54).
  expect(help.stdout).toContain('Usage: npx calls-conformance [COMMAND] [OPTIONS]');
  expect(help.stdout).toContain('Exit codes:');
  // A script run as a child of the command, with no loader: the compiled reference.
  const faults = await npx(installed, ['reference', '--list-faults']);
  expect(faults.code, faults.stderr).toBe(0);
  expect(faults.stdout).toContain(FAULT);
  const refused = await npx(installed, ['frob']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('calls-conformance: unknown command "frob"');
});

test('npx calls-conformance har from the installed package: its thread starts from the compiled file, and judges the file', async () => {
  const installed = await install(LATEST);
  const capture = join(installed.project, 'exchanges.jsonl');
  writeFileSync(
    capture,
    `${JSON.stringify({
      startedAt: '2026-12-06T08:00:00.000Z',
      durationMs: 3,
      request: { method: 'GET', url: 'http://127.0.0.1:9/v3/calls/abc', headers: { apikey: 'k-123456' } },
      response: { status: 404, headers: [['content-type', 'application/json']], body: '{"error":{"code":"ERR_CALL_SESSION_NOT_FOUND"}}' },
    })}\n`,
  );
  const reports = join(installed.project, 'har-report');
  const judged = await npx(installed, ['har', capture], { REPORT_DIR: reports });
  expect([0, 1], `${judged.stdout}\n${judged.stderr}`).toContain(judged.code);
  expect(judged.stderr).not.toContain('the judge failed');
  const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as ConformanceReport;
  expect(results.passive?.exchanges).toBe(1);
});

test('npx calls-conformance proxy from the installed package: its judging thread starts from the compiled file, and judges what passes', async () => {
  const installed = await install(LATEST);
  await withReference(undefined, async (base) => {
    const bin = join(installed.project, 'node_modules', 'calls-conformance', 'bin', 'calls-conformance.js');
    const reports = join(installed.project, 'proxy-report');
    const child = spawn(join(installed.node.bin, 'node'), [bin, 'proxy', '--target', base, '--port', '0', '--report-every-minutes', '0'], {
      cwd: installed.project,
      env: envWith(installed.node, { REPORT_DIR: reports }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const listening = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the installed proxy did not listen:\n${output}`)), 60_000);
      const look = () => {
        const address = output.match(/Point your app, SDK or tests at (http:\/\/\S+) as their base URL/)?.[1];
        if (address) {
          clearTimeout(timer);
          resolve(address);
        }
      };
      child.stdout.on('data', look);
      void exited.then(() => reject(new Error(`the installed proxy exited before it listened:\n${output}`)));
    });
    const answer = await fetch(`${listening}/calls?perPage=5`, { headers: { apikey: referenceTargetEnv(base).API_KEY! } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).not.toContain('could not start');
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as ConformanceReport;
    expect(results.verdict, output).toBe('NO VIOLATIONS IN 1 EXCHANGES');
  });
});

test('a Playwright other than the pinned one (an npm override) is refused at start in one line, exit 2', async () => {
  const installed = await install(LATEST);
  const manifest = join(installed.project, 'node_modules', '@playwright', 'test', 'package.json');
  const original = readFileSync(manifest, 'utf8');
  const pinned = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies['@playwright/test']!;
  expect(pinned, 'the pin bin/calls-conformance.js reads').toMatch(/^~\d+\.\d+\.\d+$/);
  const [major, minor] = pinned.slice(1).split('.').map(Number);
  writeFileSync(manifest, original.replace(/"version": "[^"]+"/, `"version": "${major}.${minor! + 1}.0"`));
  try {
    const refused = await npx(installed, ['--help']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `calls-conformance: needs @playwright/test ${pinned}, the version it is tested with; found ${major}.${minor! + 1}.0 (an npm override?)\n`,
    );
  } finally {
    writeFileSync(manifest, original);
  }
});

for (const major of SUPPORTED_NODE_MAJORS) {
  test(`Node ${major}: npx calls-conformance in the installing project: CONFORMANT against the embedded reference, exit 0, reports in that project, tests at their TypeScript lines`, async () => {
    const installed = await install(major);
    const { project } = installed;
    const result = await npx(installed, []);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Conformance verdict: CONFORMANT.');
    const report = JSON.parse(readFileSync(join(project, 'conformance-report', 'results.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('CONFORMANT');
    for (const file of ['index.html', 'junit.xml']) expect(existsSync(join(project, 'conformance-report', file)), file).toBe(true);
    // Playwright's artefacts go to the project too, never into the installed package.
    expect(existsSync(join(project, 'node_modules', 'calls-conformance', 'test-results'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'calls-conformance', 'dist', 'test-results'))).toBe(false);
    // Playwright places each compiled test through the source map beside it, at its TypeScript line:
    // the same place as from the clone, with no loader of the suite's own.
    const locations = report.requirements.flatMap((requirement) => requirement.tests.map((entry) => entry.location));
    expect(locations.length).toBeGreaterThan(50);
    for (const location of locations) expect(location).toMatch(/^node_modules\/calls-conformance\/suite\/\S+\.spec\.ts:([2-9]|\d{2,})$/);
    const notFound = report.requirements.find((requirement) => requirement.id === 'CALLS-GET-NOT-FOUND')!.tests[0]!;
    const line = lineOf('calls-get/not-found.spec.ts', 'CALLS-GET-NOT-FOUND');
    expect(notFound.location).toBe(`${PACKAGE_TESTS}/calls-get/not-found.spec.ts:${line}`);
    expect(readFileSync(join(project, 'conformance-report', 'index.html'), 'utf8')).toContain(`not-found.spec.ts:${line}`);
  });
}

const readReport = (project: string, dir: string) =>
  JSON.parse(readFileSync(join(project, dir, 'results.json'), 'utf8')) as ConformanceReport;

for (const major of SUPPORTED_NODE_MAJORS) {
  test(`Node ${major}: npx calls-conformance${major === LATEST ? '' : ' --grep @get-call'} against a remote target named in the project's .env (the reference with the fault ${FAULT}): NON-CONFORMANT, exit 1, REPORT_DIR relative to the project, the failure at its TypeScript line${major === LATEST ? '; its rerun and replay lines replay the failure there' : ''}`, async () => {
    // Pasting the rerun and replay lines tests the command line, the same on every Node: once is
    // enough. The other Node runs the operation the fault breaks (the whole suite ran on it above).
    const replays = major === LATEST;
    const part = replays ? [] : ['--grep', '@get-call'];
    const installed = await install(major);
    const { project } = installed;
    const declared = findFault(FAULT)!.requirements;
    const { result, rerun, replay } = await withReference(FAULT, async (base) => {
      // No retries: the fault fails every attempt, and each retry costs a new Playwright worker.
      const env = { ...referenceTargetEnv(base), REPORT_DIR: 'reports/remote', CONFORMANCE_RETRIES: '0' };
      writeFileSync(
        join(project, '.env'),
        Object.entries(env)
          .map(([name, value]) => `${name}=${value}`)
          .join('\n'),
      );
      try {
        const result = await npx(installed, part);
        // The commands the report gives, pasted as they are (their seed in them, the target from .env).
        const failure = readReport(project, 'reports/remote').failures.find(
          (entry) => entry.requirements.includes(declared[0]!) && !entry.credited,
        );
        const replayLine = failure?.message.match(/^Replay with: (.+)$/m)?.[1];
        return {
          result,
          failure,
          rerun:
            !replays || failure === undefined
              ? undefined
              : { command: failure.rerun, run: await shell(installed, failure.rerun, { REPORT_DIR: 'reports/rerun' }) },
          replay:
            !replays || replayLine === undefined
              ? undefined
              : { command: replayLine, run: await shell(installed, replayLine, { REPORT_DIR: 'reports/replay' }) },
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

    // The failure is placed at the test's real line, and the rerun line names it with the installed command.
    const line = lineOf('calls-get/get-call.spec.ts', declared[0]!);
    expect(line).toBeGreaterThan(1);
    // The console's line for the failed requirement places it there too.
    expect(result.stdout).toContain(`first: ${PACKAGE_TESTS}/calls-get/get-call.spec.ts:${line} "${declared[0]} `);
    if (!replays) return;
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
}

test('sharded from the installed package: --add-reporter=blob writes blob-report/ in the project, and merge turns it into the report and verdict', async () => {
  const installed = await install(LATEST);
  const { project } = installed;
  const shard = await npx(installed, ['--shard=1/1', '--add-reporter=blob', '--grep', 'CALLS-GET-NOT-FOUND '], {
    REPORT_DIR: 'reports/shard',
  });
  expect(shard.code, shard.stderr).toBe(0);
  expect(readdirSync(join(project, 'blob-report')).filter((file) => file.endsWith('.zip'))).toHaveLength(1);
  expect(existsSync(join(project, 'node_modules', 'calls-conformance', 'blob-report'))).toBe(false);
  const merged = await npx(installed, ['merge', 'blob-report'], { REPORT_DIR: 'reports/merged' });
  expect(merged.code, merged.stderr).toBe(0);
  expect(merged.stdout).toContain('Conformance verdict: CONFORMANT.');
  expect(existsSync(join(project, 'reports', 'merged', 'results.json'))).toBe(true);
});
