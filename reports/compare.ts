// Two runs side by side, requirement by requirement: what newly fails (a regression), what was
// fixed, what else changed outcome, and what the target answered differently where the
// specification leaves it open (the readings it follows, the "not shown" items). The same for a
// target before and after a release, or two targets (staging against production, a vendor against
// the reference). `npm run conformance -- compare BASE NEW` prints it; BASELINE adds it to a run.
// Beside them, the coverage the next run lost: items the base covered that it did not. That is the
// run's doing (a narrower run, data that no longer tells), not the target's, so it is told and never
// changes compare's exit code.
import type { Coverage } from '../core/coverage/model.ts';
import type { Comparison, ConformanceReport, OutcomeChange, RequirementStatus } from '../core/results/report-model.ts';
import { STATE_WORDS, stateOf } from './coverage-summary.ts';
import { FAILING } from './requirement-matrix.ts';
import { describeObservationChange } from './compare-text.ts';

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
    ...(base.coverage && next.coverage && { coverageLost: coverageLost(base.coverage, next.coverage) }),
  };
}

/**
 * Items covered in the base and tried on data that cannot tell, or not covered, in the next. An
 * item the next run's model does not plan is left out: a newer suite renamed or dropped it, and
 * neither run lost anything by that.
 */
function coverageLost(base: Coverage, next: Coverage): NonNullable<Comparison['coverageLost']> {
  const items = (coverage: Coverage) => (Array.isArray(coverage.items) ? coverage.items : []);
  const after = new Map(items(next).map((item) => [item.id, item]));
  return items(base).flatMap((before) => {
    const now = after.get(before.id);
    if (stateOf(before.state) !== 'covered' || now === undefined || stateOf(now.state) === 'covered') return [];
    return [{ id: before.id, label: now.label, base: STATE_WORDS.covered, next: STATE_WORDS[stateOf(now.state)] }];
  });
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
    ...comparison.notShown.flatMap((item) => {
      const [first, ...more] = describeObservationChange(item.base, item.next);
      return [`  ${item.id}: ${first}`, ...more.map((line) => `    ${line}`)];
    }),
  ];
  return [
    `Base: ${comparison.base.file} (${comparison.base.verdict}, ${comparison.base.target}, ${comparison.base.startedAt})`,
    `New:  ${comparison.next.file} (${comparison.next.verdict}, ${comparison.next.target}, ${comparison.next.startedAt})`,
    section('Newly failing', comparison.newlyFailing),
    section('Fixed', comparison.fixed),
    section('Changed otherwise', comparison.changed),
    [`Answered differently where the specification leaves it open (${differences.length})`, ...differences].join('\n'),
    ...(comparison.coverageLost
      ? [
          [
            `Coverage lost: covered in the base run, not in the new one (${comparison.coverageLost.length})`,
            ...comparison.coverageLost.map((item) => `  ${item.id} (${item.label}): ${item.base} → ${item.next}`),
          ].join('\n'),
        ]
      : []),
  ].join('\n');
}
