// Flaky requirements told from real runs (issue 57's target): twenty runs of a few requirements
// against the reference on one address, with the same seed, each adding its line to HISTORY_FILE.
// Three faults strike some runs only (the reference serves them together in the last run), a fourth
// strikes every run: exactly the three intermittent requirements are marked flaky, and flaky for
// sure (the same seed gave two outcomes), the one that always fails is not, nor any that never did.
import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import type { Fault } from '../../reference/faults/fault.ts';
import { freeLoopbackPort, referenceTargetEnv, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import type { HistorySummary } from '../../core/results/report-model.ts';

const RUNS = 20;

/** Each fault with the runs it strikes (1-based), and the requirement it breaks. */
const STRIKES: ReadonlyArray<{ fault: string; requirement: string; runs: readonly number[] }> = [
  { fault: 'header-name-case-sensitive', requirement: 'AUTH-HEADER-NAME-CASE-INSENSITIVE', runs: [3, 16, 20] },
  { fault: 'get-answers-next-call', requirement: 'CALLS-GET-OK', runs: [7, 17, 20] },
  { fault: 'restricted-key-marks-unread', requirement: 'CHAT-UNREAD-REQUIRES-FULL-ACCESS', runs: [11, 18, 20] },
  // Every run: a deterministic failure, never flaky.
  {
    fault: 'duration-leaves-out-video',
    requirement: 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO',
    runs: Array.from({ length: RUNS }, (_, index) => index + 1),
  },
];
const INTERMITTENT = STRIKES.slice(0, 3).map((strike) => strike.requirement);
/** The requirements the runs hold: the four above and one no fault touches. */
const GREP = [...STRIKES.map((strike) => strike.requirement), 'CALLS-GET-NOT-FOUND'].map((id) => `${id} `).join('|');

/** The named catalog faults served together: their hooks are of different steps, so each changes only what it says. */
function together(names: readonly string[]): Fault {
  const faults = names.map((name) => findFault(name)!);
  return {
    name: names.join('+'),
    description: 'several faults of the catalog at once',
    requirements: faults.flatMap((fault) => fault.requirements),
    hooks: (server) => {
      const hooks = faults.map((fault) => fault.hooks(server));
      const steps = hooks.flatMap((hook) => Object.keys(hook));
      if (new Set(steps).size !== steps.length)
        throw new Error(`faults that replace the same step cannot be served together: ${steps.join(', ')}`);
      return Object.assign({}, ...hooks);
    },
  };
}

async function runNumber(run: number, port: number, history: string): Promise<HistorySummary> {
  const striking = STRIKES.filter((strike) => strike.runs.includes(run)).map((strike) => strike.fault);
  const reference = createServer({ fault: together(striking) });
  const base = await reference.listen(port);
  try {
    const dir = freshDir('flaky-run');
    const result = await runConformance(dir, ['--grep', GREP], {
      ...referenceTargetEnv(base),
      CONFORMANCE_SEED: SELF_TEST_SEED,
      CONFORMANCE_RETRIES: '0',
      HISTORY_FILE: history,
    });
    expect(result.code, `run ${run}: ${result.stderr}`).toBe(1);
    const failed = readReports(dir)
      .results.requirements.filter((requirement) => requirement.status === 'fail')
      .map((requirement) => requirement.id);
    const expected = STRIKES.filter((strike) => strike.runs.includes(run)).map((strike) => strike.requirement);
    expect(failed.sort(), `run ${run}`).toEqual(expected.sort());
    return readReports(dir).results.history!;
  } finally {
    await reference.close();
  }
}

test(`${RUNS} runs, three requirements failing in some only: exactly those three are flaky, the one failing in every run is not`, async () => {
  test.setTimeout(RUNS * SUITE_RUN_TIMEOUT_MS);
  const history = join(freshDir('flaky-history'), 'runs.jsonl');
  const port = await freeLoopbackPort();
  let last: HistorySummary | undefined;
  for (let run = 1; run <= RUNS; run += 1) last = await runNumber(run, port, history);
  expect(last!.runs).toBe(RUNS);
  expect([...last!.flaky].sort()).toEqual([...INTERMITTENT].sort());
  expect([...last!.flakyForSure].sort()).toEqual([...INTERMITTENT].sort());
  expect(last!.grid.find((row) => row.id === 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO')?.outcomes).toBe('f'.repeat(RUNS));
  expect(last!.grid.find((row) => row.id === 'CALLS-GET-NOT-FOUND')?.outcomes).toBe('p'.repeat(RUNS));
});
