// The end of a run, for the history: its line added to HISTORY_FILE (the oldest runs past
// HISTORY_LIMIT dropped), and what the history then says of it, for the report. Never throws: a
// history that cannot be read or written is said in the summary's problems, and the run's verdict,
// its reports and its exit code are what they would have been without one.
import type { ConformanceReport, HistorySummary } from '../results/report-model.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { appendRun, runEntry } from './history-file.ts';
import { historyRunOf } from './history-run.ts';
import type { HistorySettings } from './history-settings.ts';
import { historySummary, readingRequirementsOf, type HistoryCatalog } from './history-summary.ts';

/** The catalog as the history reads it back. */
export function historyCatalog(): HistoryCatalog {
  const { requirements } = loadCatalog();
  return { ids: requirements.map((requirement) => requirement.id), readingRequirements: readingRequirementsOf(requirements) };
}

/**
 * Adds the report's run to the history; `protect` is what every output of the run passes through
 * (the redactor of its keys, the escapes of what a reader cannot see).
 */
export function recordRun(report: ConformanceReport, settings: HistorySettings, protect: (text: string) => string): HistorySummary {
  const run = historyRunOf(report);
  let entry;
  try {
    entry = runEntry(run, protect);
  } catch (error) {
    return historySummary(settings.file, [run], historyCatalog(), [
      `${settings.file}: this run was not added: ${(error as Error).message}`,
    ])!;
  }
  const appended = appendRun(settings.file, entry, settings.limit);
  return historySummary(settings.file, appended.runs, historyCatalog(), appended.problems)!;
}
