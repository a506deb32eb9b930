// The History section of index.html (HISTORY_FILE): what the history marks in this run (flaky, new
// failures, fixed, readings changed), the grid of requirements by the last runs of this target,
// oldest first and this run last, each outcome a symbol over a colour, and the runs themselves in
// a table under it. Plain HTML and CSS, readable without script and in print; every value escaped.
import type { HistoryMark, HistorySummary, RequirementStatus } from '../core/results/report-model.ts';
import { OUTCOME_CODES } from '../core/history/history-line.ts';
import { NOT_JUDGED } from '../core/history/history-summary.ts';
import { htmlEscape as h } from './html-escape.ts';

/** Each outcome letter of the grid as its symbol (the matrix's) and the class of its colour. */
const CELLS: ReadonlyMap<string, { symbol: string; status: RequirementStatus }> = new Map(
  (
    [
      ['pass', '✔'],
      ['fail', '✘'],
      ['intermittent', '≈'],
      ['expected-fail', '⚑'],
      ['warn', '!'],
      ['skip', '–'],
      ['error', '⚠'],
      ['blocked', '⊘'],
    ] as const
  ).map(([status, symbol]) => [OUTCOME_CODES[status]!, { symbol, status }]),
);

const MARK_WORDS: Readonly<Record<HistoryMark, string>> = {
  flaky: 'flaky',
  'flaky-for-sure': 'flaky for sure',
  'new-failure': 'new failure',
  fixed: 'fixed',
  'reading-changed': 'reading changed',
};

/** The section's link in the report's navigation, when it has the section. */
export const historyNavLink = (history: HistorySummary | undefined): string => (history ? '<a href="#history">History</a>' : '');

export function renderHistory(history: HistorySummary | undefined): string {
  if (!history) return '';
  const runs = history.shown.length;
  return `<section id="history"><h2>History: the last ${runs} run(s) of this target</h2>
<p>From <code>${h(history.file)}</code>, which holds ${history.runs} run(s); runs of other targets are left out. Oldest first, this run last.</p>
${renderFindings(history)}
${renderProblems(history.problems)}
<table class="hg"><thead><tr><th scope="col">Requirement</th><th scope="col">Marks</th>${history.shown.map((_, index) => `<th scope="col" class="hn">${index + 1}</th>`).join('')}</tr></thead>
<tbody>${history.grid.map((row) => `<tr data-requirement="${h(row.id)}"><th scope="row"><code>${h(row.id)}</code></th><td>${row.marks.map(markBadge).join(' ')}</td>${[...row.outcomes].map(cell).join('')}</tr>`).join('\n')}</tbody></table>
<p class="legend">✔ pass, ✘ fail, ≈ intermittent, ⚑ expected failure, ! warn, ⚠ error, ⊘ blocked, – skip; an empty cell: not judged in that run (uncovered, not testable, or not yet in the catalog). <b>Flaky</b>: failed now, and passed since a failure in one of the five runs before (Allure's rule); <b>flaky for sure</b>: the same suite version and seed passed it and failed it; <b>new failure</b> and <b>fixed</b>: against the last run before that judged it; <b>reading changed</b>: judged under a reading learned otherwise than before.</p>
<table class="operations hr"><thead><tr><th scope="col">Run</th><th scope="col">Started</th><th scope="col">Verdict</th><th scope="col">Seed</th><th scope="col">Suite</th><th scope="col">Duration</th></tr></thead>
<tbody>${history.shown.map((run, index) => `<tr><td>${index + 1}${index === runs - 1 ? ' (this run)' : ''}</td><td>${h(run.at)}</td><td>${h(run.verdict)}</td><td>${run.seed}</td><td>${h(run.suite)}</td><td>${(run.ms / 1000).toFixed(1)} s</td></tr>`).join('')}</tbody></table>
</section>`;
}

const markBadge = (mark: HistoryMark) => `<span class="hm hm-${mark}">${h(MARK_WORDS[mark])}</span>`;

function cell(code: string): string {
  const shown = code === NOT_JUDGED ? undefined : CELLS.get(code);
  return shown ? `<td class="s-${shown.status}">${shown.symbol}</td>` : '<td></td>';
}

function renderFindings(history: HistorySummary): string {
  const list = (words: string, ids: readonly string[]) =>
    ids.length === 0 ? '' : `<li>${h(words)} (${ids.length}): ${ids.map((id) => `<code>${h(id)}</code>`).join(', ')}</li>`;
  const items = [
    list('Flaky', history.flaky),
    list('Flaky for sure (the same seed gave two outcomes)', history.flakyForSure),
    list('New failures', history.newFailures),
    list('Fixed', history.fixed),
    ...history.readingsChanged.map(
      (change) =>
        `<li>Reading changed: <code>${h(change.subject)}</code> ${h(change.before.join(' or ') || 'none')} → ${h(change.now.join(' or ') || 'none')}${change.requirements.length > 0 ? ` (judges ${change.requirements.map((id) => `<code>${h(id)}</code>`).join(', ')})` : ''}</li>`,
    ),
  ].filter((item) => item !== '');
  return items.length === 0 ? '<p>Nothing flaky, no new failure, nothing fixed, no reading changed.</p>' : `<ul>${items.join('')}</ul>`;
}

function renderProblems(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  return `<p class="warning">Lines of the history not read (each kept in the file as it was), or why this run is not in it:</p><ul>${problems.map((problem) => `<li>${h(problem)}</li>`).join('')}</ul>`;
}

export const HISTORY_STYLE = `
table.hg { width: auto; } table.hg th, table.hg td { padding: 1px 4px; font-size: 12.5px; }
table.hg td { text-align: center; min-width: 1.6em; } table.hg td:nth-child(2) { text-align: left; white-space: nowrap; }
table.hg td.s-pass, table.hg td.s-fail, table.hg td.s-warn, table.hg td.s-error { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.hm { display: inline-block; padding: 0 5px; border-radius: 3px; border: 1px solid var(--fail); color: var(--fail); font-size: 12px; }
.hm-fixed { border-color: var(--pass); color: var(--pass); } .hm-reading-changed { border-color: var(--warn); color: var(--warn); }
table.hr { width: auto; }
`;
