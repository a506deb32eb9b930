// A run's report as its line of the history (history-line.ts): what the report says, in brief.
import type { ConformanceReport } from '../results/report-model.ts';
import { encodeOutcomes, HISTORY_FORMAT, type HistoryRun } from './history-line.ts';

/** A target's description is the report's; a longer one (a remote's two long addresses) is cut, to keep the line short. */
const TARGET_LIMIT = 300;

export function historyRunOf(report: ConformanceReport): HistoryRun {
  const { run } = report;
  const commit = run.suite.commit === undefined ? '' : `+${run.suite.commit.slice(0, 12)}${run.suite.modified ? '.modified' : ''}`;
  const readings: Record<string, string[]> = {};
  for (const reading of report.readings) {
    const accepted = reading.candidates.filter((candidate) => candidate.status === 'accepted').map((candidate) => candidate.id);
    if (accepted.length > 0) readings[reading.subject] = accepted;
  }
  const coverage: Record<string, number> = {};
  for (const dimension of report.coverage?.dimensions ?? []) coverage[dimension.id] = dimension.percent;
  return {
    format: HISTORY_FORMAT,
    at: run.startedAt,
    target: run.target.length > TARGET_LIMIT ? `${run.target.slice(0, TARGET_LIMIT - 1)}…` : run.target,
    suite: `${run.suite.version}${commit}`,
    seed: run.seeds.length === 1 ? run.seeds[0]! : run.seed,
    profile: run.profile,
    verdict: report.verdict,
    ms: Math.max(0, Math.round(run.durationMs)),
    mode: report.passive ? 'passive' : 'run',
    outcomes: encodeOutcomes(report.requirements),
    readings,
    coverage,
  };
}
