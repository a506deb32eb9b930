// The GitHub Actions example (.ci/github-actions/conformance-staging.example.yml) is not run from
// where it is, so nothing else would notice it drift from the suite: these tests parse it and hold
// it to what the suite needs of a sharded run against staging. The shards run with the blob
// reporter and one seed, the keys come from secrets only, nothing writes, and one job merges the
// blobs, fetches the main branch's last report as the baseline (with gh, excluding the run itself),
// gates on what newly fails against it (on the verdict when there is none) and writes a job summary.
// Every run: script is checked by bash -n; the baseline, gate and summary scripts are also run, with
// gh and npm replaced by stubs, against the cases they must decide.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import type { ConformanceReport, PassiveVerdict, RequirementResult } from '../../core/results/report-model.ts';
import { coverageOf } from '../../core/coverage/model.ts';
import { emptyTally, tallyObservation } from '../../core/coverage/tally.ts';

const WORKFLOW_PATH = '.ci/github-actions/conformance-staging.example.yml';

type Env = Record<string, string | number | boolean>;
interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Env;
  with?: Record<string, string | number | boolean>;
  'continue-on-error'?: boolean;
}
type Permissions = Record<string, 'read' | 'write' | 'none'>;
interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Permissions;
  env?: Env;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Permissions;
  env?: Env;
  jobs: Record<string, Job>;
}

const text = readFileSync(WORKFLOW_PATH, 'utf8');
const workflow = parse(text) as Workflow;
const shards = () => job('conformance');
const verdict = () => job('verdict');

function job(name: string): Job {
  const found = workflow.jobs[name];
  expect(found, `job ${name}`).toBeDefined();
  return found!;
}

function stepWith(of: Job, what: string, matches: (step: Step) => boolean): { step: Step; index: number } {
  const index = of.steps.findIndex(matches);
  expect(index, `a step that ${what}`).toBeGreaterThanOrEqual(0);
  return { step: of.steps[index]!, index };
}

/** The environment a step runs with: the workflow's, under the job's, under the step's own. */
const envOf = (of: Job, step: Step): Env => ({ ...workflow.env, ...of.env, ...step.env });

const shardStep = () => stepWith(shards(), 'runs the suite', (step) => step.id === 'shard');
const mergeStep = () => stepWith(verdict(), 'merges the shards', (step) => step.id === 'merge');
const allSteps = () => Object.values(workflow.jobs).flatMap((each) => each.steps);
const allEnvs = (): Env[] => [
  workflow.env ?? {},
  ...Object.values(workflow.jobs).flatMap((each) => [each.env ?? {}, ...each.steps.map((step) => step.env ?? {})]),
];
const SECRET = /^\$\{\{\s*secrets\.[A-Z0-9_]+\s*\}\}$/;
/** The run's own token, which GitHub creates for the run and masks: the only other token allowed. */
const RUN_TOKEN = /^\$\{\{\s*github\.token\s*\}\}$/;
const EXPRESSION = /\$\{\{[^}]*\}\}/g;

test('the workflow runs by hand, on pull requests and nightly', () => {
  expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['workflow_dispatch', 'pull_request', 'schedule']));
  expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\S+ \S+ \* \* \*$/) }]);
});

test('the suite runs in three shards, each passing its matrix shard to Playwright with the blob reporter', () => {
  const { strategy } = shards();
  expect(strategy?.['fail-fast']).toBe(false);
  expect(strategy?.matrix).toMatchObject({ shardIndex: [1, 2, 3], shardTotal: [3] });

  const { step } = shardStep();
  expect(step.run).toContain('npx playwright test --project=conformance');
  expect(step.run).toContain('--shard=${{ matrix.shardIndex }}/${{ matrix.shardTotal }}');
  // The suite records the blob itself under --shard; --reporter would replace its compact console.
  expect(step.run).not.toContain('--reporter');
  expect(envOf(shards(), step).PLAYWRIGHT_BLOB_OUTPUT_DIR).toBe('blob-report');
  // A failing shard must still reach the upload: its results belong in the merged report.
  expect(step['continue-on-error']).toBe(true);
});

test('each shard uploads its blob under its own name, whatever its outcome, with the keys taken out first', () => {
  const { index: run } = shardStep();
  const { step: scrub, index: scrubbed } = stepWith(
    shards(),
    'takes the keys out of the blob',
    (step) => step.run?.includes('blob-report/*.zip') === true,
  );
  const { step: upload, index: uploaded } = stepWith(
    shards(),
    'uploads the blob',
    (step) => step.uses?.startsWith('actions/upload-artifact@') === true,
  );
  expect(scrub.if).toBe('always()');
  expect(scrubbed).toBeGreaterThan(run);
  expect(uploaded).toBeGreaterThan(scrubbed);
  expect(upload.if).toBe('always()');
  expect(upload.with).toMatchObject({ name: 'blob-report-${{ matrix.shardIndex }}', path: expect.stringMatching(/^blob-report\/?$/) });
  expect(upload.with?.['retention-days']).toEqual(expect.any(Number));
});

test('the target and the keys the suite needs come from repository secrets, and nothing is read from a .env file', () => {
  const env = envOf(shards(), shardStep().step);
  for (const name of ['CALLS_BASE_URL', 'CHAT_BASE_URL', 'API_KEY', 'RESTRICTED_API_KEY']) {
    expect(String(env[name]), name).toMatch(SECRET);
  }
  expect(env.ENV_FILE).toBe('');
  // Secrets that are not set arrive empty, which the suite would take for "no target": the
  // embedded reference. A step before the suite must stop the shard instead.
  const { index: run } = shardStep();
  const { index: checked } = stepWith(
    shards(),
    'stops when the target is missing',
    (step) => ['CALLS_BASE_URL', 'CHAT_BASE_URL', 'API_KEY'].every((name) => step.run?.includes(name)) && /\bexit 1\b/.test(step.run ?? ''),
  );
  expect(checked).toBeLessThan(run);
});

test('no key is written in the file: every key-like variable is a secret and no key-like value appears', () => {
  for (const env of allEnvs()) {
    for (const [name, value] of Object.entries(env)) {
      if (name === 'GH_TOKEN') expect(String(value), name).toMatch(RUN_TOKEN);
      else if (/KEY|SECRET|TOKEN|PASSWORD|BASE_URL/.test(name)) expect(String(value), name).toMatch(SECRET);
    }
  }
  // Secrets reach scripts only through env, where GitHub masks them; none is pasted into a script.
  for (const step of allSteps()) expect(step.run ?? '', step.name).not.toMatch(/\$\{\{[^}]*\bsecrets\./);
  // Outside ${{ }} expressions, comments included: no long run of key characters (paths aside) or hex.
  const outsideExpressions = text.replace(/\$\{\{[^}]*\}\}/g, '');
  expect(outsideExpressions).not.toMatch(/[A-Za-z0-9_+=-]{32,}/);
  expect(outsideExpressions).not.toMatch(/\b[0-9a-f]{16,}\b/i);
  for (const key of Object.values(DEMO_KEYS)) expect(text).not.toContain(key);
});

test('nothing sets ALLOW_WRITES to true', () => {
  for (const env of allEnvs()) {
    if ('ALLOW_WRITES' in env) expect(String(env.ALLOW_WRITES).trim().toLowerCase()).not.toBe('true');
  }
  for (const step of allSteps()) expect(step.run ?? '').not.toMatch(/ALLOW_WRITES=["']?true/i);
});

test('every shard generates from the same seed, one that the suite accepts', () => {
  const seeds = shards().steps.map((step) => envOf(shards(), step).CONFORMANCE_SEED);
  expect(new Set(seeds).size).toBe(1);
  const seed = String(seeds[0]);
  // Nothing of the matrix in it; and the run number, not github.run_id, which is far above the
  // suite's largest seed (2^31 - 1) and would stop every shard with a configuration error.
  expect(seed).not.toContain('matrix.');
  expect(seed).toMatch(/^\$\{\{\s*github\.run_number\s*\}\}$/);
});

test('each shard is bounded by the repository variables MAX_RPS and REQUEST_BUDGET, with defaults', () => {
  const env = envOf(shards(), shardStep().step);
  expect(String(env.MAX_RPS)).toMatch(/^\$\{\{\s*vars\.STAGING_MAX_RPS\s*\|\|\s*'\d+(\.\d+)?'\s*\}\}$/);
  expect(String(env.REQUEST_BUDGET)).toMatch(/^\$\{\{\s*vars\.STAGING_REQUEST_BUDGET\s*\|\|\s*'\d+'\s*\}\}$/);
});

test('the verdict job runs after every shard and merges all their blobs with npm run conformance -- merge', () => {
  const { needs } = verdict();
  expect([needs].flat()).toContain('conformance');
  expect(verdict().if).toBe('always()');

  const { step: download, index: downloaded } = stepWith(
    verdict(),
    'downloads the blobs',
    (step) => step.uses?.startsWith('actions/download-artifact@') === true,
  );
  expect(download.with).toMatchObject({ path: 'all-blob-reports', pattern: 'blob-report-*', 'merge-multiple': true });
  const { step: merge, index: merged } = mergeStep();
  expect(merged).toBeGreaterThan(downloaded);
  expect(merge.run).toContain('npm run conformance -- merge all-blob-reports');
  // The merge's exit code is the verdict; the job must go on to upload the report and gate.
  expect(merge['continue-on-error']).toBe(true);
});

test('the verdict job uploads the conformance report whatever the verdict', () => {
  const { index: merged } = mergeStep();
  const { step: upload, index: uploaded } = stepWith(
    verdict(),
    'uploads the report',
    (step) => step.uses?.startsWith('actions/upload-artifact@') === true && step.with?.name === 'conformance-report',
  );
  expect(uploaded).toBeGreaterThan(merged);
  expect(upload.if).toBe('always()');
  expect(upload.with?.path).toMatch(/^conformance-report\/?$/);
});

test('the verdict job uploads results.sarif to code scanning after the merge, whatever the verdict, without failing the gate', () => {
  const { index: merged } = mergeStep();
  const { step, index } = stepWith(
    verdict(),
    'uploads the SARIF',
    (each) => each.uses?.startsWith('github/codeql-action/upload-sarif@') === true,
  );
  expect(index).toBeGreaterThan(merged);
  expect(index).toBeLessThan(gateStep().index);
  expect(step.if).toMatch(/^always\(\) && hashFiles\('conformance-report\/results\.sarif'\) != ''$/);
  expect(step['continue-on-error']).toBe(true);
  expect(step.with).toEqual({ sarif_file: 'conformance-report/results.sarif', category: 'conformance-staging' });
});

test("the verdict job keeps the runs' history between runs: restored before the merge, named to it, saved after whatever the verdict", () => {
  const { step: merge, index: merged } = mergeStep();
  const file = merge.env?.HISTORY_FILE;
  expect(typeof file === 'string' && file !== '', 'the merge step sets HISTORY_FILE').toBe(true);
  const cache = (kind: string) =>
    stepWith(verdict(), `${kind}s the history`, (step) => step.uses?.startsWith(`actions/cache/${kind}@`) === true);
  const [restore, save] = [cache('restore'), cache('save')];
  expect(restore.index).toBeLessThan(merged);
  expect(save.index).toBeGreaterThan(merged);
  expect(restore.step.with?.path).toBe(file);
  expect(save.step.with?.path).toBe(file);
  // A cache entry is never overwritten: each run saves under a key of its own, found again by its prefix.
  expect(save.step.with?.key).toBe(restore.step.with?.key);
  expect(String(save.step.with?.key)).toContain('${{ github.run_id }}');
  expect(String(save.step.with?.key).startsWith(String(restore.step.with?.['restore-keys']))).toBe(true);
  expect(save.step.if).toMatch(/^always\(\) && /);
});

// --- The baseline, the gate and the job summary ----------------------------------------------

const baselineStep = () => stepWith(verdict(), 'fetches the baseline', (step) => step.id === 'baseline');
const reportUpload = () =>
  stepWith(
    verdict(),
    'uploads the report',
    (step) => step.uses?.startsWith('actions/upload-artifact@') === true && step.with?.name === 'conformance-report',
  );
const gateStep = () => stepWith(verdict(), 'gates', (step) => step.id === 'gate');
const summaryStep = () => stepWith(verdict(), 'writes the job summary', (step) => step.run?.includes('$GITHUB_STEP_SUMMARY') === true);
const expression = (inner: string) => new RegExp(`^\\$\\{\\{\\s*${inner}\\s*\\}\\}$`);
const HAS_JQ = spawnSync('jq', ['--version']).status === 0;

/** What the runner gives every step, for the scripts run below. */
const RUNNER = {
  GITHUB_RUN_ID: '4242',
  GITHUB_WORKFLOW_REF: 'octo/calls/.github/workflows/conformance-staging.yml@refs/pull/7/merge',
  GITHUB_REPOSITORY: 'octo/calls',
  GITHUB_SERVER_URL: 'https://github.com',
};
const runUrl = (id: number | string) => `https://github.com/octo/calls/actions/runs/${id}`;

// gh: `run list` prints GH_RUNS (or fails when GH_LIST_FAILS is set); `run download ID -n NAME -D DIR`
// writes DIR/results.json when ID is in GH_ARTIFACTS (one of the suite's, unless ID is in GH_BAD),
// and fails as gh does for an expired artifact otherwise. npm: `compare baseline baseline` exits 2
// on a results.json that is not the suite's, as the suite does; `compare baseline conformance-report`
// prints COMPARE_OUT and exits COMPARE_EXIT. Both log their calls to STUB_CALLS.
const STUBS: Record<string, string> = {
  gh: `#!/usr/bin/env bash
echo "gh $*" >> "$STUB_CALLS"
case "$1 $2" in
  'run list')
    if [ -n "\${GH_LIST_FAILS:-}" ]; then echo 'HTTP 403: Resource not accessible by integration' >&2; exit 1; fi
    printf '%s\\n' "$GH_RUNS" ;;
  'run download')
    id="$3"; shift 3; name=''; dir='.'
    while [ $# -gt 0 ]; do case "$1" in -n) name="$2"; shift 2 ;; -D) dir="$2"; shift 2 ;; *) shift ;; esac; done
    case " \${GH_ARTIFACTS:-} " in *" $id "*) ;; *) echo 'no valid artifacts found to download' >&2; exit 1 ;; esac
    if [ "$name" != conformance-report ]; then echo "no artifact named $name" >&2; exit 1; fi
    mkdir -p "$dir"
    case " \${GH_BAD:-} " in
      *" $id "*) echo '{"format":"older"}' > "$dir/results.json" ;;
      *) echo "{\\"format\\":\\"calls-conformance-results/1\\",\\"from\\":$id}" > "$dir/results.json" ;;
    esac ;;
  *) echo "gh stub: unexpected $*" >&2; exit 1 ;;
esac
`,
  npm: `#!/usr/bin/env bash
echo "npm $*" >> "$STUB_CALLS"
case "$*" in
  *'conformance -- compare baseline baseline')
    if grep -q 'calls-conformance-results/1' baseline/results.json; then exit 0; fi
    echo 'compare: baseline/results.json is not a conformance results.json' >&2; exit 2 ;;
  *'conformance -- compare baseline conformance-report')
    printf '%s' "\${COMPARE_OUT:-}"; exit "\${COMPARE_EXIT:-0}" ;;
  *) echo "npm stub: unexpected $*" >&2; exit 1 ;;
esac
`,
};

interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the script wrote to $GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  /** What it wrote to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The stubs' calls, one line each. */
  calls: string[];
  /** The working directory it ran in. */
  work: string;
}

const scratch: string[] = [];
test.afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs a step's script as the runner would with `shell: bash` (bash -eo pipefail, a stricter shell
 * than the default bash -e), in a fresh working directory that `setup` fills, with gh and npm
 * stubbed. The step's env is given by `env` (its values are expressions that only GitHub evaluates).
 */
function runStep(step: Step, env: Record<string, string>, setup: (work: string) => void = () => {}): ScriptRun {
  expect(step.run, `${step.name}: takes every expression through env`).not.toMatch(EXPRESSION);
  for (const name of Object.keys(step.env ?? {})) expect(Object.keys(env), `${step.name}: ${name} is given`).toContain(name);
  const dir = mkdtempSync(join(tmpdir(), 'actions-example-'));
  scratch.push(dir);
  const bin = join(dir, 'stubs');
  const work = join(dir, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  for (const [name, body] of Object.entries(STUBS)) {
    writeFileSync(join(bin, name), body);
    chmodSync(join(bin, name), 0o755);
  }
  setup(work);
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary'), STUB_CALLS: join(dir, 'calls') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  writeFileSync(join(dir, 'step.sh'), step.run ?? '');
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(dir, 'step.sh')], {
    cwd: work,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: dir, LANG: 'C.UTF-8', ...RUNNER, ...files, ...env },
  });
  const lines = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    outputs: Object.fromEntries(
      lines(files.GITHUB_OUTPUT).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    ),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    calls: lines(files.STUB_CALLS),
    work,
  };
}

/** The fields of results.json the gate and the summary read, named as the report model names them. */
type ResultsFixture = Pick<ConformanceReport, 'format' | 'verdict' | 'verdictReason' | 'exitCode' | 'expectations' | 'comparison'> & {
  summary: Pick<ConformanceReport['summary'], 'mustFailed' | 'intermittent'>;
  requirements: Array<Pick<RequirementResult, 'id' | 'level' | 'status' | 'expected'>>;
};

const NEWLY_FAILING = [
  { id: 'CALLS-LIST-FILTER-STATUS', level: 'MUST', base: 'pass', next: 'fail' },
  { id: 'CALLS-GET-OK', level: 'MUST', base: 'skip', next: 'intermittent' },
] as const;

function resultsFixture(verdictName: Exclude<ConformanceReport['verdict'], PassiveVerdict>, withComparison: boolean): ResultsFixture {
  const described = { target: 'staging', startedAt: '2025-01-01T03:17:00Z' };
  return {
    format: 'calls-conformance-results/1',
    verdict: verdictName,
    verdictReason: {
      CONFORMANT: 'Every requirement judged at MUST level passed.',
      'NON-CONFORMANT': 'A MUST requirement failed: CALLS-LIST-FILTER-STATUS.',
      INCONCLUSIVE: 'The target could not be reached.',
    }[verdictName],
    exitCode: verdictName === 'CONFORMANT' ? 0 : verdictName === 'NON-CONFORMANT' ? 1 : 3,
    summary: { mustFailed: ['CALLS-LIST-FILTER-STATUS', 'CALLS-GET-OK', 'CALLS-LIST-PAGINATION'], intermittent: ['CALLS-GET-OK'] },
    requirements: [
      { id: 'CALLS-LIST-FILTER-STATUS', level: 'MUST', status: 'fail' },
      { id: 'CALLS-GET-OK', level: 'MUST', status: 'intermittent' },
      { id: 'CALLS-LIST-PAGINATION', level: 'MUST', status: 'fail' },
      {
        id: 'UNREAD-MARK-OK',
        level: 'MUST',
        status: 'expected-fail',
        expected: { reason: "staging runs last year's build (OPS-42)", expired: false },
      },
    ],
    expectations: {
      file: '.ci/staging-expectations.yml',
      expectedFailures: ['UNREAD-MARK-OK'],
      unexpectedPasses: ['CALLS-LIST-DATE-FILTER'],
      expired: [],
    },
    ...(withComparison && {
      comparison: {
        base: { file: 'baseline/results.json', verdict: 'NON-CONFORMANT', ...described },
        next: { file: 'conformance-report/results.json', verdict: verdictName, ...described },
        newlyFailing: NEWLY_FAILING.map((change) => ({ ...change })),
        fixed: [],
        changed: [],
        readings: [],
        notShown: [],
      },
    }),
  };
}

/** What `npm run conformance -- compare` prints, in the suite's own words (reports/compare.ts). */
async function compareOutput(): Promise<string> {
  const { describeComparison } = await import('../../reports/compare.ts');
  return `${describeComparison(resultsFixture('NON-CONFORMANT', true).comparison!)}\n`;
}

function writeJson(path: string, value: unknown) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

test('the verdict job, and only it, may read other runs (actions: read); its one write is code scanning alerts, nothing else may write', () => {
  expect(verdict().permissions).toEqual({ contents: 'read', actions: 'read', 'security-events': 'write' });
  expect(workflow.permissions).toEqual({ contents: 'read' });
  expect(shards().permissions).toBeUndefined();
});

test('the verdict job fetches the baseline with gh: the last completed run of this workflow on main, never this run, into baseline/', () => {
  const { step, index } = baselineStep();
  expect(step.uses, 'no third-party action: the gh of the runner image').toBeUndefined();
  expect(String(step.env?.GH_TOKEN)).toMatch(RUN_TOKEN);
  const run = step.run ?? '';
  expect(run).toMatch(/\bgh run list\b[^\n]*--workflow "\$workflow"/);
  expect(run).toMatch(/\bgh run list\b[^\n]*--branch main\b/);
  expect(run).toMatch(/\bgh run list\b[^\n]*--status completed\b/);
  expect(run).toContain('GITHUB_WORKFLOW_REF');
  expect(run).toMatch(/\$current\b[\s\S]*\$GITHUB_RUN_ID|\$GITHUB_RUN_ID[\s\S]*\$current\b/);
  expect(run).toMatch(/\bgh run download "\$id" -n conformance-report -D baseline\b/);
  // Whatever fails here, the run still merges, uploads and gates.
  expect(step['continue-on-error']).toBe(true);
  // After npm ci (it checks the baseline with the suite's compare), before the merge that uses it.
  const { index: installed } = stepWith(verdict(), 'installs the suite', (each) => each.run === 'npm ci');
  expect(index).toBeGreaterThan(installed);
  expect(index).toBeLessThan(mergeStep().index);
});

test("the baseline is main's latest completed run with a readable report: not this run, not a pull request's, not a cancelled one", () => {
  test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
  const run = (id: number, event: string, conclusion: string) => ({ databaseId: id, event, conclusion, url: runUrl(id) });
  const fetched = runStep(baselineStep().step, {
    GH_TOKEN: 'token',
    GH_REPO: 'octo/calls',
    GH_RUNS: JSON.stringify([
      run(4242, 'schedule', 'success'), // this run itself (listed as completed during a re-run)
      run(4241, 'pull_request', 'success'), // a fork's pull request from its own main
      run(4240, 'schedule', 'cancelled'),
      run(4239, 'schedule', 'failure'), // its report expired
      run(4238, 'schedule', 'success'), // a report the suite can no longer read
      run(4237, 'workflow_dispatch', 'failure'),
      run(4236, 'schedule', 'success'),
    ]),
    GH_ARTIFACTS: '4242 4241 4240 4238 4237 4236',
    GH_BAD: '4238',
  });
  expect(fetched.code, fetched.stderr).toBe(0);
  expect(fetched.outputs).toEqual({ found: 'true', path: 'baseline', 'run-id': '4237', 'run-url': runUrl(4237) });
  expect(JSON.parse(readFileSync(join(fetched.work, 'baseline', 'results.json'), 'utf8'))).toMatchObject({ from: 4237 });
  const [list, ...rest] = fetched.calls;
  expect(list).toMatch(/^gh run list .*--workflow conformance-staging\.yml .*--branch main .*--status completed/);
  const downloads = rest.filter((call) => call.startsWith('gh run download')).map((call) => call.split(' ')[3]);
  expect(downloads).toEqual(['4239', '4238', '4237']);
  expect(existsSync(join(fetched.work, 'conformance-report'))).toBe(false);
});

test('with no report on main to compare with, the baseline step says so in a notice and falls back to the verdict', () => {
  test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
  const env = { GH_TOKEN: 'token', GH_REPO: 'octo/calls' };
  for (const runs of [[], [{ databaseId: 4100, event: 'schedule', conclusion: 'success', url: runUrl(4100) }]]) {
    const none = runStep(baselineStep().step, { ...env, GH_RUNS: JSON.stringify(runs), GH_ARTIFACTS: '' });
    expect(none.code, none.stderr).toBe(0);
    expect(none.outputs).toEqual({ found: 'false' });
    expect(none.stdout).toMatch(/^::notice title=No baseline::.*falls back to the verdict/m);
    expect(existsSync(join(none.work, 'baseline'))).toBe(false);
  }
  const denied = runStep(baselineStep().step, { ...env, GH_RUNS: '', GH_LIST_FAILS: '1' });
  expect(denied.code, denied.stderr).toBe(0);
  expect(denied.outputs).toEqual({ found: 'false' });
  expect(denied.stdout).toMatch(/^::warning title=No baseline::/m);
});

test('the merge is given BASELINE only when a baseline was found, and the known failures the shards ran with', () => {
  const merge = mergeStep().step;
  expect(String(merge.env?.BASELINE)).toMatch(
    expression("steps\\.baseline\\.outputs\\.found == 'true' && steps\\.baseline\\.outputs\\.path \\|\\| ''"),
  );
  // Nowhere else: the shards compare nothing, and a job-wide BASELINE would reach the merge regardless.
  for (const env of allEnvs()) if (env !== merge.env) expect(env).not.toHaveProperty('BASELINE');
  const expectations = expression('vars\\.STAGING_EXPECTATIONS');
  expect(String(envOf(shards(), shardStep().step).CONFORMANCE_EXPECTATIONS)).toMatch(expectations);
  expect(String(envOf(verdict(), merge).CONFORMANCE_EXPECTATIONS)).toMatch(expectations);
  expect(text).toMatch(/^#\s+STAGING_EXPECTATIONS\s+\S/m);
});

test('the report is uploaded under an id (for its address) and kept long enough to be the baseline between nightly runs', () => {
  const { step } = reportUpload();
  expect(step.id).toBe('report');
  expect(step.with?.['retention-days']).toBeGreaterThanOrEqual(7);
});

test('the gate runs whatever happened, after the upload, comparing with the baseline when there is one and judging the verdict otherwise', () => {
  const { step: gate, index } = gateStep();
  expect(gate.if).toBe('always()');
  expect(index).toBeGreaterThan(reportUpload().index);
  expect(String(gate.env?.MERGE_EXIT_CODE)).toMatch(expression('steps\\.merge\\.outputs\\.exit-code'));
  expect(String(gate.env?.SHARDS_RESULT)).toMatch(expression('needs\\.conformance\\.result'));
  expect(String(gate.env?.BASELINE_FOUND)).toMatch(expression('steps\\.baseline\\.outputs\\.found'));
  const run = gate.run ?? '';
  expect(run).toMatch(/npm run (--silent )?conformance -- compare baseline conformance-report\b/);
  expect(run).toContain('conformance-report/results.json');
  expect(run).toMatch(/jq -r '?\.verdict/);
  expect(run).toMatch(/\bexit 1\b/);
});

interface GateCase {
  name: string;
  shards?: string;
  /** The merge's exit code, '' when it did not run. */
  merge: string;
  baseline: boolean;
  compare?: number;
  passes: boolean;
  compares: boolean;
  says: RegExp;
}

const GATE_CASES: GateCase[] = [
  {
    name: 'a shard that did not deliver its blob fails, even with a baseline',
    shards: 'failure',
    merge: '0',
    baseline: true,
    passes: false,
    compares: false,
    says: /::error title=Conformance::A shard did not deliver its blob report/,
  },
  {
    name: 'no report (merge exit 2) fails, even with a baseline',
    merge: '2',
    baseline: true,
    passes: false,
    compares: false,
    says: /::error title=Conformance::No conformance report: merge exit code 2/,
  },
  {
    name: 'a merge that did not run fails',
    merge: '',
    baseline: false,
    passes: false,
    compares: false,
    says: /::error title=Conformance::No conformance report/,
  },
  { name: 'without a baseline, CONFORMANT passes', merge: '0', baseline: false, passes: true, compares: false, says: /Passed: CONFORMANT/ },
  {
    name: 'without a baseline, NON-CONFORMANT fails',
    merge: '1',
    baseline: false,
    passes: false,
    compares: false,
    says: /::error title=Conformance::Not conformant: NON-CONFORMANT/,
  },
  {
    name: 'without a baseline, INCONCLUSIVE fails',
    merge: '3',
    baseline: false,
    passes: false,
    compares: false,
    says: /::error title=Conformance::Not conformant: INCONCLUSIVE/,
  },
  {
    name: 'with a baseline, INCONCLUSIVE fails: a regression cannot be ruled out',
    merge: '3',
    baseline: true,
    passes: false,
    compares: false,
    says: /::error title=Conformance::INCONCLUSIVE: .*cannot be ruled out/,
  },
  {
    name: 'with a baseline, NON-CONFORMANT with nothing newly failing passes, with a warning',
    merge: '1',
    baseline: true,
    compare: 0,
    passes: true,
    compares: true,
    says: /^::warning title=Conformance::NON-CONFORMANT, as in the baseline/m,
  },
  {
    name: 'with a baseline, CONFORMANT with nothing newly failing passes',
    merge: '0',
    baseline: true,
    compare: 0,
    passes: true,
    compares: true,
    says: /Passed: CONFORMANT, and nothing newly fails/,
  },
  {
    name: 'with a baseline, something newly failing fails, naming it',
    merge: '1',
    baseline: true,
    compare: 1,
    passes: false,
    compares: true,
    says: /::error title=Conformance::Newly failing against the baseline \(https:\S+\/4237\): CALLS-LIST-FILTER-STATUS CALLS-GET-OK\./,
  },
  {
    name: 'with a baseline, a comparison that could not be made (compare exit 2) fails',
    merge: '0',
    baseline: true,
    compare: 2,
    passes: false,
    compares: true,
    says: /::error title=Conformance::Could not compare with the baseline \(compare exit code 2\)/,
  },
];

test.describe('the gate decides', () => {
  for (const each of GATE_CASES) {
    test(each.name, async () => {
      test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
      const verdictOf = { '0': 'CONFORMANT', '1': 'NON-CONFORMANT', '3': 'INCONCLUSIVE' } as const;
      const verdictName = verdictOf[each.merge as keyof typeof verdictOf];
      const gated = runStep(
        gateStep().step,
        {
          MERGE_EXIT_CODE: each.merge,
          SHARDS_RESULT: each.shards ?? 'success',
          BASELINE_FOUND: each.baseline ? 'true' : 'false',
          BASELINE_URL: each.baseline ? runUrl(4237) : '',
          COMPARE_EXIT: String(each.compare ?? 0),
          COMPARE_OUT: each.compare === 1 ? await compareOutput() : '',
        },
        (work) => {
          if (verdictName) writeJson(join(work, 'conformance-report', 'results.json'), resultsFixture(verdictName, each.baseline));
          if (each.baseline) writeJson(join(work, 'baseline', 'results.json'), resultsFixture('NON-CONFORMANT', false));
        },
      );
      expect(gated.code, `${gated.stdout}\n${gated.stderr}`).toBe(each.passes ? 0 : 1);
      expect(gated.outputs.decision).toBe(each.passes ? 'pass' : 'fail');
      expect(gated.outputs.why).toBeTruthy();
      expect(gated.stdout).toMatch(each.says);
      expect(gated.calls.some((call) => call.includes('conformance -- compare baseline conformance-report'))).toBe(each.compares);
    });
  }
});

test("the job summary is written whatever happened, to $GITHUB_STEP_SUMMARY, from results.json and the report upload's address", () => {
  const { step, index } = summaryStep();
  expect(step.if).toBe('always()');
  expect(index).toBeGreaterThan(gateStep().index);
  const run = step.run ?? '';
  expect(run).toContain('>> "$GITHUB_STEP_SUMMARY"');
  expect(run).toContain('conformance-report/results.json');
  for (const field of ['.verdict', '.verdictReason', '.comparison.newlyFailing', '.summary.intermittent', '.expectations.expectedFailures'])
    expect(run).toContain(field);
  expect(run).toContain('.coverage.dimensions');
  expect(String(step.env?.REPORT_URL)).toMatch(expression('steps\\.report\\.outputs\\.artifact-url'));
  expect(String(step.env?.GATE_DECISION)).toMatch(expression('steps\\.gate\\.outputs\\.decision'));
  expect(String(step.env?.BASELINE_FOUND)).toMatch(expression('steps\\.baseline\\.outputs\\.found'));
});

const SUMMARY_ENV = {
  REPORT_URL: 'https://github.com/octo/calls/actions/runs/4242/artifacts/99',
  BASELINE_FOUND: 'true',
  BASELINE_URL: runUrl(4237),
  GATE_DECISION: 'fail',
  GATE_WHY: 'Newly failing against the baseline: CALLS-LIST-FILTER-STATUS CALLS-GET-OK.',
};

test('the job summary shows the verdict, the gate, what newly fails, the intermittent and expected failures, and links the report', async () => {
  test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
  const expectations = (summary: string) => {
    expect(summary).toContain('**Verdict: NON-CONFORMANT**. A MUST requirement failed: CALLS-LIST-FILTER-STATUS.');
    expect(summary).toContain(`Gate: **failed**. ${SUMMARY_ENV.GATE_WHY}`);
    expect(summary).toContain(runUrl(4237));
    expect(summary).toMatch(
      /### Newly failing against the baseline \(2\)\n\n- `?CALLS-LIST-FILTER-STATUS`? \[MUST\]: pass → fail\n- `?CALLS-GET-OK`? \[MUST\]: skip → intermittent\n/,
    );
    expect(summary).not.toMatch(/^- `?CALLS-LIST-PAGINATION/m);
    expect(summary).toMatch(/### Intermittent[^\n]*\(1\)\n\n- `CALLS-GET-OK`\n/);
    expect(summary).toMatch(/### Expected failures[^\n]*\(1\)\n\n- `UNREAD-MARK-OK`: staging runs last year's build \(OPS-42\)\n/);
    expect(summary).toContain('- `CALLS-LIST-DATE-FILTER`');
    expect(summary).toContain(`](${SUMMARY_ENV.REPORT_URL})`);
  };
  // The merge had the baseline: the newly failing ones are results.json's comparison.
  const merged = runStep(summaryStep().step, SUMMARY_ENV, (work) =>
    writeJson(join(work, 'conformance-report', 'results.json'), resultsFixture('NON-CONFORMANT', true)),
  );
  expect(merged.code, merged.stderr).toBe(0);
  expectations(merged.summary);
  // It had none in results.json (the reporter could not read it): they are what compare printed.
  const output = await compareOutput();
  const printed = runStep(summaryStep().step, SUMMARY_ENV, (work) => {
    writeJson(join(work, 'conformance-report', 'results.json'), resultsFixture('NON-CONFORMANT', false));
    writeFileSync(join(work, 'baseline-comparison.txt'), output);
  });
  expect(printed.code, printed.stderr).toBe(0);
  expectations(printed.summary);
});

test("the job summary has a table of the run's coverage, one row per dimension, when results.json has one", () => {
  test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
  const tally = emptyTally();
  tallyObservation(tally, { operation: 'listCalls', status: 200, key: 'given', total: 10 }, 'tests/a.spec.ts:1');
  tallyObservation(tally, { operation: 'listCalls', status: 200, key: 'given', filters: { type: 'audio' }, total: 4 }, 'tests/a.spec.ts:2');
  const coverage = coverageOf(tally);
  // A label from a results.json is data: a | or a line break must not break the table, nor a < open HTML.
  coverage.dimensions[0] = { ...coverage.dimensions[0]!, label: 'Operations | and\n<answers>' };
  const filters = coverage.dimensions.find((dimension) => dimension.id === 'filters')!;
  const covered = runStep(summaryStep().step, SUMMARY_ENV, (work) =>
    writeJson(join(work, 'conformance-report', 'results.json'), { ...resultsFixture('NON-CONFORMANT', true), coverage }),
  );
  expect(covered.code, covered.stderr).toBe(0);
  const table = `### Coverage: what the run tried\n\n| Dimension | Covered | Cannot tell | Not covered | % |\n| --- | ---: | ---: | ---: | ---: |\n`;
  expect(covered.summary).toContain(table);
  const rows = covered.summary
    .slice(covered.summary.indexOf(table) + table.length)
    .split('\n\n')[0]!
    .split('\n');
  expect(rows).toHaveLength(coverage.dimensions.length);
  expect(rows[0]).toMatch(/^\| Operations {3}and {2}answers> \| 1 \| 0 \| \d+ \| \d+% \|$/);
  expect(rows).toContain(`| ${filters.label} | ${filters.covered} | ${filters.weak} | ${filters.missing} | ${filters.percent}% |`);
  expect(covered.summary.indexOf(table)).toBeLessThan(covered.summary.indexOf('Report: '));

  const without = runStep(summaryStep().step, SUMMARY_ENV, (work) =>
    writeJson(join(work, 'conformance-report', 'results.json'), resultsFixture('NON-CONFORMANT', true)),
  );
  expect(without.code, without.stderr).toBe(0);
  expect(without.summary).not.toContain('Coverage');
});

test('the job summary without a baseline, and without any report, still says what happened', () => {
  test.skip(!HAS_JQ, 'jq is not installed (runner images have it)');
  const noBaseline = runStep(
    summaryStep().step,
    {
      ...SUMMARY_ENV,
      BASELINE_FOUND: 'false',
      BASELINE_URL: '',
      GATE_DECISION: 'pass',
      GATE_WHY: 'CONFORMANT (no baseline to compare with).',
    },
    (work) =>
      writeJson(join(work, 'conformance-report', 'results.json'), {
        ...resultsFixture('CONFORMANT', false),
        summary: { mustFailed: [], intermittent: [] },
      }),
  );
  expect(noBaseline.code, noBaseline.stderr).toBe(0);
  expect(noBaseline.summary).toContain('**Verdict: CONFORMANT**.');
  expect(noBaseline.summary).toContain('Gate: **passed**. CONFORMANT (no baseline to compare with).');
  expect(noBaseline.summary).toMatch(/^Baseline: none/m);
  expect(noBaseline.summary).not.toContain('Newly failing');
  expect(noBaseline.summary).not.toContain('Intermittent');

  const nothing = runStep(summaryStep().step, { REPORT_URL: '', BASELINE_FOUND: '', BASELINE_URL: '', GATE_DECISION: '', GATE_WHY: '' });
  expect(nothing.code, nothing.stderr).toBe(0);
  expect(nothing.summary).toContain('**No verdict**');
  expect(nothing.summary).toContain('Gate: did not decide');
  expect(nothing.summary).toContain(runUrl(4242));
});

test('every run: script is valid bash (bash -n), with its ${{ }} expressions replaced by a placeholder', () => {
  const scripts = Object.entries(workflow.jobs).flatMap(([name, each]) =>
    each.steps.flatMap((step, index) =>
      step.run === undefined ? [] : [{ where: `${name}, step ${index + 1} (${step.name ?? step.run.split('\n')[0]})`, script: step.run }],
    ),
  );
  expect(scripts.length).toBeGreaterThanOrEqual(8);
  const dir = mkdtempSync(join(tmpdir(), 'actions-example-syntax-'));
  scratch.push(dir);
  scripts.forEach(({ where, script }, index) => {
    const file = join(dir, `step-${index}.sh`);
    writeFileSync(file, script.replace(EXPRESSION, 'PLACEHOLDER'));
    const checked = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
    expect(checked.status, `${where}: ${checked.stderr}`).toBe(0);
  });
});

test('every action is pinned to a major version', () => {
  const uses = allSteps().flatMap((step) => (step.uses === undefined ? [] : [step.uses]));
  expect(uses.length).toBeGreaterThan(0);
  for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@v\d+$/);
  // GitHub's own actions only (actions/, and code scanning's upload from github/codeql-action):
  // nothing of a third party runs with this workflow's secrets or token.
  for (const action of uses) expect(action).toMatch(/^(actions\/|github\/codeql-action\/upload-sarif@)/);
});
