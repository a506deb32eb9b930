// A run's job summary: the few lines of Markdown a CI page or a pull request's comment has room for,
// made from results.json alone, so that it can be written after the run, by a later step or on
// another machine (the GitHub Action's summary and comment: action.yml, `summary` command).
// Everything in it is read back from a file a target's answers went into: each value passes through
// cell(), which keeps a table a table and opens no HTML where GitHub renders it.
import type { ConformanceReport, RequirementResult } from '../core/results/report-model.ts';
import { cell, coverageTable } from './coverage-summary.ts';
import { FAILING } from './requirement-matrix.ts';
import { DIFF_HEADLINES, type DiffResults } from './diff-report.ts';

/** At most this many requirements are listed under each heading; the HTML report has them all. */
const LISTED = 20;

/** The summary of an active run (a passive one has its own: passive/passive-report.ts). */
export function renderRunSummary(report: ConformanceReport, reportLink?: string): string {
  return [
    `## Conformance: ${cell(report.verdict)}`,
    '',
    cell(report.verdictReason),
    '',
    `Target: ${report.run.targetAddresses.map((address) => `\`${cell(address)}\``).join(', ') || 'none reached'}; seed ${report.run.seeds.map(cell).join(', ')}.`,
    '',
    ...failedTable(report.requirements.filter((requirement) => FAILING.has(requirement.status))),
    ...listed(
      'Newly failing against the baseline',
      (report.comparison?.newlyFailing ?? []).map((change) => `${change.id}: ${change.base} → ${change.next}`),
    ),
    ...listed('Flaky across runs (HISTORY_FILE)', flakyOf(report)),
    ...listed('New failures since the last run', report.history?.newFailures ?? []),
    ...listed('Expected failures', report.expectations?.expectedFailures ?? []),
    ...listed('Listed as expected, but passed', report.expectations?.unexpectedPasses ?? []),
    ...(report.coverage ? ['### Coverage: what the run tried', '', ...coverageTable(report.coverage), ''] : []),
    reportLink === undefined ? 'Report: index.html beside results.json.' : `Report: ${cell(reportLink)}`,
    '',
  ].join('\n');
}

/**
 * A diff run's summary (docs/diff.md), from its results.json: the headline, each difference beyond
 * noise with its class and what it names, the readings that changed, the operations that could not be
 * judged and what each DIFF_IGNORE rule silenced. Field paths are the target's: each passes cell().
 */
export function renderDiffSummary(diff: DiffResults, seed: unknown, reportLink?: string): string {
  const rows = diff.findings.map(
    (finding) =>
      `| ${cell(finding.verdict)} | ${cell(finding.operation)} | \`${cell(finding.path)}\` | ${cell(finding.kind)} | ${cell(`${finding.candidate}/${finding.comparisons}`)} | ${cell(finding.aa)} | ${cell(finding.because.join(', '))} |`,
  );
  return [
    `## Diff: ${DIFF_HEADLINES[diff.exitCode] ?? cell(diff.exitCode)}`,
    '',
    `${cell(diff.requests)} requests; ${diff.operations.map((operation) => `${cell(operation.operation)} ${cell(operation.comparisons)} comparisons`).join(', ')}; seed ${cell(seed)}.`,
    '',
    ...(rows.length === 0
      ? ['No difference beyond noise.', '']
      : [
          `### Differences beyond noise (${rows.length})`,
          '',
          '| Class | Operation | Field path | Kind | Candidate | A/A | Names |',
          '| --- | --- | --- | --- | --- | --- | --- |',
          ...rows.slice(0, LISTED),
          ...more(rows.length),
          '',
        ]),
    ...listed('Readings that changed', diff.readingsChanged),
    ...listed(
      'Could not be judged',
      diff.inconclusive.map(({ operation, reason }) => `${operation}: ${reason}`),
    ),
    // A results.json written before mark-unread was compared has no such list.
    ...listed(
      'Not compared',
      (Array.isArray(diff.notCompared) ? diff.notCompared : []).map(({ operation, reason }) => `${operation}: ${reason}`),
    ),
    ...listed(
      'DIFF_IGNORE',
      diff.ignored.map(({ operation, path, suppressed }) => `${operation}:${path} suppressed differences in ${suppressed} comparisons`),
    ),
    reportLink === undefined ? 'Report: index.html beside results.json.' : `Report: ${cell(reportLink)}`,
    '',
  ].join('\n');
}

/** The failed requirements, one row each: its level, whether it failed in every attempt, and what its text asks. */
function failedTable(failed: readonly RequirementResult[]): string[] {
  if (failed.length === 0) return ['No requirement failed.', ''];
  return [
    `### Failed (${failed.length})`,
    '',
    '| Requirement | Level | Outcome | Requires |',
    '| --- | --- | --- | --- |',
    ...failed
      .slice(0, LISTED)
      .map(
        (requirement) =>
          `| \`${cell(requirement.id)}\` | ${cell(requirement.level)} | ${outcome(requirement)} | ${cell(shortened(requirement.text))} |`,
      ),
    ...more(failed.length),
    '',
  ];
}

/** The history's flaky requirements, the sure ones (same suite and seed, two outcomes) said so. */
function flakyOf(report: ConformanceReport): string[] {
  const history = report.history;
  if (!history) return [];
  const sure = new Set(history.flakyForSure);
  return [...new Set([...history.flaky, ...history.flakyForSure])].map((id) =>
    sure.has(id) ? `${id} (for sure: same suite and seed, two outcomes)` : id,
  );
}

function outcome(requirement: RequirementResult): string {
  const attempts = requirement.attempts;
  if (requirement.status === 'intermittent' && attempts) return `intermittent (${attempts.violated} of ${attempts.judged} attempts)`;
  return cell(requirement.status);
}

function listed(heading: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  return [`### ${heading} (${items.length})`, '', ...items.slice(0, LISTED).map((item) => `- ${cell(item)}`), ...more(items.length), ''];
}

const more = (count: number) => (count > LISTED ? [`- … and ${count - LISTED} more: see the HTML report`] : []);

const shortened = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);
