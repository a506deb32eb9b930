// The coverage of a run (core/coverage/model.ts) in the few lines a short summary has room for:
// one markdown table of the dimensions, for the passive summary.md and the active run's own summary.
// The words for an item's state live here too, so that every report says them alike.
import type { Coverage, CoverageState } from '../core/coverage/model.ts';

/** An item's state in words, as the reports say it. */
export const STATE_WORDS: Readonly<Record<CoverageState, string>> = {
  covered: 'covered',
  weak: 'tried on data that cannot tell',
  missing: 'not covered',
};

/** The state a report shows: results.json is read back from a file, and anything else counts as not covered. */
export const stateOf = (state: unknown): CoverageState => (state === 'covered' || state === 'weak' ? state : 'missing');

/**
 * A markdown table cell. A results.json is data: a `|` or a line break would end the cell or the
 * table, and a `<` would open HTML where GitHub renders the summary.
 */
export const cell = (value: unknown) =>
  String(value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;');

/** One row per dimension: what was covered, tried on data that cannot tell, not covered, and the percent covered. */
export function coverageTable(coverage: Coverage): string[] {
  return [
    '| Dimension | Covered | Cannot tell | Not covered | % |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...coverage.dimensions.map(
      (dimension) =>
        `| ${cell(dimension.label)} | ${cell(dimension.covered)} | ${cell(dimension.weak)} | ${cell(dimension.missing)} | ${cell(dimension.percent)}% |`,
    ),
  ];
}
