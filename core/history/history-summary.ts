// The history as a report shows it: the last runs of the latest run's target (other targets' runs
// in the same file are left out: a requirement flaky on staging says nothing of production), a row
// per requirement one of them judged, and the marks of the latest run. Pure.
import type { HistoryMark, HistorySummary, RequirementStatus } from '../results/report-model.ts';
import { decodeOutcomes, OUTCOME_CODES, type HistoryRun } from './history-line.ts';
import { marksOf, readingChanges, type DecodedRun } from './history-marks.ts';

/** The runs the grid shows, this one the last: thirty fit a page's width, and hold Allure's five many times over. */
export const GRID_RUNS = 30;
/** A requirement a shown run did not judge. */
export const NOT_JUDGED = '.';

/** What the catalog tells the history: its ids in order, and the requirements judged under each reading. */
export interface HistoryCatalog {
  ids: readonly string[];
  readingRequirements: ReadonlyMap<string, readonly string[]>;
}

/** The summary of `runs` (oldest first) for the target of the last of them; undefined for no run. */
export function historySummary(
  file: string,
  runs: readonly HistoryRun[],
  catalog: HistoryCatalog,
  problems: readonly string[] = [],
): HistorySummary | undefined {
  const latest = runs.at(-1);
  if (!latest) return undefined;
  const shown = runs.filter((run) => run.target === latest.target).slice(-GRID_RUNS);
  const decoded: DecodedRun[] = shown.map((run) => ({ ...run, outcomes: decodeOutcomes(run.outcomes, catalog.ids) }));
  const judged = new Set(decoded.flatMap((run) => [...run.outcomes.keys()]));
  // The catalog's order, then the keys no requirement of it has any more.
  const ids = [...catalog.ids.filter((id) => judged.has(id)), ...[...judged].filter((id) => id.startsWith('#')).sort()];
  const marks = marksOf(decoded, ids, catalog.readingRequirements);
  const marked = (mark: HistoryMark) => ids.filter((id) => marks.get(id)?.includes(mark));
  return {
    file,
    runs: runs.length,
    problems: [...problems],
    shown: shown.map((run) => ({ at: run.at, suite: run.suite, seed: run.seed, verdict: run.verdict, ms: run.ms })),
    grid: ids.map((id) => ({
      id,
      outcomes: decoded.map((run) => codeOf(run.outcomes.get(id))).join(''),
      marks: marks.get(id) ?? [],
    })),
    flaky: marked('flaky'),
    flakyForSure: marked('flaky-for-sure'),
    newFailures: marked('new-failure'),
    fixed: marked('fixed'),
    readingsChanged: readingChanges(decoded).map((change) => ({
      ...change,
      requirements: [...(catalog.readingRequirements.get(change.subject) ?? [])],
    })),
  };
}

const codeOf = (status: RequirementStatus | undefined) => (status === undefined ? undefined : OUTCOME_CODES[status]) ?? NOT_JUDGED;

/** The requirements judged under each reading, as the catalog declares them. */
export function readingRequirementsOf(requirements: ReadonlyArray<{ id: string; readings?: readonly string[] }>): Map<string, string[]> {
  const bySubject = new Map<string, string[]>();
  for (const requirement of requirements)
    for (const subject of requirement.readings ?? []) bySubject.set(subject, [...(bySubject.get(subject) ?? []), requirement.id]);
  return bySubject;
}
