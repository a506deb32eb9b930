// The Readings of the report: for each thing the suite learns of a target (catalogued under
// `readings` in openapi/requirements.yaml), its question, each candidate with what the run found of
// it (accepted, consistent, or ruled out and why), and the evidence. Built from the detection
// summaries the tests carry, so merged shards give the same section as one unsharded run.
import type { Catalog } from '../openapi/catalog.ts';
import type { DetectionSummary } from '../core/learning/detection.ts';
import type { ReadingResult, TestRecord } from '../core/results/report-model.ts';

export function readingResults(catalog: Catalog, tests: readonly TestRecord[]): ReadingResult[] {
  return catalog.readings.flatMap((declaration) => {
    const variants = distinct(tests.flatMap((test) => test.readings.filter((summary) => summary.subject === declaration.subject)));
    const summary = variants[0];
    if (!summary) return [];
    return [
      {
        subject: declaration.subject,
        question: declaration.question,
        judged: declaration.judged,
        requirements: catalog.requirements
          .filter((requirement) => requirement.readings?.includes(declaration.subject))
          .map((requirement) => requirement.id),
        candidates: declaration.candidates.map(({ id, text }) => {
          const ruledOut = summary.ruledOut.find((entry) => entry.candidate === id);
          const status = summary.accepted.includes(id) ? 'accepted' : ruledOut ? 'ruled-out' : 'consistent';
          return { id, text, status, ...(ruledOut && { reason: ruledOut.reason }) };
        }),
        noneSurvived: summary.survivors.length === 0,
        evidence: summary.evidence,
        variants: variants.length,
      },
    ];
  });
}

/** What each requirement was judged under: the accepted candidates of each of its subjects. */
export function readingsOf(
  requirementReadings: readonly string[] | undefined,
  tests: readonly TestRecord[],
): Array<{ subject: string; accepted: string[] }> {
  return (requirementReadings ?? []).flatMap((subject) => {
    const summary = tests.flatMap((test) => test.readings).find((candidate) => candidate.subject === subject);
    return summary ? [{ subject, accepted: summary.accepted }] : [];
  });
}

function distinct(summaries: readonly DetectionSummary[]): DetectionSummary[] {
  const byText = new Map(summaries.map((summary) => [JSON.stringify(summary), summary]));
  return [...byText.values()];
}
