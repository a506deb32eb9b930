// What the diff command (docs/diff.md) costs and says of a deployment beside itself (issue 56):
// the reference against itself, two doors on one store (reference/two-doors.ts), standing still and
// living at one new call a second, under ten conformance seeds: no difference reported, exit 0 each.
// And its cost, paired: under the same seed, a conformance run against the first door, then a diff
// run against both, one after the other, so that the machine's drift hits both alike; the target is
// the diff at most 2.2 times the conformance run. Both are spawned as users run them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { PROJECT_ROOT, timeSuiteRun } from './processes.ts';
import { median, ratio, seconds, times } from './stats.ts';
import type { Target } from './render.ts';
import type { DiffResults } from '../../reports/diff-report.ts';

/** The ten conformance seeds of the A/A target. */
const AA_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
/** The seeds the cost is paired on: each a conformance run and a diff run. */
const COST_SEEDS = [20261121, 3, 7] as const;
const COST_TARGET = 2.2;
const LIVING_RATE = 1;
const DIFF_TIMEOUT_MS = 300_000;

interface DiffRun {
  ms: number;
  code: number | null;
  findings: number;
  requests: number;
  /** What a run that was not silent said: its readings that changed, its findings, what it could not judge. */
  said: string[];
}

export interface DiffCostResults {
  calls: number;
  aa: Array<{ seed: number; living: boolean; run: DiffRun }>;
  cost: Array<{ seed: number; conformanceMs: number; conformanceRequests: number; diff: DiffRun; ratio: number }>;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One diff run, spawned as `npm run conformance -- diff` runs it, against the two doors. */
function timeDiffRun(primary: string, candidate: string, seed: number): Promise<DiffRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-diff-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ENV_FILE: '',
    CONFORMANCE_SEED: String(seed),
    CALLS_BASE_URL: primary,
    CHAT_BASE_URL: primary,
    API_KEY: DEMO_KEYS.fullAccess,
    RESTRICTED_API_KEY: DEMO_KEYS.readOnly,
    CANDIDATE_CALLS_BASE_URL: candidate,
    CANDIDATE_CHAT_BASE_URL: candidate,
    CANDIDATE_API_KEY: DEMO_KEYS.fullAccess,
    CANDIDATE_RESTRICTED_API_KEY: DEMO_KEYS.readOnly,
    REPORT_DIR: dir,
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/conformance.ts', 'diff'], { cwd: PROJECT_ROOT, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), DIFF_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      try {
        const { diff } = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { diff: DiffResults };
        const said = [
          ...diff.readingsChanged,
          ...diff.findings.map(
            (finding) =>
              `${finding.verdict} ${finding.operation} ${finding.path} ${finding.kind} ${finding.candidate}/${finding.comparisons}`,
          ),
          ...diff.inconclusive.map(({ operation, reason }) => `${operation}: ${reason}`),
        ];
        resolve({ ms, code, findings: diff.findings.length, requests: diff.requests, said });
      } catch {
        resolve({ ms, code, findings: Number.NaN, requests: 0, said: ['no results.json'] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

export async function measureDiffCost(calls: number): Promise<DiffCostResults> {
  const aa: DiffCostResults['aa'] = [];
  for (const seed of AA_SEEDS)
    for (const living of [false, true]) {
      log(`diff: the reference against itself, ${living ? `living at ${LIVING_RATE} new call a second` : 'standing still'}, seed ${seed}`);
      const doors = await openTwoDoors({ calls, ...(living && { live: { rate: LIVING_RATE } }) }, {});
      try {
        aa.push({ seed, living, run: await timeDiffRun(doors.primary, doors.candidate, seed) });
      } finally {
        await doors.close();
      }
    }
  const cost: DiffCostResults['cost'] = [];
  for (const seed of COST_SEEDS) {
    log(`diff: a conformance run and a diff run under seed ${seed}, one after the other`);
    const doors = await openTwoDoors({ calls }, {});
    try {
      const conformance = await timeSuiteRun(calls, doors.primary, 0, { env: { CONFORMANCE_SEED: String(seed) } });
      const diff = await timeDiffRun(doors.primary, doors.candidate, seed);
      cost.push({
        seed,
        conformanceMs: conformance.totalMs,
        conformanceRequests: conformance.requests,
        diff,
        ratio: ratio(diff.ms, conformance.totalMs),
      });
    } finally {
      await doors.close();
    }
  }
  return { calls, aa, cost };
}

const silent = (run: DiffRun) => run.code === 0 && run.findings === 0;

export function diffTargets(results: DiffCostResults): Target[] {
  const aaTarget = (living: boolean): Target => {
    const runs = results.aa.filter((row) => row.living === living);
    const quiet = runs.filter(({ run }) => silent(run)).length;
    return {
      name: `diff: the reference against itself ${living ? `living at ${LIVING_RATE} new call/s` : 'standing still'}, ${runs.length} seeds, 0 differences and exit 0 each`,
      value: `${quiet} of ${runs.length} seeds`,
      met: runs.length === AA_SEEDS.length && quiet === runs.length,
    };
  };
  const worst = Math.max(...results.cost.map((row) => row.ratio));
  return [
    aaTarget(false),
    aaTarget(true),
    {
      name: `diff: a run at most ${COST_TARGET}x one conformance run with the same seed`,
      value: `${times(median(results.cost.map((row) => row.ratio)))} median, ${times(worst)} worst of ${results.cost.length} seeds`,
      met: worst <= COST_TARGET,
    },
  ];
}

export function renderDiffCost(results: DiffCostResults): string[] {
  const seedsOf = (living: boolean, pick: (run: DiffRun) => boolean) =>
    results.aa.filter((row) => row.living === living && pick(row.run)).map((row) => row.seed);
  const aaRow = (living: boolean) => {
    const loud = seedsOf(living, (run) => !silent(run));
    const runs = results.aa.filter((row) => row.living === living).map((row) => row.run);
    return `| ${living ? `living, ${LIVING_RATE} new call/s` : 'standing still'} | ${runs.length} | ${runs.length - loud.length} | ${loud.length === 0 ? 'none' : loud.join(', ')} | ${seconds(median(runs.map((run) => run.ms)))} |`;
  };
  return [
    `**A diff of the reference against itself** (two doors on one store of ${results.calls.toLocaleString('en')} calls, seeds ${AA_SEEDS.join(', ')}):`,
    '',
    '| Reference | Seeds | 0 differences, exit 0 | Seeds that differed | Median diff run |',
    '|---|---:|---:|---|---:|',
    aaRow(false),
    aaRow(true),
    '',
    ...results.aa
      .filter(({ run }) => !silent(run))
      .map(({ seed, living, run }) => `- seed ${seed}, ${living ? 'living' : 'standing still'}: exit ${run.code}; ${run.said.join('; ')}`),
    '',
    '**What a diff costs** (a conformance run against the first door, then a diff run against both, under the same seed):',
    '',
    '| Seed | Conformance run | Its requests | Diff run | Its reads (3 a planned read, learning aside) | Ratio |',
    '|---:|---:|---:|---:|---:|---:|',
    ...results.cost.map(
      (row) =>
        `| ${row.seed} | ${seconds(row.conformanceMs)} | ${Math.round(row.conformanceRequests)} | ${seconds(row.diff.ms)} | ${row.diff.requests} | ${times(row.ratio)} |`,
    ),
    '',
  ];
}
