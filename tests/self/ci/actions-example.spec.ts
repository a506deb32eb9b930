// The GitHub Actions example (.ci/github-actions/conformance-staging.example.yml) is not run from
// where it is, so nothing else would notice it drift from the suite: these tests parse it and hold
// it to what the suite needs of a sharded run against staging. The shards run with the blob
// reporter and one seed, the keys come from secrets only, nothing writes, and one job merges the
// blobs and fails the workflow unless the verdict is CONFORMANT.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { DEMO_KEYS } from '../../../reference/fixtures.ts';

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
interface Job {
  needs?: string | string[];
  if?: string;
  env?: Env;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
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
const allEnvs = (): Env[] => [workflow.env ?? {}, ...Object.values(workflow.jobs).flatMap((each) => [each.env ?? {}, ...each.steps.map((step) => step.env ?? {})])];
const SECRET = /^\$\{\{\s*secrets\.[A-Z0-9_]+\s*\}\}$/;

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
  expect(step.run).toContain('--reporter=blob');
  expect(envOf(shards(), step).PLAYWRIGHT_BLOB_OUTPUT_DIR).toBe('blob-report');
  // A failing shard must still reach the upload: its results belong in the merged report.
  expect(step['continue-on-error']).toBe(true);
});

test('each shard uploads its blob under its own name, whatever its outcome, with the keys taken out first', () => {
  const { index: run } = shardStep();
  const { step: scrub, index: scrubbed } = stepWith(shards(), 'takes the keys out of the blob', (step) => step.run?.includes('blob-report/*.zip') === true);
  const { step: upload, index: uploaded } = stepWith(shards(), 'uploads the blob', (step) => step.uses?.startsWith('actions/upload-artifact@') === true);
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
  const { index: checked } = stepWith(shards(), 'stops when the target is missing', (step) =>
    ['CALLS_BASE_URL', 'CHAT_BASE_URL', 'API_KEY'].every((name) => step.run?.includes(name)) && /\bexit 1\b/.test(step.run ?? ''));
  expect(checked).toBeLessThan(run);
});

test('no key is written in the file: every key-like variable is a secret and no key-like value appears', () => {
  for (const env of allEnvs()) {
    for (const [name, value] of Object.entries(env)) {
      if (/KEY|SECRET|TOKEN|PASSWORD|BASE_URL/.test(name)) expect(String(value), name).toMatch(SECRET);
    }
  }
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

  const { step: download, index: downloaded } = stepWith(verdict(), 'downloads the blobs', (step) => step.uses?.startsWith('actions/download-artifact@') === true);
  expect(download.with).toMatchObject({ path: 'all-blob-reports', pattern: 'blob-report-*', 'merge-multiple': true });
  const { step: merge, index: merged } = mergeStep();
  expect(merged).toBeGreaterThan(downloaded);
  expect(merge.run).toContain('npm run conformance -- merge all-blob-reports');
  // The merge's exit code is the verdict; the job must go on to upload the report and gate.
  expect(merge['continue-on-error']).toBe(true);
});

test('the verdict job uploads the conformance report whatever the verdict', () => {
  const { index: merged } = mergeStep();
  const { step: upload, index: uploaded } = stepWith(verdict(), 'uploads the report', (step) =>
    step.uses?.startsWith('actions/upload-artifact@') === true && step.with?.name === 'conformance-report');
  expect(uploaded).toBeGreaterThan(merged);
  expect(upload.if).toBe('always()');
  expect(upload.with?.path).toMatch(/^conformance-report\/?$/);
});

test('a gate fails the workflow unless the merge succeeded, naming the verdict', () => {
  const steps = verdict().steps;
  const gate = steps[steps.length - 1]!;
  expect(gate.if).toContain("steps.merge.outcome != 'success'");
  expect(gate.run).toMatch(/\bexit 1\b/);
  expect(gate.run).toContain('conformance-report/results.json');
  expect(gate.run).toMatch(/jq -r '?\.verdict/);
  expect(steps.indexOf(gate)).toBeGreaterThan(mergeStep().index);
});

test('every action is pinned to a major version', () => {
  const uses = allSteps().flatMap((step) => (step.uses === undefined ? [] : [step.uses]));
  expect(uses.length).toBeGreaterThan(0);
  for (const action of uses) expect(action).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@v\d+$/);
});
