// What a GitHub runner does with action.yml, as far as the action's steps need it: each step's env
// evaluated from the inputs and the contexts, its script run by bash as `shell: bash` runs it, with
// the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_PATH) and outputs
// passed from step to step. Only the expressions action.yml may use are known here: a plain
// `${{ context.path }}`. Anything else stops the test, so that the action cannot grow an expression
// (a function, an operator) that this runner would read differently from GitHub's.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { childEnv } from '../runner/run-suite.ts';

interface ActionStep {
  name: string;
  id?: string;
  shell: string;
  env?: Record<string, string>;
  run: string;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface ActionRun {
  /** The action's outputs, as a later step of the workflow reads them. */
  outputs: Record<string, string>;
  /** The step that failed and its exit code, as the runner stops there; undefined when all passed. */
  failed?: { step: string; code: number | null };
  summary: string;
  /** Everything the steps printed, stdout and stderr. */
  log: string;
  /** What the stub gh was asked, one line each, with the body it was given. */
  ghCalls: string[];
}

export interface RunnerContext {
  /** The action's inputs as a workflow's `with:` gives them. */
  with: Record<string, string>;
  github: { event_name: string; event: { pull_request?: { number: number } } };
  /** The workspace: where the steps run. */
  workspace: string;
  /** The runner's scratch folder (RUNNER_TEMP), files of the runner, and the gh stub. */
  scratch: string;
  /** The runner's own environment beside the steps' (the gh stub's GH_EXISTING_COMMENT). */
  env?: Record<string, string>;
}

export const ACTION_FILE = 'action.yml';

/** The action as GitHub reads it. */
const readAction = (): Action => parse(readFileSync(ACTION_FILE, 'utf8')) as Action;

const EXPRESSION = /\$\{\{\s*([^}]*?)\s*\}\}/g;

/** The value of `${{ path }}` in the contexts; throws on anything but a plain path. */
function evaluate(text: string, contexts: Record<string, unknown>): string {
  return text.replace(EXPRESSION, (_, expression: string) => {
    if (!/^[a-z_]+(\.[A-Za-z0-9_-]+)+$/.test(expression))
      throw new Error(`action.yml: an expression this runner does not read: ${expression}`);
    let value: unknown = contexts;
    for (const key of expression.split('.'))
      value = value === undefined || value === null ? undefined : (value as Record<string, unknown>)[key];
    if (value === undefined || value === null) return '';
    if (typeof value === 'object') throw new Error(`action.yml: ${expression} is not a value but a context`);
    return `${value as string | number | boolean}`;
  });
}

/** A gh that records its arguments and answers the comment lookup with GH_EXISTING_COMMENT's id, or nothing, as on a pull request not yet commented. */
const GH_STUB = `#!/usr/bin/env bash
printf '%s\\n' "gh $*" | tr '\\n' ' ' >> "$GH_CALLS"; echo >> "$GH_CALLS"
case "$*" in *--paginate*) if [ -n "\${GH_EXISTING_COMMENT:-}" ]; then echo "$GH_EXISTING_COMMENT"; fi ;; esac
exit 0
`;

/** Runs the action's steps in order, as a runner would, and stops at the first that fails. */
export async function runAction(context: RunnerContext): Promise<ActionRun> {
  const action = readAction();
  const files = runnerFiles(context.scratch);
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, context.with[name] ?? input.default ?? '']),
  );
  const github = {
    ...context.github,
    token: 'ghs_token-of-the-run',
    server_url: 'https://github.example',
    repository: 'team/service',
    run_id: '42',
  };
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  let log = '';
  for (const step of action.runs.steps) {
    const contexts = { inputs: evaluatedInputs(inputs, { github }), github, runner: { temp: context.scratch }, steps };
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(String(value), contexts)]));
    writeFileSync(files.GITHUB_OUTPUT, '');
    const result = await runBash(step.run, {
      cwd: context.workspace,
      env: {
        ...childEnv(),
        PATH: `${files.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        GITHUB_ACTION_PATH: process.cwd(),
        RUNNER_TEMP: context.scratch,
        ...context.env,
        ...files,
        ...env,
      },
    });
    log += result.output;
    if (step.id) steps[step.id] = { outputs: outputsIn(files.GITHUB_OUTPUT) };
    if (result.status !== 0) return finish(action, { steps, files, log, failed: { step: step.name, code: result.status } });
  }
  return finish(action, { steps, files, log });
}

/**
 * bash as `shell: bash` runs a step, without blocking: the target under test may be a server in
 * this very process, which must go on answering while the step runs.
 */
function runBash(
  script: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Inputs whose default is itself an expression (github-token) take it from the contexts. */
function evaluatedInputs(inputs: Record<string, string>, contexts: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, evaluate(value, contexts)]));
}

function runnerFiles(scratch: string) {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gh'), GH_STUB);
  chmodSync(join(bin, 'gh'), 0o755);
  const files = {
    GITHUB_OUTPUT: join(scratch, 'output'),
    GITHUB_STEP_SUMMARY: join(scratch, 'summary'),
    GITHUB_ENV: join(scratch, 'env'),
    GITHUB_PATH: join(scratch, 'path'),
    GH_CALLS: join(scratch, 'gh-calls'),
  };
  for (const file of Object.values(files)) writeFileSync(file, '');
  return { bin, ...files };
}

/** `name=value` lines, as the steps write them (none writes the multi-line form). */
function outputsIn(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('='));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

function finish(
  action: Action,
  done: {
    steps: Record<string, { outputs: Record<string, string> }>;
    files: ReturnType<typeof runnerFiles>;
    log: string;
    failed?: ActionRun['failed'];
  },
): ActionRun {
  const contexts = { steps: done.steps };
  return {
    outputs: Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, evaluate(output.value, contexts)])),
    ...(done.failed && { failed: done.failed }),
    summary: readFileSync(done.files.GITHUB_STEP_SUMMARY, 'utf8'),
    log: done.log,
    ghCalls: readFileSync(done.files.GH_CALLS, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  };
}
