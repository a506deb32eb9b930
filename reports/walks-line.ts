// How a passive report says the pages of listings were judged together (passive/listing-walks.ts):
// one line, the same in the job summary and the HTML report.
import type { ConformanceReport } from '../core/results/report-model.ts';

type WalkCounts = NonNullable<NonNullable<ConformanceReport['passive']>['walks']>;

/** How many walks of a listing's pages were judged, and how many were not, by why. */
export function walksLine(walks: WalkCounts): string {
  const not = Object.entries(walks.notJudged);
  return `Pages judged together: ${walks.judged} walk(s) of a listing's pages judged; not judged: ${
    not.map(([why, count]) => `${count} × ${why}`).join('; ') || 'none'
  }.`;
}
