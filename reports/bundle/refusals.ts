// When a run cannot be certified: a MUST failed, the verdict is not CONFORMANT, or a required group
// was not checked. Every testable MUST requirement is required; those that were skipped, uncovered,
// blocked or in error are named by their section of the specification (the group a reader knows them by),
// with the reason the run gave, so a vendor knows what to configure or which data to provide.
import type { ConformanceReport } from '../../core/results/report-model.ts';

/** The one line that refuses a passive run, wherever one is offered for certification. */
export const PASSIVE_REFUSAL =
  'A passive run (recorded traffic judged) cannot be certified: traffic shows only what its clients happened to send, never every requirement; certification runs the whole suite against the target (the certify command).';

export function refusalsOf(report: ConformanceReport): string[] {
  if (report.passive) return [PASSIVE_REFUSAL];
  const reasons: string[] = [];
  if (report.verdict !== 'CONFORMANT') reasons.push(`The verdict is ${report.verdict}: ${report.verdictReason}`);
  const unchecked = report.requirements.filter(
    (result) => result.level === 'MUST' && ['skip', 'uncovered', 'error', 'blocked'].includes(result.status),
  );
  for (const section of report.sections) {
    const group = unchecked.filter((result) => result.section === section.id);
    if (group.length === 0) continue;
    const why = [...new Set(group.map((result) => result.reason ?? result.status))].join(' ');
    reasons.push(
      `Required group §${section.id} ${section.title} was not fully checked: ${group.map((result) => `${result.id} (${result.status})`).join(', ')}. ${why}`,
    );
  }
  if (!report.run.allowWrites)
    reasons.push(
      'Writes were not allowed: certification runs mark-unread with ALLOW_WRITES=true and the fixtures GROUP_GUID, MESSAGE_ID and ACTING_UID.',
    );
  if (report.run.seeds.length > 1)
    reasons.push(`The tests ran with different seeds (${report.run.seeds.join(', ')}); a certified run uses one seed.`);
  return reasons;
}
