// The history in words, for the console after a run and for a job summary: the flaky requirements
// and the new failures in a line or two, what else the history marks, and the lines of the file it
// skipped. The grid itself is the HTML report's (render-history.ts).
import type { HistorySummary } from '../core/results/report-model.ts';
import { visibleLine } from '../core/results/visible.ts';

/** The file's problems the console shows; the report lists them all. */
const PROBLEMS_SHOWN = 5;

const named = (words: string, ids: readonly string[]) => (ids.length === 0 ? [] : [`${words} (${ids.length}): ${ids.join(', ')}`]);

/** What the marks say, one phrase each that has any; empty when nothing is marked. */
export function historyFindings(history: HistorySummary): string[] {
  const flaky = [...new Set([...history.flaky, ...history.flakyForSure])];
  return [
    ...named('flaky', flaky).map((phrase) =>
      history.flakyForSure.length > 0 ? `${phrase}; the same seed gave two outcomes for ${history.flakyForSure.join(', ')}` : phrase,
    ),
    ...named('new failures', history.newFailures),
    ...named('fixed', history.fixed),
    ...named(
      'readings changed',
      history.readingsChanged.map((change) => `${change.subject} ${change.before.join('+') || '∅'} → ${change.now.join('+') || '∅'}`),
    ),
  ];
}

/** The console's lines: where the history is, how many runs of this target, what it marks, and the lines it skipped. */
export function historyConsoleLines(history: HistorySummary | undefined): string[] {
  if (!history) return [];
  const findings = historyFindings(history);
  const problems = history.problems.slice(0, PROBLEMS_SHOWN).map((problem) => `  ${visibleLine(problem)}`);
  const more = history.problems.length - PROBLEMS_SHOWN;
  return [
    `History (${visibleLine(history.file)}, ${history.shown.length} run(s) of this target): ${findings.length === 0 ? 'nothing flaky, no new failure' : findings.join('; ')}.`,
    ...problems,
    ...(more > 0 ? [`  … and ${more} more (the report lists them all)`] : []),
  ];
}

/** The same for a job summary (Markdown): a requirement id is code, so nothing in it is read as markup. */
export function historyMarkdown(history: HistorySummary | undefined): string[] {
  if (!history) return [];
  const code = (ids: readonly string[]) => ids.map((id) => `\`${id.replace(/`/g, "'")}\``).join(', ');
  const flaky = [...new Set([...history.flaky, ...history.flakyForSure])];
  return [
    `### History: ${history.shown.length} run(s) of this target`,
    '',
    flaky.length === 0 ? 'Flaky: none.' : `Flaky (${flaky.length}): ${code(flaky)}.`,
    history.newFailures.length === 0
      ? 'New failures: none.'
      : `New failures (${history.newFailures.length}): ${code(history.newFailures)}.`,
    ...(history.problems.length > 0 ? [`${history.problems.length} line(s) of the history skipped (and kept); see the report.`] : []),
    '',
  ];
}
