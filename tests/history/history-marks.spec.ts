// The marks of the history, on runs made by hand: Allure's flaky rule, flaky for sure (one seed, two
// outcomes), new failures, fixed, readings changed; and on a scripted history of twenty runs where
// three requirements fail some runs only, exactly those three are flaky.
import { test, expect } from '@playwright/test';
import { flakyJudgements, marksOf, readingChanges, type DecodedRun } from '../../core/history/history-marks.ts';
import type { RequirementStatus } from '../../core/results/report-model.ts';

const run = (outcomes: Record<string, RequirementStatus>, more: Partial<DecodedRun> = {}): DecodedRun => ({
  suite: '0.1.0',
  seed: 1,
  outcomes: new Map(Object.entries(outcomes)),
  readings: {},
  ...more,
});
/** Runs of one requirement `R` from a word of letters: p pass, f fail, s skip, oldest first; each its own seed. */
const runsOf = (letters: string) =>
  [...letters].map((letter, index) =>
    run({ R: ({ p: 'pass', f: 'fail', s: 'skip', i: 'intermittent', w: 'warn' } as const)[letter as 'p'] }, { seed: index }),
  );
const marks = (runs: DecodedRun[], subjects = new Map<string, string[]>()) => marksOf(runs, ['R'], subjects).get('R') ?? [];

test("Allure's rule: failed now, passed since a failure among the five runs before", () => {
  expect(flakyJudgements(['failed', 'passed', 'failed'])).toBe(true);
  expect(flakyJudgements(['passed', 'failed', 'failed'])).toBe(false);
  expect(flakyJudgements(['failed', 'passed', 'passed'])).toBe(false);
  expect(flakyJudgements(['failed', 'failed', 'failed'])).toBe(false);
  // The failure before the pass is six runs back: out of the window.
  expect(flakyJudgements(['failed', 'passed', 'passed', 'passed', 'passed', 'passed', 'failed'])).toBe(false);
  expect(flakyJudgements(['failed', 'passed', 'passed', 'passed', 'passed', 'failed'])).toBe(true);
  expect(marks(runsOf('fpf'))).toContain('flaky');
  // A run that skipped it judged nothing: f, p, (skip), f is still flaky, and p, f, s is no new failure now.
  expect(marks(runsOf('fpsf'))).toContain('flaky');
  expect(marks(runsOf('pfs'))).toEqual([]);
  expect(marks(runsOf('fpfs'))).toEqual([]);
});

test('new failure and fixed are against the last run before that judged it', () => {
  expect(marks(runsOf('pf'))).toEqual(['new-failure']);
  expect(marks(runsOf('psf'))).toEqual(['new-failure']);
  expect(marks(runsOf('fp'))).toEqual(['fixed']);
  expect(marks(runsOf('ff'))).toEqual([]);
  expect(marks(runsOf('f'))).toEqual([]);
  // A warning is a pass for the history; an intermittent failure a failure.
  expect(marks(runsOf('wi'))).toEqual(['new-failure']);
});

test('flaky for sure: two runs of the same suite version and seed, one passed and one failed', () => {
  const same = [run({ R: 'fail' }), run({ R: 'pass' })];
  expect(marks(same)).toEqual(['flaky-for-sure', 'fixed']);
  expect(marks([run({ R: 'fail' }), run({ R: 'pass' }, { seed: 2 })])).toEqual(['fixed']);
  expect(marks([run({ R: 'fail' }), run({ R: 'pass' }, { suite: '0.2.0' })])).toEqual(['fixed']);
});

test('a reading learned otherwise than the last run that learned it marks the requirements judged under it', () => {
  const before = run({ R: 'pass' }, { readings: { 'call-minutes': ['sum-of-entries'] } });
  const between = run({ R: 'pass' });
  const now = run({ R: 'pass' }, { readings: { 'call-minutes': ['call-span'] } });
  expect(readingChanges([before, between, now])).toEqual([{ subject: 'call-minutes', before: ['sum-of-entries'], now: ['call-span'] }]);
  expect(marks([before, between, now], new Map([['call-minutes', ['R']]]))).toEqual(['reading-changed']);
  expect(readingChanges([before, between, before])).toEqual([]);
});

test('a scripted history of twenty runs with three requirements failing some runs only: exactly those three are flaky', () => {
  const stable: Record<string, RequirementStatus> = { STEADY: 'pass', BROKEN: 'fail', WARNED: 'warn', SKIPPED: 'skip' };
  // Each strikes some runs only, its own way; all three fail in the last run, after a pass.
  const strikes: Record<string, (index: number) => boolean> = {
    EVERY_THIRD: (index) => index % 3 === 1,
    SOMETIMES: (index) => [2, 7, 8, 15, 19].includes(index),
    TWICE: (index) => index === 16 || index === 19,
  };
  const runs = Array.from({ length: 20 }, (_, index) =>
    run(
      {
        ...stable,
        ...Object.fromEntries(Object.entries(strikes).map(([id, strikes]) => [id, strikes(index) ? 'fail' : 'pass'])),
      },
      { seed: 1000 + index },
    ),
  );
  const ids = [...Object.keys(stable), ...Object.keys(strikes)];
  const flaky = [...marksOf(runs, ids, new Map())].filter(([, found]) => found.includes('flaky')).map(([id]) => id);
  expect(flaky).toEqual(Object.keys(strikes));
});
