// The kill matrix (`npm run kill-matrix` runs it alone, `npm test` after the self project): the whole conformance suite, run as a child process against the clean reference
// (it must pass with no warning, on several seeds, under each of its readings, standing still and
// living) and against each fault of the catalog under each reading it runs under, and living (it must fail naming every MUST the fault
// breaks, or warn for a SHOULD fault, and still judge every other requirement: none in error). A
// fault that survives fails here by name, so a check cannot be weakened, nor a fault added, without
// this noticing.
import { test, expect } from '@playwright/test';
import { FAULTS } from '../../../reference/faults/catalog.ts';
import { readingsOf } from '../../../reference/faults/fault.ts';
import { REFERENCE_READINGS } from '../../../reference/readings.ts';
import { expectationOf, MATRIX_REFERENCE_SEED, runAgainst } from './kill-matrix.ts';
import { saveRow } from './matrix-files.ts';
import { SELF_TEST_SEED } from '../runner/run-suite.ts';
import { rowsDir } from './rows-dir.ts';

test.describe.configure({ mode: 'parallel' });

/** Several seeds of both the data and the suite: the clean reference passes on each, under each of its readings. */
const CLEAN_RUNS = [
  { referenceSeed: MATRIX_REFERENCE_SEED, conformanceSeed: SELF_TEST_SEED },
  { referenceSeed: 2, conformanceSeed: '7' },
  { referenceSeed: 11, conformanceSeed: '424242' },
];

for (const readings of REFERENCE_READINGS) {
  for (const { referenceSeed, conformanceSeed } of CLEAN_RUNS) {
    test(`the clean reference under the ${readings} readings (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`, async ({}, testInfo) => {
      const row = await runAgainst(undefined, { referenceSeed, conformanceSeed, readings });
      saveRow(rowsDir(testInfo), row);
      expect(row.outcome, row.problem).toBe('passed');
    });
  }
}

// The words allow the startedAt filter to compare a call's initiatedAt (startedAt is "also described
// as when it was initiated"): a reference that does is no fault. It passes too, the suite having
// learned that reading and no other.
for (const { referenceSeed, conformanceSeed } of CLEAN_RUNS) {
  test(`the reference whose startedAt filter compares initiatedAt (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning, having learned initiated-at-or-after`, async ({}, testInfo) => {
    const row = await runAgainst(undefined, { referenceSeed, conformanceSeed, startedAtFilter: 'initiatedAt' });
    saveRow(rowsDir(testInfo), row);
    expect(row.outcome, row.problem).toBe('passed');
    expect(row.learned['started-at-filter']).toEqual(['initiated-at-or-after']);
  });
}

for (const fault of FAULTS) {
  const expected = expectationOf(fault);
  if (expected === 'pass')
    throw new Error(`fault ${fault.name} breaks no MUST or SHOULD requirement under its own profile, so nothing could catch it`);
  const how = expected === 'fail' ? 'fails the run naming' : 'warns naming';
  for (const readings of readingsOf(fault)) {
    test(`fault ${fault.name} under the ${readings} readings: the suite ${how} ${fault.requirements.join(', ')}, and judges every other requirement`, async ({}, testInfo) => {
      const row = await runAgainst(fault, { readings });
      saveRow(rowsDir(testInfo), row);
      expect(row.outcome, `fault ${fault.name} (${readings} readings) ${row.outcome}: ${row.problem}`).toBe(
        expected === 'fail' ? 'killed' : 'warned',
      );
    });
  }
}

// A living target (reference/live/): new calls logged during the run, calls ending, minutes growing,
// and each call's recording and final minutes arriving 2 to 15 seconds after it ends (the living
// reference's default settle delay). The clean reference living passes on five seeds at each rate,
// and every fault is still caught while the data moves: "it moved" never excuses a wrong answer
// (fixtures/moving-data.ts), and a late field settling never excuses one either (fixtures/checks/settling.ts).
const LIVING_RATES = [1, 0.2] as const;
const LIVING_SEEDS = [
  { referenceSeed: MATRIX_REFERENCE_SEED, conformanceSeed: SELF_TEST_SEED },
  { referenceSeed: 2, conformanceSeed: '7' },
  { referenceSeed: 11, conformanceSeed: '424242' },
  { referenceSeed: 17, conformanceSeed: '99' },
  { referenceSeed: 23, conformanceSeed: '2026' },
];
/** The faults run living at one new call a second, the busier of the two rates. */
const FAULT_LIVING_RATE = LIVING_RATES[0];

for (const live of LIVING_RATES) {
  for (const { referenceSeed, conformanceSeed } of LIVING_SEEDS) {
    test(`the clean reference living at ${live} new calls a second (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`, async ({}, testInfo) => {
      const row = await runAgainst(undefined, { referenceSeed, conformanceSeed, live });
      saveRow(rowsDir(testInfo), row);
      expect(row.outcome, row.problem).toBe('passed');
    });
  }
}

// The README's line for a deployment that must not be pressed (REQUEST_BUDGET=800 MAX_RPS=5), against
// a living target: paced to five requests a second, the run takes minutes, long enough for calls
// to be logged, end and settle between the suite's answers, and its own waiting must never be
// counted as the target's.
const BOUNDED_ENV = { REQUEST_BUDGET: '800', MAX_RPS: '5' } as const;
/** About three minutes at five requests a second; room for a slow, shared machine. */
const BOUNDED_RUN_TIMEOUT_MS = 480_000;

test(`the clean reference living at ${FAULT_LIVING_RATE} new calls a second under REQUEST_BUDGET=${BOUNDED_ENV.REQUEST_BUDGET} MAX_RPS=${BOUNDED_ENV.MAX_RPS} passes the whole suite with no warning`, async ({}, testInfo) => {
  testInfo.setTimeout(BOUNDED_RUN_TIMEOUT_MS + 60_000);
  const row = await runAgainst(undefined, { live: FAULT_LIVING_RATE, env: BOUNDED_ENV, timeoutMs: BOUNDED_RUN_TIMEOUT_MS });
  saveRow(rowsDir(testInfo), row);
  expect(row.outcome, row.problem).toBe('passed');
});

for (const fault of FAULTS) {
  const expected = expectationOf(fault);
  const how = expected === 'fail' ? 'fails the run naming' : 'warns naming';
  const readings = readingsOf(fault)[0]!;
  test(`fault ${fault.name} living at ${FAULT_LIVING_RATE} new calls a second under the ${readings} readings: the suite ${how} ${fault.requirements.join(', ')}, and judges every other requirement`, async ({}, testInfo) => {
    const row = await runAgainst(fault, { readings, live: FAULT_LIVING_RATE });
    saveRow(rowsDir(testInfo), row);
    expect(row.outcome, `fault ${fault.name} (${readings} readings, living) ${row.outcome}: ${row.problem}`).toBe(
      expected === 'fail' ? 'killed' : 'warned',
    );
  });
}

// A convention of the deployment is not the specification: under the spec profile, a target that
// breaks only a convention passes.
for (const fault of FAULTS.filter((entry) => entry.profile === 'strict')) {
  test(`fault ${fault.name} breaks only a convention: under the spec profile the suite passes with no warning`, async ({}, testInfo) => {
    const row = await runAgainst(fault, { profile: 'spec' });
    saveRow(rowsDir(testInfo), row);
    expect(row.outcome, `fault ${fault.name} under the spec profile: ${row.problem}`).toBe('passed');
  });
}
