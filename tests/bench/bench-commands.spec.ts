// Every `npm run bench` command the docs show still runs as written: the whole benchmark takes the
// machine for half an hour, so each is run with `--plan`, which reads its options exactly as a real
// run does and says what it would measure and write, measuring nothing. A renamed or removed option
// makes the command exit 2 here. The parts themselves run at small scale in clients.spec.ts,
// bench-report.spec.ts and ../passive/proxy-bench.spec.ts.
import { test, expect } from '@playwright/test';
import { commandsOf, docFiles, readDoc, shellBlocks } from '../docs/markdown.ts';
import { PROJECT_ROOT, runScript } from '../runner/run-suite.ts';

const BENCH = 'tests/bench/bench.ts';

/** Each documented bench command: where it is shown, and the options after `--`. */
function documentedBenchCommands(): Array<{ where: string; options: string[] }> {
  return docFiles(PROJECT_ROOT)
    .flatMap((path) => shellBlocks(path, readDoc(PROJECT_ROOT, path)))
    .flatMap((block) =>
      commandsOf(block.code)
        .filter((words) => words.slice(0, 3).join(' ') === 'npm run bench')
        .map((words) => ({ where: block.where, options: words.slice(words.indexOf('--') + 1 || words.length) })),
    );
}

test('every npm run bench command of the docs reads its options as written and plans its part (--plan)', async () => {
  const commands = documentedBenchCommands();
  expect(commands.length, 'docs/speed.md and docs/passive-proxy.md show bench commands').toBeGreaterThanOrEqual(3);
  for (const { where, options } of commands) {
    const run = await runScript(BENCH, [...options, '--plan'], {}, 60_000);
    expect(run.code, `${where}: npm run bench -- ${options.join(' ')}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^bench plan: parts?: .+\nruns: \d+\nwrites: bench-results\//);
  }
});

const refusals: Array<[string[], string]> = [
  [['--clients-onyl', '--plan'], 'bench: unknown option --clients-onyl'],
  [['--plan', '--runs'], 'bench: option --runs needs a value'],
  [['--runs', '--plan'], 'bench: option --runs needs a value: --plan is an option, not its value'],
  [['--runs', '0', '--plan'], 'bench: --runs takes a whole number of 1 or more (got "0")'],
  [['--plan=yes'], 'bench: option --plan takes no value'],
  [['--plan', 'now'], 'bench: unexpected argument now'],
];

for (const [args, line] of refusals) {
  test(`bench ${args.join(' ')}: refused in one line with the usage, exit 2, so a stale command fails above`, async () => {
    const run = await runScript(BENCH, args, {}, 60_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([line, expect.stringMatching(/^Usage: npm run bench -- /), '']);
  });
}

test('the bench reads --runs after a space or an =, and --write-readme as --write-docs', async () => {
  for (const runs of [['--runs', '2'], ['--runs=2']]) {
    const run = await runScript(BENCH, [...runs, '--write-readme', '--plan'], {}, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('runs: 2\nwrites: bench-results/bench.json and bench.md and the tables of docs/speed.md');
  }
});

test('--answer-size-only plans one answer judged against its size, and the part measures small answers as it would big ones, passive and active', async () => {
  test.setTimeout(180_000);
  const plan = await runScript(BENCH, ['--answer-size-only', '--plan'], {}, 60_000);
  expect(plan.stdout).toContain('bench plan: part: one answer judged against its size');
  expect(plan.stdout).toContain('writes: bench-results/answer-size.json');
  const { measureAnswerSize, renderAnswerSize, answerSizeTargets } = await import('./answer-size.ts');
  const results = await measureAnswerSize(1, [100, 1_000]);
  // Each shape at no entries added, then at each size: its verdict, and its cost per entry above none.
  expect(results.measured.map((run) => `${run.shape} ${run.entries}`)).toEqual(
    ['missing-fields', 'multi-device', 'never-joined'].flatMap((shape) => [0, 100, 1_000].map((entries) => `${shape} ${entries}`)),
  );
  for (const run of results.measured.filter((measured) => measured.entries > 0)) expect(run.perEntryUs, run.shape).toBeDefined();
  expect(results.measured.find((run) => run.shape === 'missing-fields' && run.entries === 1_000)?.verdict).toBe('VIOLATIONS FOUND');
  expect(results.measured.find((run) => run.shape === 'never-joined' && run.entries === 1_000)?.verdict).toMatch(
    /^(NO VIOLATIONS|VIOLATIONS FOUND)/,
  );
  expect(renderAnswerSize(results).filter((line) => line.startsWith('| 1,000 |'))).toHaveLength(4);
  // The whole suite, active, against one answer of the largest size and of none.
  expect(results.active.map((run) => `${run.entries} ${run.verdict}`)).toEqual(['0 CONFORMANT', '1000 NON-CONFORMANT']);
  expect(answerSizeTargets(results)).toHaveLength(7);
});

test('--diff-faults-only plans the diff against every catalog fault (with writes for those of mark-unread), and writes its own results', async () => {
  const run = await runScript(BENCH, ['--diff-faults-only', '--write-docs', '--plan'], {}, 60_000);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe(
    'bench plan: part: the diff against every catalog fault, with writes for those of mark-unread\nruns: 3\nwrites: bench-results/diff-faults.json (with --write-docs, the table of docs/diff.md too)\n',
  );
});

test('--diff-only plans the diff against itself and its cost; its targets are missed by a seed that differed or a diff too slow', async () => {
  const plan = await runScript(BENCH, ['--diff-only', '--plan'], {}, 60_000);
  expect(plan.stdout).toContain('bench plan: part: the diff of the reference against itself');
  expect(plan.stdout).toContain('writes: bench-results/diff.json');
  const { diffTargets, renderDiffCost } = await import('./diff-cost.ts');
  const run = (code: number, findings: number, said: string[] = []) => ({ ms: 5000, code, findings, requests: 258, said });
  const aa = [false, true].flatMap((living) =>
    Array.from({ length: 10 }, (_, index) => ({
      seed: index + 1,
      living,
      run: living && index === 5 ? run(1, 1, ['behaviour-change listCalls data[] membership 4/59']) : run(0, 0),
    })),
  );
  const cost = [{ seed: 3, conformanceMs: 10_000, conformanceRequests: 800, diff: run(0, 0), ratio: 2.3 }];
  const targets = diffTargets({ calls: 1000, aa, cost });
  expect(targets.map((target) => target.met)).toEqual([true, false, false]);
  expect(targets[1]!.value).toBe('9 of 10 seeds');
  expect(renderDiffCost({ calls: 1000, aa, cost })).toContain(
    '- seed 6, living: exit 1; behaviour-change listCalls data[] membership 4/59',
  );
});
