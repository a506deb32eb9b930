// The GitHub Action (action.yml at the root, `uses: OWNER/REPO@v1`): held to GitHub's own parser of
// action metadata and workflows (@actions/workflow-parser), with the README's lines a team adds, and
// run as a runner would (action-runner.ts) against the embedded reference and a faulty one over
// loopback: the outputs, the job summary, the pull request's comment (gh stubbed: GitHub is not
// reachable here) and the gate, with no key in anything the action or the run wrote.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { freshDir } from '../fresh-dir.ts';
import { ACTION_FILE, runAction, type RunnerContext } from './action-runner.ts';
import { parseErrors } from './github-parser.ts';

const GREP = '--grep CALLS-GET-NOT-FOUND';

// Each test runs the suite through the action, some twice: a whole run's bound, not a unit test's.
test.describe.configure({ timeout: 240_000 });

/** The README's lines a team adds to a job's steps, in a workflow of their own. */
function readmeWorkflow(): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = /<!-- action-steps -->\s*```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block, "README.md: the action's lines, after <!-- action-steps -->").toBeDefined();
  const steps = block!.split('\n').map((line) => (line === '' ? line : `      ${line}`));
  return ['on: pull_request', 'jobs:', '  conformance:', '    runs-on: ubuntu-latest', '    steps:', ...steps].join('\n');
}

function context(overrides: Partial<RunnerContext> & { with: Record<string, string> }): RunnerContext {
  const root = freshDir('action');
  return { github: { event_name: 'push', event: {} }, workspace: root, scratch: freshDir('action-runner'), ...overrides };
}

/** Every file under a folder, as text. */
function textsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'));
}

test("action.yml, the README lines that use it and the example workflow are what GitHub's parser accepts", () => {
  const example = '.ci/github-actions/conformance-staging.example.yml';
  const errors = parseErrors([
    { kind: 'action', name: ACTION_FILE, content: readFileSync(ACTION_FILE, 'utf8') },
    { kind: 'workflow', name: 'readme.yml', content: readmeWorkflow() },
    { kind: 'workflow', name: example, content: readFileSync(example, 'utf8') },
    // The parser does refuse: a step without its shell, and a workflow step under a misspelt key.
    { kind: 'action', name: 'no-shell.yml', content: 'name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo\n' },
    { kind: 'workflow', name: 'bad.yml', content: 'on: push\njobs:\n  a:\n    runs-on: x\n    stepz: []\n' },
  ]);
  expect(errors.slice(0, 3)).toEqual([[], [], []]);
  expect(errors[3]!.join()).toContain('shell');
  expect(errors[4]!.join()).toContain('stepz');
});

test('on the embedded reference: CONFORMANT, exit code 0, the report folder, the job summary, no comment off a pull request', async () => {
  const run = await runAction(context({ with: { arguments: GREP, seed: '7', comment: 'true' } }));
  expect(run.failed, run.log).toBeUndefined();
  expect(run.outputs).toMatchObject({ verdict: 'CONFORMANT', 'exit-code': '0' });
  expect(statSync(join(run.outputs['report-dir']!, 'results.json')).isFile()).toBe(true);
  expect(run.summary).toMatch(/^## Conformance: CONFORMANT\n/);
  expect(run.summary).toContain('No requirement failed.');
  expect(run.summary).toContain('https://github.example/team/service/actions/runs/42');
  expect(run.log).toContain("Not a pull request's run (push): no comment.");
  expect(run.ghCalls).toEqual([]);
});

test('on a faulty target: NON-CONFORMANT, the failed requirement in the summary and the comment, the step failed with exit 1, no key anywhere', async () => {
  const key = `sentinel-${randomBytes(12).toString('hex')}`;
  const reference = createServer({ keys: { fullAccess: key, readOnly: `${key}-ro` }, fault: findFault('not-found-as-empty-call')! });
  const base = await reference.listen(0);
  try {
    const history = join(freshDir('action-history'), 'history.jsonl');
    const runner = context({
      with: {
        'calls-base-url': base,
        'chat-base-url': base,
        'api-key': key,
        arguments: GREP,
        seed: '7',
        comment: 'true',
        'max-rps': '',
        'history-file': history,
      },
      github: { event_name: 'pull_request', event: { pull_request: { number: 17 } } },
    });
    const run = await runAction(runner);
    expect(run.failed, run.log).toEqual({ step: 'Gate on the verdict', code: 1 });
    expect(run.outputs).toMatchObject({ verdict: 'NON-CONFORMANT', 'exit-code': '1' });
    expect(run.summary).toMatch(/^## Conformance: NON-CONFORMANT\n/);
    expect(run.summary).toContain('| `CALLS-GET-NOT-FOUND` | MUST | fail |');
    expect(run.ghCalls).toHaveLength(2);
    expect(run.ghCalls[0]).toContain('repos/team/service/issues/17/comments --paginate');
    expect(run.ghCalls[1]).toContain(
      '--method POST repos/team/service/issues/17/comments -f body=<!-- calls-conformance --> ## Conformance: NON-CONFORMANT',
    );
    expect(run.ghCalls[1]).toContain('CALLS-GET-NOT-FOUND');
    for (const text of [run.log, run.summary, ...run.ghCalls, ...textsUnder(runner.workspace), ...textsUnder(runner.scratch)])
      expect(text.includes(key), 'the key in something the action wrote').toBe(false);

    // A later push to the pull request updates the comment it left rather than adding one.
    const again = await runAction({ ...context({ with: runner.with, github: runner.github }), env: { GH_EXISTING_COMMENT: '991' } });
    expect(again.ghCalls[1]).toContain('--method PATCH repos/team/service/issues/comments/991 -f body=<!-- calls-conformance -->');
    // The report folder holds results.sarif for code scanning, and each run added its line to the history.
    expect(JSON.parse(readFileSync(join(run.outputs['report-dir']!, 'results.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0' });
    expect(readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readFileSync(history, 'utf8')).not.toContain(key);
  } finally {
    await reference.close();
  }
});

test('fail-on-error false leaves the gate to the workflow: the step passes and the outputs say NON-CONFORMANT', async () => {
  const reference = createServer({ fault: findFault('not-found-as-empty-call')! });
  const base = await reference.listen(0);
  try {
    const run = await runAction(
      context({
        with: {
          'calls-base-url': base,
          'chat-base-url': base,
          'api-key': 'reference-demo-fullaccess-key',
          arguments: GREP,
          'fail-on-error': 'false',
        },
      }),
    );
    expect(run.failed, run.log).toBeUndefined();
    expect(run.outputs).toMatchObject({ verdict: 'NON-CONFORMANT', 'exit-code': '1' });
  } finally {
    await reference.close();
  }
});

test('a missing key for a remote target stops the run with one line naming it, exit 2, and a summary saying there is no report', async () => {
  const run = await runAction(context({ with: { 'calls-base-url': 'http://127.0.0.1:9/v3', 'chat-base-url': 'http://127.0.0.1:9/v3' } }));
  expect(run.failed).toEqual({ step: 'Gate on the verdict', code: 2 });
  expect(run.outputs).toMatchObject({ verdict: 'none', 'exit-code': '2' });
  expect(run.log).toMatch(/Configuration error: API_KEY/);
  expect(run.summary).toContain('## Conformance: no report');
});
