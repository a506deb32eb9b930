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

test('a bench option that does not exist is refused with the usage, exit 2, so a stale command fails above', async () => {
  const run = await runScript(BENCH, ['--clients-onyl', '--plan'], {}, 60_000);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('bench: unexpected argument --clients-onyl');
  expect(run.stderr).toContain('Usage: npm run bench --');
});
