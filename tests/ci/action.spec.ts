// The GitHub Action (action.yml at the root, `uses: OWNER/REPO@v1`): held to GitHub's own parser of
// action metadata and workflows (@actions/workflow-parser), with the README's lines a team adds, and
// run as a runner would (action-runner.ts) against the embedded reference and a faulty one over
// loopback: the outputs, the job summary, the pull request's comment (gh stubbed: GitHub is not
// reachable here) and the gate, with no key in anything the action or the run wrote; and with
// `command: diff`, a candidate against the reference through two doors over one store, the verdict
// and the summary the diff's.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { createServer } from '../../reference/server.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { openTwoDoors, type SecondDoor, type TwoDoors } from '../../reference/two-doors.ts';
import { UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { freshDir } from '../fresh-dir.ts';
import { ACTION_FILE, runAction, type RunnerContext } from './action-runner.ts';
import { parseErrors } from './github-parser.ts';

const GREP = '--grep CALLS-GET-NOT-FOUND';

// Each test runs the suite through the action, some twice: a whole run's bound, not a unit test's.
test.describe.configure({ timeout: 240_000 });

/** The lines a team adds to a job's steps (the README's, or docs/ci.md's for a diff), in a workflow of their own. */
function readmeWorkflow(file = 'README.md', marker = 'action-steps'): string {
  const readme = readFileSync(file, 'utf8');
  const block = new RegExp(`<!-- ${marker} -->\\s*\`\`\`yaml\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
  expect(block, `${file}: the action's lines, after <!-- ${marker} -->`).toBeDefined();
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
    { kind: 'workflow', name: 'ci-diff.yml', content: readmeWorkflow('docs/ci.md', 'action-diff-steps') },
    { kind: 'workflow', name: example, content: readFileSync(example, 'utf8') },
    // The parser does refuse: a step without its shell, and a workflow step under a misspelt key.
    { kind: 'action', name: 'no-shell.yml', content: 'name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo\n' },
    { kind: 'workflow', name: 'bad.yml', content: 'on: push\njobs:\n  a:\n    runs-on: x\n    stepz: []\n' },
  ]);
  expect(errors.slice(0, 4)).toEqual([[], [], [], []]);
  expect(errors[4]!.join()).toContain('shell');
  expect(errors[5]!.join()).toContain('stepz');
  // The parser does not know the action: every input those lines give is one action.yml declares.
  const declared = Object.keys((parse(readFileSync(ACTION_FILE, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
  for (const [file, marker] of [
    ['README.md', 'action-steps'],
    ['docs/ci.md', 'action-diff-steps'],
  ] as const) {
    const workflow = parse(readmeWorkflow(file, marker)) as { jobs: { conformance: { steps: Array<{ with?: Record<string, unknown> }> } } };
    const given = workflow.jobs.conformance.steps.flatMap((step) => Object.keys(step.with ?? {}));
    expect(given.length, file).toBeGreaterThan(0);
    expect(
      given.filter((name) => !declared.includes(name)),
      file,
    ).toEqual([]);
  }
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

test('a report an earlier run left in the folder is not this run’s: a refused input or a stopped run says verdict none and no report', async () => {
  const cases: Array<{ with: Record<string, string>; folder: string; title: string }> = [
    { with: { command: 'deploy' }, folder: 'conformance-report', title: 'Conformance' },
    { with: { command: 'diff', 'calls-base-url': 'http://127.0.0.1:9/v3' }, folder: 'diff-report', title: 'Diff' },
  ];
  for (const { with: inputs, folder, title } of cases) {
    const runner = context({ with: inputs });
    const earlier = join(runner.workspace, folder);
    mkdirSync(earlier, { recursive: true });
    writeFileSync(join(earlier, 'results.json'), JSON.stringify({ verdict: 'CONFORMANT', earlier: true }));
    const run = await runAction(runner);
    expect(run.outputs, inputs.command).toMatchObject({ verdict: 'none', 'exit-code': '2' });
    expect(run.summary, inputs.command).toContain(`## ${title}: no report`);
    expect(run.summary, inputs.command).not.toContain('CONFORMANT');
  }
});

/** The reference through two doors over one store (reference/two-doors.ts), each with its own keys: the primary clean. */
async function withTwoDoors<T>(second: SecondDoor, body: (doors: TwoDoors, keys: { primary: string; candidate: string }) => Promise<T>) {
  const keys = { primary: `primary-${randomBytes(12).toString('hex')}`, candidate: `candidate-${randomBytes(12).toString('hex')}` };
  const doors = await openTwoDoors({ calls: 300, keys: { fullAccess: keys.primary } }, { ...second, keys: { fullAccess: keys.candidate } });
  try {
    return await body(doors, keys);
  } finally {
    await doors.close();
  }
}

const diffInputs = (doors: TwoDoors, keys: { primary: string; candidate: string }) => ({
  command: 'diff',
  'calls-base-url': doors.primary,
  'chat-base-url': doors.primary,
  'api-key': keys.primary,
  'candidate-calls-base-url': doors.candidate,
  'candidate-chat-base-url': doors.candidate,
  'candidate-api-key': keys.candidate,
  seed: '7',
  'max-rps': '',
});

test('command diff against a faulty candidate: verdict DIFFERENCES, the diff job summary, the step failed with exit 1, no key anywhere', async () => {
  await withTwoDoors({ fault: findFault('receiver-missing-for-groups')! }, async (doors, keys) => {
    const runner = context({ with: diffInputs(doors, keys) });
    const run = await runAction(runner);
    expect(run.failed, run.log).toEqual({ step: 'Gate on the verdict', code: 1 });
    expect(run.outputs).toMatchObject({ verdict: 'DIFFERENCES', 'exit-code': '1' });
    // The diff's own default folder: no conformance report beside it is replaced.
    expect(run.outputs['report-dir']).toBe(join(runner.workspace, 'diff-report'));
    expect(run.summary).toMatch(/^## Diff: DIFFERENCES\n/);
    expect(run.summary).toMatch(/\| regression \| listCalls \| `data\[\]\.receiver` \| missing-field \|/);
    expect(run.summary).toContain('markGroupConversationAsUnread: not compared: read-only (ALLOW_WRITES is not true)');
    for (const text of [run.log, run.summary, ...textsUnder(runner.workspace), ...textsUnder(runner.scratch)])
      for (const key of Object.values(keys)) expect(text.includes(key), 'a key in something the action wrote').toBe(false);
  });
});

test('command diff of clean against clean with writes allowed from the step env: verdict NO-DIFFERENCE, mark-unread compared, exit 0', async () => {
  await withTwoDoors({}, async (doors, keys) => {
    const fixture = {
      GROUP_GUID: UNREAD_FIXTURE.groupGuid,
      MESSAGE_ID: String(UNREAD_FIXTURE.messageId),
      ACTING_UID: UNREAD_FIXTURE.actingUid,
    };
    const candidateFixture = Object.fromEntries(Object.entries(fixture).map(([name, value]) => [`CANDIDATE_${name}`, value]));
    const run = await runAction({
      ...context({ with: diffInputs(doors, keys) }),
      env: { ALLOW_WRITES: 'true', ...fixture, ...candidateFixture },
    });
    expect(run.failed, run.log).toBeUndefined();
    expect(run.outputs).toMatchObject({ verdict: 'NO-DIFFERENCE', 'exit-code': '0' });
    expect(run.summary).toMatch(/^## Diff: NO DIFFERENCE BEYOND NOISE\n/);
    expect(run.summary).toMatch(/markGroupConversationAsUnread \d+ comparisons/);
  });
});

test('a command other than run or diff, and a diff asked to shard, are refused with one line: exit 2, verdict none', async () => {
  const unknown = await runAction(context({ with: { command: 'deploy' } }));
  expect(unknown.failed).toEqual({ step: 'Gate on the verdict', code: 2 });
  expect(unknown.outputs).toMatchObject({ verdict: 'none', 'exit-code': '2' });
  expect(unknown.log).toContain('Configuration error: command must be run or diff');
  expect(unknown.summary).toContain('## Conformance: no report');
  const sharded = await runAction(context({ with: { command: 'diff', shard: '1/2' } }));
  expect(sharded.outputs).toMatchObject({ verdict: 'none', 'exit-code': '2' });
  expect(sharded.log).toContain('Configuration error: command diff takes neither shard nor merge');
  expect(sharded.summary).toContain('## Diff: no report');
});
