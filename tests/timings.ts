// `npm run self-test-times [-- --root DIR] [--write]`: runs the project's own tests as `npm test`
// does (the self and faults projects; types, lint and the OpenAPI lint are timed alone) and prints how long each
// self-test folder and the kill matrix took: its tests' summed time (what it costs the machine's
// workers) and the whole run's wall time, with the typecheck and the lint. `--root` times another
// checkout (an older commit, for a before-and-after), `--write` puts the table into
// docs/self-tests.md between its markers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runChecks, STATIC_CHECKS } from './static-checks.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = join(PROJECT_ROOT, 'docs', 'self-tests.md');
const START = '<!-- self-test-times:start -->';
const END = '<!-- self-test-times:end -->';
/** How many of the slowest self-test files the command lists after its table. */
const SLOWEST = 15;

interface JsonResult {
  duration: number;
  error?: { message?: string };
}
interface JsonSpec {
  file: string;
  title?: string;
  line?: number;
  /** `unexpected` for a test that failed every attempt (Playwright's JSON report). */
  tests: Array<{ projectName: string; status?: string; results: JsonResult[] }>;
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  /** Where the spec files' paths start: the config's test folder. */
  config?: { rootDir?: string };
  suites: JsonSuite[];
  stats: { duration: number; expected: number; unexpected: number; flaky: number; skipped: number };
}

export interface FolderTime {
  folder: string;
  tests: number;
  /** The folder's tests' durations summed: worker time, not wall time. */
  seconds: number;
}

/** Test time summed by what `keyOf` makes of each test's path under tests and its project, slowest first. */
function timesBy(report: JsonReport, selfDir: string, keyOf: (path: string, project: string) => string | undefined): FolderTime[] {
  const rootDir = report.config?.rootDir ?? selfDir;
  const folders = new Map<string, FolderTime>();
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const folder = keyOf(relative(selfDir, resolve(rootDir, spec.file)), test.projectName);
        if (folder === undefined) continue;
        const entry = folders.get(folder) ?? { folder, tests: 0, seconds: 0 };
        entry.tests += 1;
        entry.seconds += test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
        folders.set(folder, entry);
      }
    }
    (suite.suites ?? []).forEach(walk);
  };
  report.suites.forEach(walk);
  return [...folders.values()].sort((a, b) => b.seconds - a.seconds);
}

/** Test time by folder (tests/<folder>; the faults project is the kill matrix), from Playwright's JSON report. */
export function timesByFolder(report: JsonReport, selfDir: string): FolderTime[] {
  return timesBy(report, selfDir, (path, project) => (project === 'self' ? path.split('/')[0]! : `kill matrix (${project})`));
}

/** The `count` self-test files whose tests took longest, summed (the kill matrix left out): where to look for time. */
export function slowestFiles(report: JsonReport, selfDir: string, count: number): FolderTime[] {
  return timesBy(report, selfDir, (path, project) => (project === 'self' ? path : undefined)).slice(0, count);
}

/** Each test that failed, as `file:line title: the first line of its last error`, so a timing run also says what broke. */
export function failedTests(report: JsonReport): string[] {
  const failed: string[] = [];
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const message = test.results.at(-1)?.error?.message ?? '';
        const first = message.split('\n').find((line) => line.trim() !== '') ?? 'no error message';
        failed.push(`${spec.file}:${spec.line ?? 0} ${spec.title ?? ''}: ${first.trim()}`);
      }
    }
    (suite.suites ?? []).forEach(walk);
  };
  report.suites.forEach(walk);
  return failed;
}

/**
 * CPU seconds this process's finished children (and theirs, each waited for) have used, from Linux's
 * /proc/self/stat (cutime and cstime, in clock ticks of 1/100 s); undefined elsewhere.
 */
export function childrenCpuSeconds(stat = '/proc/self/stat'): number | undefined {
  try {
    const text = readFileSync(stat, 'utf8');
    // Fields after the command name (which may hold spaces, in parentheses): the 3rd field onwards.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks / 100 : undefined;
  } catch {
    return undefined;
  }
}

function timed(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { seconds: number; cpuSeconds: number | undefined; status: number | null } {
  const started = Date.now();
  const cpuBefore = childrenCpuSeconds();
  const run = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const cpuAfter = childrenCpuSeconds();
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { seconds: (Date.now() - started) / 1000, cpuSeconds, status: run.status };
}

export function renderTable(times: FolderTime[], wall: Record<string, number>, when: string, cpu: Record<string, number> = {}): string {
  const lines = [
    `Measured ${when} by \`npm run self-test-times\`. Wall times are the step's own; CPU is what its processes used, on all cores; a folder's time is its tests' durations summed (the workers run several at once, so these add up to more than the wall time).`,
    '',
    '| Step | Tests | Seconds |',
    '| --- | ---: | ---: |',
    ...Object.entries(wall).map(([step, seconds]) => `| ${step} (wall) | | ${seconds.toFixed(0)} |`),
    ...Object.entries(cpu).map(([step, seconds]) => `| ${step} (CPU) | | ${seconds.toFixed(0)} |`),
    ...times.map((time) => `| ${time.folder} | ${time.tests} | ${time.seconds.toFixed(0)} |`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { root: { type: 'string' }, write: { type: 'boolean' } }, strict: true });
  const root = resolve(values.root ?? PROJECT_ROOT);
  const npx = 'npx';
  const wall: Record<string, number> = {};
  // The static checks run at once, as npm test runs them (static-checks.ts): each one's time is its
  // own, beside the others, and the step's is the longest.
  const checksStarted = Date.now();
  const checks = await runChecks(STATIC_CHECKS, root);
  for (const check of checks) wall[`${check.script}, beside the others`] = check.seconds;
  wall['static checks, at once'] = (Date.now() - checksStarted) / 1000;
  const steps: Array<[string, number | null]> = checks.map((check) => [check.script, check.status]);
  const scratch = mkdtempSync(join(tmpdir(), 'self-test-times-'));
  try {
    const reportFile = join(scratch, 'report.json');
    const run = timed(npx, ['playwright', 'test', '--project=self', '--project=faults', '--reporter=json'], root, {
      ...process.env,
      CONFORMANCE_SELF_TESTS: '1',
      PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile,
    });
    wall['self and faults projects'] = run.seconds;
    const cpu: Record<string, number> = run.cpuSeconds === undefined ? {} : { 'self and faults projects': run.cpuSeconds };
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
    const times = timesByFolder(report, join(root, 'tests'));
    const { expected, unexpected, flaky, skipped } = report.stats;
    const table = renderTable(
      times,
      wall,
      `on ${new Date().toISOString().slice(0, 10)} (${expected} passed, ${unexpected} failed, ${flaky} flaky, ${skipped} skipped)`,
      cpu,
    );
    process.stdout.write(`${table}\n`);
    process.stdout.write(`\nThe ${SLOWEST} slowest self-test files (tests' durations summed):\n`);
    for (const file of slowestFiles(report, join(root, 'tests'), SLOWEST))
      process.stdout.write(`${file.seconds.toFixed(0).padStart(6)} s  ${String(file.tests).padStart(4)} tests  ${file.folder}\n`);
    // A timing run is also a whole run: what failed is named, and the command fails with it.
    const failed = failedTests(report);
    for (const line of failed) process.stdout.write(`Failed: ${line}\n`);
    const stepsFailed = steps.filter(([, status]) => status !== 0).map(([step]) => step);
    for (const step of stepsFailed) process.stdout.write(`Failed: ${step}\n`);
    if (failed.length > 0 || stepsFailed.length > 0 || run.status !== 0) process.exitCode = 1;
    if (values.write) {
      const doc = readFileSync(DOC, 'utf8');
      const start = doc.indexOf(START);
      const end = doc.indexOf(END);
      if (start < 0 || end < start) throw new Error(`${DOC} has no ${START} … ${END} markers`);
      writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
