// Two runs side by side, requirement by requirement: what newly fails (a regression), what was
// fixed, what else changed outcome, and what the target answered differently where the
// specification leaves it open (the readings it follows, the "not shown" items). The same for a
// target before and after a release, or two targets (staging against production, a vendor against
// the reference). `npm run conformance -- compare BASE NEW` prints it; BASELINE adds it to a run.
import type { Comparison, ConformanceReport, OutcomeChange, RequirementStatus } from '../core/results/report-model.ts';
import { FAILING } from './requirement-matrix.ts';

const failing = (status: RequirementStatus | 'absent') => status !== 'absent' && FAILING.has(status);
const passing = (status: RequirementStatus | 'absent') => status === 'pass' || status === 'warn';
const same = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export function compareRuns(base: ConformanceReport, next: ConformanceReport, files: { base: string; next: string }): Comparison {
  const ids = [...new Set([...base.requirements, ...next.requirements].map((result) => result.id))];
  const changes: OutcomeChange[] = ids.flatMap((id) => {
    const before = base.requirements.find((result) => result.id === id);
    const after = next.requirements.find((result) => result.id === id);
    const change: OutcomeChange = {
      id,
      level: (after ?? before)!.level,
      base: before?.status ?? 'absent',
      next: after?.status ?? 'absent',
    };
    return change.base === change.next ? [] : [change];
  });
  const newlyFailing = changes.filter((change) => failing(change.next) && !failing(change.base));
  const fixed = changes.filter((change) => (failing(change.base) || change.base === 'expected-fail') && passing(change.next));
  const subjects = [...new Set([...base.readings, ...next.readings].map((reading) => reading.subject))];
  const accepted = (report: ConformanceReport, subject: string) =>
    report.readings
      .find((reading) => reading.subject === subject)
      ?.candidates.filter((candidate) => candidate.status === 'accepted')
      .map((candidate) => candidate.id) ?? [];
  const notShown = next.requirements.filter((result) => result.kind === 'not-shown').map((result) => result.id);
  const observed = (report: ConformanceReport, id: string) => report.requirements.find((result) => result.id === id)?.observations ?? [];
  const describe = (report: ConformanceReport, file: string) => ({
    file,
    verdict: report.verdict,
    target: report.run.target,
    startedAt: report.run.startedAt,
  });
  return {
    base: describe(base, files.base),
    next: describe(next, files.next),
    newlyFailing,
    fixed,
    changed: changes.filter((change) => !newlyFailing.includes(change) && !fixed.includes(change)),
    readings: subjects
      .map((subject) => ({ subject, base: accepted(base, subject), next: accepted(next, subject) }))
      .filter((reading) => !same(reading.base, reading.next)),
    notShown: notShown
      .map((id) => ({ id, base: observed(base, id), next: observed(next, id) }))
      .filter((item) => !same(item.base, item.next)),
  };
}

/** The comparison as the terminal shows it: a line per change, newly failing first. */
export function describeComparison(comparison: Comparison): string {
  const section = (title: string, list: readonly OutcomeChange[]) =>
    [`${title} (${list.length})`, ...list.map((change) => `  ${change.id} [${change.level}]: ${change.base} → ${change.next}`)].join('\n');
  const differences = [
    ...comparison.readings.map(
      (reading) =>
        `  reading ${reading.subject}: ${reading.base.join(' or ') || 'not learned'} → ${reading.next.join(' or ') || 'not learned'}`,
    ),
    ...comparison.notShown.map(
      (item) => `  ${item.id}: ${item.base.join('; ') || 'nothing observed'} → ${item.next.join('; ') || 'nothing observed'}`,
    ),
  ];
  return [
    `Base: ${comparison.base.file} (${comparison.base.verdict}, ${comparison.base.target}, ${comparison.base.startedAt})`,
    `New:  ${comparison.next.file} (${comparison.next.verdict}, ${comparison.next.target}, ${comparison.next.startedAt})`,
    section('Newly failing', comparison.newlyFailing),
    section('Fixed', comparison.fixed),
    section('Changed otherwise', comparison.changed),
    [`Answered differently where the specification leaves it open (${differences.length})`, ...differences].join('\n'),
  ].join('\n');
}
