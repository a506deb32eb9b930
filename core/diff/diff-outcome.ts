// What a diff run found, judged: the paths beyond noise, each classed against the words
// (classing.ts), the operations that could not be judged, what each ignore rule silenced, the
// readings that changed between the sides, and the exit code (0 nothing beyond noise, 1 differences,
// 3 inconclusive). Pure: the reports render it, results.json holds it.
import { loadContract, type Contract } from '../../openapi/contract.ts';
import { effectiveLevel, loadCatalog, type Catalog } from '../../openapi/catalog.ts';
import type { DiffConfig } from '../run/config.ts';
import type { Profile } from '../run/profile.ts';
import { targetClock } from '../checks/settling.ts';
import { indexSchemaRequirements, type SchemaRequirementIndex } from '../checks/schema-requirements.ts';
import type { Violation } from '../checks/violation.ts';
import { openReadingOf } from './open-readings.ts';
import { classDifference, violationsOf, type Classed, type SideJudging } from './classing.ts';
import { beyondNoise, inconclusiveOperations, tallyComparisons, type DiffTally, type MovementRules, type PathTally } from './diff-tally.ts';
import type { DiffOperation, DiffSettings, IgnoreRule } from './diff-settings.ts';
import type { DiffAsked, LearnedSide } from './run-diff.ts';
import { crossRequestViolations, type CrossFound } from './cross-requests.ts';
import { markUnreadDue } from './mark-unread-due.ts';
import { learnedFor, learnedViolations, type LearnedViolations } from './learned-violations.ts';
import type { Comparison } from './diff-tally.ts';

export interface DiffFinding extends Classed {
  operation: DiffOperation;
  path: string;
  kind: PathTally['kind'];
  comparisons: number;
  candidate: number;
  aa: number;
  samples: PathTally['samples'];
}

const DIFF_EXIT = { same: 0, differences: 1, inconclusive: 3 } as const;

export interface DiffOutcome {
  exitCode: (typeof DIFF_EXIT)[keyof typeof DIFF_EXIT];
  findings: DiffFinding[];
  /** Paths where the candidate differed, but no more than the primary differs from itself. */
  withinNoise: Array<Pick<PathTally, 'operation' | 'path' | 'kind' | 'candidate' | 'aa'>>;
  inconclusive: Array<{ operation: DiffOperation; reason: string }>;
  /** The operations not asked at all, each with why: mark-unread, in a read-only diff. */
  notCompared: DiffAsked['notCompared'];
  operations: DiffTally['operations'];
  ignored: Array<IgnoreRule & { suppressed: number }>;
  readingsChanged: string[];
  orderedLists: boolean;
  requests: number;
}

/** Each reading learned of the two sides that differs, in a line: `subject: primary's → candidate's`. */
function readingsChanged(primary: LearnedSide, candidate: LearnedSide): string[] {
  const changed: string[] = [];
  const accepted = new Map(candidate.learned.detections.map((detection) => [detection.subject, detection.accepted.join(', ')]));
  for (const detection of primary.learned.detections) {
    const theirs = accepted.get(detection.subject);
    if (theirs !== undefined && theirs !== detection.accepted.join(', '))
      changed.push(`${detection.subject}: ${detection.accepted.join(', ') || 'none'} → ${theirs || 'none'}`);
  }
  const [ours, theirs] = [primary.learned.paging, candidate.learned.paging];
  if (ours.perPage && theirs.perPage && ours.sizeName !== theirs.sizeName)
    changed.push(`page-size-parameter: ${ours.sizeName} → ${theirs.sizeName}`);
  if (primary.order !== candidate.order) changed.push(`list-order: ${primary.order ?? 'untold'} → ${candidate.order ?? 'untold'}`);
  return changed;
}

/** Both conform and the words are silent, unless a reading the words leave open explains every sample (open-readings.ts). */
function withOpenReading(classed: Classed, samples: PathTally['samples']): Classed {
  if (classed.verdict !== 'behaviour-change') return classed;
  const open = openReadingOf(samples);
  return open === undefined ? classed : { verdict: 'reading-changed', because: [open] };
}

export interface DiffJudging {
  contract: Contract;
  schemaRequirements: SchemaRequirementIndex;
  settings: DiffSettings;
  /** With MAX_ANSWER_AGE: how much older than its arrival an answer may be (core/checks/answer-age.ts). */
  movement: MovementRules & { answerAgeSeconds: number };
  /**
   * The requirements a side can break: those judged at MUST or SHOULD under the run's profile. One the
   * profile only observes (INFO, MAY: an error's body shape under the spec profile) is a way of
   * answering, not a requirement, so a difference in it is a reading or a behaviour, never a regression.
   */
  breakable: ReadonlySet<string>;
}

/** The requirements a side can break under `profile` (DiffJudging's `breakable`). */
function breakableRequirements(catalog: Catalog, profile: Profile): ReadonlySet<string> {
  const judged = catalog.requirements.filter((requirement) => ['MUST', 'SHOULD'].includes(effectiveLevel(requirement, profile)));
  return new Set(judged.map(({ id }) => id));
}

/** What a diff run under `config` judges by: the contract and catalog, the profile's requirements, its settings and movement rules. */
export function diffJudging(config: DiffConfig): DiffJudging {
  const [contract, catalog] = [loadContract(), loadCatalog()];
  return {
    contract,
    schemaRequirements: indexSchemaRequirements(catalog, contract.document),
    breakable: breakableRequirements(catalog, config.primary.profile),
    settings: config.diff,
    movement: { settleSeconds: config.primary.settleSeconds, answerAgeSeconds: config.primary.maxAnswerAgeSeconds },
  };
}

interface ClassingInputs {
  tally: DiffTally;
  /** What several answers of one side show together (cross-requests.ts). */
  cross: CrossFound;
  sides: Record<'primary' | 'candidate', SideJudging>;
  learned: Record<'primary' | 'candidate', LearnedViolations>;
  changed: readonly string[];
}

/** Each path beyond noise classed against the words on its sample pairs; the others listed as within noise. */
function classedFindings(judging: DiffJudging, inputs: ClassingInputs) {
  const { settings } = judging;
  const { tally, sides, learned, changed, cross } = inputs;
  const comparisonsOf = new Map(tally.operations.map((operation) => [operation.operation, operation.comparisons]));
  const findings: DiffFinding[] = [];
  const withinNoise: DiffOutcome['withinNoise'] = [];
  const broken = (violations: readonly Violation[]) => violations.filter(({ requirement }) => judging.breakable.has(requirement));
  const judged = (comparison: Comparison, which: 'primary' | 'candidate') => {
    const other = which === 'primary' ? comparison.candidate : comparison.primary;
    return broken([
      ...violationsOf(comparison.request, comparison[which], other, sides[which]),
      ...markUnreadDue(comparison.request, comparison[which]),
      ...(cross[which].get(comparison) ?? []),
      // A filter asked whose every reading the side's own learning ruled out (learned-violations.ts).
      ...learnedFor(learned[which], comparison.request),
    ]);
  };
  for (const path of tally.paths.filter(({ candidate }) => candidate > 0)) {
    const comparisons = comparisonsOf.get(path.operation) ?? 0;
    if (!beyondNoise(path, comparisons, settings)) {
      withinNoise.push({ operation: path.operation, path: path.path, kind: path.kind, candidate: path.candidate, aa: path.aa });
      continue;
    }
    // Every comparison that differed here, not only the few shown: a requirement one of them shows broken is the path's.
    const { differing, ...shown } = path;
    const pairs = differing.map((comparison) => ({ primary: judged(comparison, 'primary'), candidate: judged(comparison, 'candidate') }));
    findings.push({ ...shown, comparisons, ...withOpenReading(classDifference(pairs, changed), path.samples) });
  }
  return { findings, withinNoise };
}

/** The requirements findings already name as broken by one side (a regression or a fix). */
const namedRequirements = (findings: readonly DiffFinding[]) =>
  new Set(findings.flatMap((finding) => (finding.verdict === 'regression' || finding.verdict === 'fix' ? finding.because : [])));

/** Each side that may break a requirement the other meets, with the other and the verdict it makes. */
const SIDES_BROKEN = [
  ['candidate', 'primary', 'regression'],
  ['primary', 'candidate', 'fix'],
] as const;

/**
 * A requirement one side's answers show broken together (cross-requests.ts: its pages of one listing,
 * Get Call against its own list, the same Get Call twice) and the other side's not, where no
 * difference already names it. Each pair of answers may differ by movement alone (a side behind a
 * replica slides its pages by the calls that arrived meanwhile) while that side's own pages, naming
 * one total, overlap. Filed under the operation's calls: a list's `data[]`, Get Call's `data`.
 */
function crossFindings(cross: CrossFound, findings: readonly DiffFinding[], breakable: ReadonlySet<string>): DiffFinding[] {
  const named = namedRequirements(findings);
  const brokenBy = (which: keyof CrossFound) => {
    const byRequirement = new Map<string, Comparison[]>();
    for (const [comparison, violations] of cross[which])
      for (const { requirement } of violations) byRequirement.set(requirement, [...(byRequirement.get(requirement) ?? []), comparison]);
    return byRequirement;
  };
  const found: DiffFinding[] = [];
  for (const [which, other, verdict] of SIDES_BROKEN) {
    const [ours, theirs] = [brokenBy(which), brokenBy(other)];
    for (const [requirement, comparisons] of ours) {
      if (theirs.has(requirement) || named.has(requirement) || !breakable.has(requirement)) continue;
      const { operation } = comparisons[0]!.request;
      const [path, kind] = operation === 'listCalls' ? (['data[]', 'membership'] as const) : (['data', 'value'] as const);
      const count = comparisons.length;
      found.push({
        operation,
        path,
        kind,
        comparisons: count,
        candidate: which === 'candidate' ? count : 0,
        aa: 0,
        samples: [],
        verdict,
        because: [requirement],
      });
    }
  }
  return found;
}

/**
 * A filter's requirement one side's learning shows broken (no reading fits) and the other's not, where
 * no difference of the plan already names it: the probes showed what the plan's drawn values did not.
 * Filed under List Calls' `data[]`, the calls the probes listed or left out.
 */
function learnedFindings(
  learned: Record<'primary' | 'candidate', LearnedViolations>,
  findings: readonly DiffFinding[],
  breakable: ReadonlySet<string>,
): DiffFinding[] {
  const named = namedRequirements(findings);
  const found: DiffFinding[] = [];
  for (const [which, other, verdict] of SIDES_BROKEN) {
    for (const [name, violations] of learned[which].byFilter) {
      const requirement = violations[0]!.requirement;
      if (learned[other].byFilter.has(name) || named.has(requirement) || !breakable.has(requirement)) continue;
      const probes = learned[which].probes.get(name)!;
      found.push({
        operation: 'listCalls',
        path: 'data[]',
        kind: 'membership',
        comparisons: probes.sent,
        candidate: which === 'candidate' ? probes.ruling : 0,
        aa: 0,
        samples: [],
        verdict,
        because: [requirement],
      });
    }
  }
  return found;
}

export function judgeDiff(asked: DiffAsked, judging: DiffJudging): DiffOutcome {
  const { settings } = judging;
  const changed = readingsChanged(asked.primary, asked.candidate);
  // A sequence only where both sides were seen to keep one order; else lists are sets of calls.
  const { order } = asked.primary;
  const kept = order !== undefined && order !== 'unordered' && order === asked.candidate.order ? order : undefined;
  // The clock learning saw on both sides: a lower bound of the target's now at every comparison.
  const clock = targetClock([...asked.primary.learned.exchanges, ...asked.candidate.learned.exchanges]);
  const tally = tallyComparisons(asked.comparisons, settings, kept, { ...judging.movement, clock });
  const side = (learned: LearnedSide): SideJudging => ({
    ...judging,
    readings: learned.learned.readings,
    settleSeconds: judging.movement.settleSeconds,
  });
  const sides = { primary: side(asked.primary), candidate: side(asked.candidate) };
  const learned = { primary: learnedViolations(asked.primary), candidate: learnedViolations(asked.candidate) };
  const cross = crossRequestViolations(asked.comparisons, asked, judging.movement);
  const { findings, withinNoise } = classedFindings(judging, { tally, cross, sides, learned, changed });
  findings.push(...learnedFindings(learned, findings, judging.breakable));
  findings.push(...crossFindings(cross, findings, judging.breakable));
  const inconclusive = inconclusiveOperations(tally, settings);
  // A reading learned otherwise is a difference even where no planned answer showed it: clients may still break on it.
  const exitCode =
    findings.length > 0 || changed.length > 0 ? DIFF_EXIT.differences : inconclusive.length > 0 ? DIFF_EXIT.inconclusive : DIFF_EXIT.same;
  return {
    exitCode,
    findings,
    withinNoise,
    inconclusive,
    notCompared: asked.notCompared,
    operations: tally.operations,
    ignored: tally.ignored,
    readingsChanged: changed,
    orderedLists: kept !== undefined,
    requests: asked.comparisons.length * 3,
  };
}
