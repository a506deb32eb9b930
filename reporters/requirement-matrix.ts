// The pure heart of the conformance report: from the catalog and the tests that ran, each
// requirement's outcome and the one verdict. Roll-ups take the worst outcome: a requirement fails
// when any test found it violated, whichever test that was; it is in error when a test that holds it
// did not finish; it warns on a SHOULD not met; it passes only when its tests ran and passed.
import { effectiveLevel, isTestable, type Catalog, type Requirement } from '../openapi/catalog.ts';
import type { Profile } from '../fixtures/config.ts';
import { RUN_STOPPED_PREFIX } from '../fixtures/transport/run-state.ts';
import type { RequirementResult, RequirementStatus, StatusCounts, TestRecord, TestStatus, Verdict } from './report-model.ts';
import { readingsOf } from './readings.ts';

export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = ['fail', 'error', 'warn', 'pass', 'skip', 'uncovered', 'not-testable'];
const TEST_STATUSES: readonly TestStatus[] = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'];

/** A test skipped because the run could send nothing more: not judged, unlike a test skipped by choice. */
const stoppedByRun = (test: TestRecord) => test.status === 'skipped' && (test.skipReason?.startsWith(RUN_STOPPED_PREFIX) ?? false);
const unfinished = (test: TestRecord) => test.status === 'failed' || test.status === 'timedOut' || test.status === 'interrupted' || stoppedByRun(test);
const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

export function requirementResults(catalog: Catalog, profile: Profile, tests: readonly TestRecord[]): RequirementResult[] {
  return catalog.requirements.map((requirement) => judgeRequirement(requirement, profile, tests));
}

function judgeRequirement(requirement: Requirement, profile: Profile, tests: readonly TestRecord[]): RequirementResult {
  const { id } = requirement;
  const holding = tests.filter((test) => test.requirements.includes(id));
  const violatedBy = tests.filter((test) => test.violations.some((note) => note.requirement === id));
  const notesOf = (kind: 'warnings' | 'observations') => unique(tests.flatMap((test) => test[kind].filter((note) => note.requirement === id).map((note) => note.text)));
  const warnings = notesOf('warnings');
  const involved = unique([...holding, ...violatedBy, ...tests.filter((test) => test.warnings.some((note) => note.requirement === id))]);

  const outcome = ((): { status: RequirementStatus; reason?: string } => {
    if (!isTestable(requirement)) return { status: 'not-testable', reason: requirement.reason ?? 'Not observable through this interface.' };
    if (violatedBy.length > 0) return { status: 'fail' };
    const broken = holding.find(unfinished);
    if (broken) return { status: 'error', reason: whyUnfinished(broken) };
    if (warnings.length > 0) return { status: 'warn' };
    if (holding.length === 0) return { status: 'uncovered', reason: 'No test in this run holds this requirement.' };
    if (holding.every((test) => test.status === 'skipped')) {
      return { status: 'skip', reason: unique(holding.map((test) => test.skipReason ?? 'Skipped without a reason.')).join(' ') };
    }
    return { status: 'pass' };
  })();

  return {
    id,
    section: requirement.section,
    level: effectiveLevel(requirement, profile),
    specLevel: requirement.level,
    kind: requirement.kind,
    text: profile === 'strict' && requirement.strict ? `${requirement.text} Strict profile: ${requirement.strict.text}` : requirement.text,
    ...outcome,
    ...(requirement.stance !== undefined && { stance: requirement.stance }),
    observations: notesOf('observations'),
    warnings,
    tests: involved.map((test) => ({ title: test.title, location: test.location, status: test.status })),
    readings: readingsOf(requirement.readings, tests),
  };
}

function whyUnfinished(test: TestRecord): string {
  const stoppedOn = unique(test.violations.map((note) => note.requirement));
  if (stoppedOn.length > 0) return `Not fully checked: "${test.title}" stopped on a violation of ${stoppedOn.join(', ')}.`;
  if (test.status === 'interrupted') return `Not fully checked: the run was interrupted during "${test.title}".`;
  if (stoppedByRun(test)) return `"${test.title}" did not run: ${test.skipReason!.slice(RUN_STOPPED_PREFIX.length)}`;
  const firstLine = test.errors[0]?.split('\n').find((line) => line.trim() !== '') ?? `the test ended ${test.status}`;
  return `The suite could not finish "${test.title}": ${firstLine.trim()}`;
}

export function countStatuses(results: readonly { status: RequirementStatus }[]): StatusCounts {
  const counts = Object.fromEntries(REQUIREMENT_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const result of results) counts[result.status] += 1;
  return counts;
}

export function countTests(tests: readonly TestRecord[]): Record<TestStatus, number> {
  const counts = Object.fromEntries(TEST_STATUSES.map((status) => [status, 0])) as Record<TestStatus, number>;
  for (const test of tests) counts[test.status] += 1;
  return counts;
}

export interface VerdictInput {
  requirements: readonly RequirementResult[];
  tests: readonly TestRecord[];
  /** The runner's overall status and the errors outside any test (global setup, worker crashes). */
  runnerStatus: string;
  runnerErrors: readonly string[];
}

/**
 * NON-CONFORMANT when a requirement judged at MUST failed; else INCONCLUSIVE when the suite or the
 * environment kept it from judging (an error, an interrupted run, nothing run); else CONFORMANT.
 */
export function decideVerdict(input: VerdictInput): { verdict: Verdict; reason: string } {
  const failed = input.requirements.filter((result) => result.status === 'fail' && result.level === 'MUST');
  if (failed.length > 0) return { verdict: 'NON-CONFORMANT', reason: `${failed.length} MUST requirement(s) failed: ${failed.map((result) => result.id).join(', ')}.` };
  if (input.runnerErrors.length > 0) return { verdict: 'INCONCLUSIVE', reason: `The run failed outside the tests: ${firstLine(input.runnerErrors[0]!)}` };
  if (input.runnerStatus === 'interrupted' || input.runnerStatus === 'timedout') return { verdict: 'INCONCLUSIVE', reason: `The run was ${input.runnerStatus === 'timedout' ? 'stopped by its global timeout' : 'interrupted'} before it ended.` };
  const errored = input.requirements.filter((result) => result.status === 'error');
  if (errored.length > 0) return { verdict: 'INCONCLUSIVE', reason: `${errored.length} requirement(s) could not be judged; first: ${errored[0]!.id}: ${errored[0]!.reason}` };
  const brokenUntraced = input.tests.filter((test) => unfinished(test) && test.requirements.length === 0);
  if (brokenUntraced.length > 0) return { verdict: 'INCONCLUSIVE', reason: `A test without a requirement did not finish: ${brokenUntraced[0]!.title}` };
  const ran = input.tests.filter((test) => test.status !== 'skipped');
  if (ran.length === 0) return { verdict: 'INCONCLUSIVE', reason: input.tests.length === 0 ? 'No test ran.' : 'Every test was skipped.' };
  const judged = input.requirements.filter((result) => result.status === 'pass' || result.status === 'warn').length;
  const open = input.requirements.filter((result) => result.status === 'skip' || result.status === 'uncovered').length;
  return { verdict: 'CONFORMANT', reason: `No MUST requirement failed; ${judged} requirement(s) judged${open > 0 ? `, ${open} not checked in this run (skipped or uncovered)` : ''}.` };
}

export const exitCodeOf = (verdict: Verdict): 0 | 1 | 3 => (verdict === 'CONFORMANT' ? 0 : verdict === 'NON-CONFORMANT' ? 1 : 3);

const firstLine = (text: string) => text.split('\n').find((line) => line.trim() !== '')?.trim() ?? text;
