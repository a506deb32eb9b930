// What the history says of each requirement in the latest run of a target, from the runs of that
// target, oldest first. Pure: the same runs give the same marks, in a report or in `history`.
// - flaky (Allure's rule): failed now, and among the five runs before that judged it, one passed
//   more recently than one failed: failed, passed since, failed again;
// - flaky for sure: two runs of the same suite version and seed, one passed, one failed: the same
//   requests, two answers;
// - new failure: failed now, passed in the last run before that judged it; fixed: the other way;
// - reading changed: a reading learned now differs from the last run before that learned it.
// Only what was judged counts: a run that skipped, blocked or left out a requirement says nothing of it.
import type { HistoryMark, RequirementStatus } from '../results/report-model.ts';

type Judged = 'passed' | 'failed';

/** A run of the history with its outcomes read back (history-line.ts's decodeOutcomes). */
export interface DecodedRun {
  suite: string;
  seed: number;
  outcomes: ReadonlyMap<string, RequirementStatus>;
  readings: Readonly<Record<string, readonly string[]>>;
}

/** How many runs before the latest Allure's rule looks at. */
const FLAKY_WINDOW = 5;

const FAILED: ReadonlySet<RequirementStatus> = new Set(['fail', 'intermittent', 'expected-fail']);
const PASSED: ReadonlySet<RequirementStatus> = new Set(['pass', 'warn']);

/** Whether an outcome judged the requirement, and which way; an error, a skip, a block judged nothing. */
function judgedAs(status: RequirementStatus | undefined): Judged | undefined {
  if (status === undefined) return undefined;
  return FAILED.has(status) ? 'failed' : PASSED.has(status) ? 'passed' : undefined;
}

/** The requirement's judgements, oldest first, the runs that did not judge it left out. */
const judgementsOf = (runs: readonly DecodedRun[], id: string): Judged[] =>
  runs.flatMap((run) => {
    const judged = judgedAs(run.outcomes.get(id));
    return judged === undefined ? [] : [judged];
  });

/** Allure's rule on judgements oldest first, the latest last: it failed, and passed since a failure among the five before. */
export function flakyJudgements(judgements: readonly Judged[]): boolean {
  if (judgements.at(-1) !== 'failed') return false;
  const before = judgements.slice(0, -1).slice(-FLAKY_WINDOW).reverse();
  const passed = before.indexOf('passed');
  return passed !== -1 && before.lastIndexOf('failed') > passed;
}

/** Whether two runs of the same suite version and seed judged the requirement both ways. */
function flakyForSure(runs: readonly DecodedRun[], id: string): boolean {
  const seen = new Map<string, Set<Judged>>();
  for (const run of runs) {
    const judged = judgedAs(run.outcomes.get(id));
    if (judged === undefined) continue;
    const same = `${run.suite}\u0000${run.seed}`;
    seen.set(same, (seen.get(same) ?? new Set()).add(judged));
  }
  return [...seen.values()].some((both) => both.size === 2);
}

/** The latest run's judgement beside the one before it, when the latest run judged the requirement. */
function lastTwo(runs: readonly DecodedRun[], id: string): [Judged | undefined, Judged] | undefined {
  if (judgedAs(runs.at(-1)?.outcomes.get(id)) === undefined) return undefined;
  const judgements = judgementsOf(runs, id);
  return [judgements.at(-2), judgements.at(-1)!];
}

export interface ReadingChange {
  subject: string;
  before: string[];
  now: string[];
}

/** Each reading the latest run learned otherwise than the last run before it that learned it. */
export function readingChanges(runs: readonly DecodedRun[]): ReadingChange[] {
  const latest = runs.at(-1);
  if (!latest) return [];
  return Object.entries(latest.readings).flatMap(([subject, accepted]) => {
    const earlier = runs
      .slice(0, -1)
      .reverse()
      .find((run) => run.readings[subject] !== undefined)?.readings[subject];
    const now = [...accepted].sort();
    const before = earlier === undefined ? undefined : [...earlier].sort();
    return before === undefined || before.join('\u0000') === now.join('\u0000') ? [] : [{ subject, before, now }];
  });
}

/** Every mark of each requirement named in `ids`, in the latest run; `readingRequirements` maps a subject to the requirements judged under it. */
export function marksOf(
  runs: readonly DecodedRun[],
  ids: readonly string[],
  readingRequirements: ReadonlyMap<string, readonly string[]>,
): Map<string, HistoryMark[]> {
  const underChanged = new Set(readingChanges(runs).flatMap((change) => readingRequirements.get(change.subject) ?? []));
  const marks = new Map<string, HistoryMark[]>();
  for (const id of ids) {
    const two = lastTwo(runs, id);
    const found: HistoryMark[] = [
      ...(two !== undefined && flakyJudgements(judgementsOf(runs, id)) ? (['flaky'] as const) : []),
      ...(flakyForSure(runs, id) ? (['flaky-for-sure'] as const) : []),
      ...(two?.[0] === 'passed' && two[1] === 'failed' ? (['new-failure'] as const) : []),
      ...(two?.[0] === 'failed' && two[1] === 'passed' ? (['fixed'] as const) : []),
      ...(underChanged.has(id) ? (['reading-changed'] as const) : []),
    ];
    if (found.length > 0) marks.set(id, found);
  }
  return marks;
}
