// The history across real runs (issue 57): three quick runs of one requirement against the reference
// on one address, the second with a fault that breaks it (missing-key-reported-as-invalid), each
// adding its line to HISTORY_FILE; a corrupt and a foreign line put in the file between runs are
// reported, skipped and kept. The last run's report shows the grid and the marks (new failure,
// flaky, flaky for sure: the same seed passed and failed it), the console and the `history` command
// say them, `history --trim` trims, and no key is in the file.
import { test, expect } from '@playwright/test';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS, DEMO_KEYS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { freeLoopbackPort, referenceTargetEnv, runScript, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS, type Reports } from './report-runs.ts';

const REQUIREMENT = 'AUTH-EMPTY-KEY';
const FAULT = 'missing-key-reported-as-invalid';
const CORRUPT = '{"half a line';
const FOREIGN = '{"uuid":"1","name":"checkout","status":"passed"}';

test.describe.configure({ timeout: 3 * SUITE_RUN_TIMEOUT_MS });

/** One run of the requirement against the reference on `port`, with the fault or without; its reports and console. */
async function runOn(port: number, faulty: boolean, history: string): Promise<Reports & { stdout: string }> {
  const fault = faulty ? findFault(FAULT) : undefined;
  const reference = createServer({ calls: DEFAULT_CALLS, ...(fault && { fault }) });
  const base = await reference.listen(port);
  try {
    const dir = freshDir('history-run');
    const result = await runConformance(dir, ['--grep', `${REQUIREMENT} `], {
      ...referenceTargetEnv(base),
      CONFORMANCE_SEED: SELF_TEST_SEED,
      HISTORY_FILE: history,
    });
    expect(result.code, result.stderr).toBe(faulty ? 1 : 0);
    return { ...readReports(dir), stdout: result.stdout };
  } finally {
    await reference.close();
  }
}

test('three runs, one with a fault: the grid, new failure, fixed, flaky and flaky for sure; corrupt lines kept; history prints and trims', async () => {
  const history = join(freshDir('history'), 'runs.jsonl');
  const port = await freeLoopbackPort();
  const first = await runOn(port, true, history);
  expect(first.results.history).toMatchObject({ runs: 1, newFailures: [], flaky: [] });
  const second = await runOn(port, false, history);
  expect(second.results.history).toMatchObject({ runs: 2, fixed: [REQUIREMENT], newFailures: [], flakyForSure: [REQUIREMENT] });
  appendFileSync(history, `${CORRUPT}\n${FOREIGN}\n`);
  const third = await runOn(port, true, history);

  const summary = third.results.history!;
  expect(summary).toMatchObject({ runs: 3, flaky: [REQUIREMENT], flakyForSure: [REQUIREMENT], newFailures: [REQUIREMENT], fixed: [] });
  expect(summary.grid.find((row) => row.id === REQUIREMENT)).toEqual({
    id: REQUIREMENT,
    outcomes: 'fpf',
    marks: ['flaky', 'flaky-for-sure', 'new-failure'],
  });
  expect(summary.problems).toEqual([
    `${history}:3 is not JSON text: skipped, and kept in the file`,
    `${history}:4 is not a line of this suite's history (no "format": "calls-conformance-history/1"): another tool's?: skipped, and kept in the file`,
  ]);
  // The page: the section, the row with its three outcomes, the marks; no script.
  expect(third.html).toContain('<section id="history">');
  expect(third.html).toMatch(
    new RegExp(
      `<tr data-requirement="${REQUIREMENT}"><th scope="row"><code>${REQUIREMENT}</code></th><td>.*flaky.*new failure.*</td><td class="s-fail">✘</td><td class="s-pass">✔</td><td class="s-fail">✘</td></tr>`,
    ),
  );
  expect(third.html).not.toMatch(/<script/i);
  expect(third.stdout).toContain(`History (${history}, 3 run(s) of this target): flaky (1): ${REQUIREMENT}`);
  expect(third.stdout).toContain(`new failures (1): ${REQUIREMENT}`);

  const file = readFileSync(history, 'utf8');
  expect(file).toContain(`${CORRUPT}\n${FOREIGN}\n`);
  for (const key of Object.values(DEMO_KEYS)) expect(file).not.toContain(key);

  const printed = await runScript(CLI.conformance, ['history', history], {}, SUITE_RUN_TIMEOUT_MS);
  expect(printed.code).toBe(0);
  expect(printed.stdout.split('\n').filter((line) => line.includes(`seed ${SELF_TEST_SEED}`))).toHaveLength(3);
  expect(printed.stdout).toContain(`Last run: flaky (1): ${REQUIREMENT}`);
  expect(printed.stderr).toContain(`${history}:3 is not JSON text`);
  const trimmed = await runScript(CLI.conformance, ['history', '--trim', '1', history], {}, SUITE_RUN_TIMEOUT_MS);
  expect(trimmed.stdout).toContain(`Trimmed ${history}: kept the last 1 of 3 run(s).`);
  expect(readFileSync(history, 'utf8').trimEnd().split('\n')).toHaveLength(3);
  const refused = await runScript(CLI.conformance, ['history', '--trim', 'all', history], {}, SUITE_RUN_TIMEOUT_MS);
  expect(refused.code).toBe(2);
});
