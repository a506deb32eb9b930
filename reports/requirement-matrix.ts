// The pure heart of the conformance report: from the catalog and the tests that ran, each
// requirement's outcome and the one verdict. Roll-ups take the worst outcome: a requirement fails
// when any test found it violated, whichever test that was, in every attempt (Playwright retries a
// failed test with the same seed); it is intermittent when a test found it violated in some attempts
// only; a listed known failure (CONFORMANCE_EXPECTATIONS) that fails is an expected failure; it is
// in error when a test that holds it did not finish; it is blocked, not judged, when a test that
// holds it was skipped because the target broke another requirement it stands on (core/results/blocked.ts);
// it warns on a SHOULD not met; it passes only when its tests ran and passed.
import { effectiveLevel, isTestable, type Catalog, type Requirement } from '../openapi/catalog.ts';
import type { Profile } from '../core/run/profile.ts';
import { RUN_STOPPED_PREFIX } from '../core/transport/run-state.ts';
import type {
  RequirementResult,
  RequirementStatus,
  RunMetadata,
  StatusCounts,
  TestRecord,
  TestStatus,
  Verdict,
} from '../core/results/report-model.ts';
import { failedStatus } from '../core/results/report-model.ts';
import { readingsOf } from './readings.ts';

export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = [
  'fail',
  'intermittent',
  'error',
  'blocked',
  'expected-fail',
  'warn',
  'pass',
  'skip',
  'uncovered',
  'not-testable',
];
/** What makes a MUST requirement count against the verdict. */
export const FAILING: ReadonlySet<RequirementStatus> = new Set(['fail', 'intermittent']);
const TEST_STATUSES: readonly TestStatus[] = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'];

/** A test skipped because the run could send nothing more: not judged, unlike a test skipped by choice. */
const stoppedByRun = (test: TestRecord) => test.status === 'skipped' && (test.skipReason?.startsWith(RUN_STOPPED_PREFIX) ?? false);
const unfinished = (test: TestRecord) => failedStatus(test.status) || stoppedByRun(test);
const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

export function requirementResults(
  catalog: Catalog,
  profile: Profile,
  tests: readonly TestRecord[],
  expectations?: RunMetadata['expectations'],
): RequirementResult[] {
  const results = catalog.requirements.map((requirement) => withExpectation(judgeRequirement(requirement, profile, tests), expectations));
  return results.map((result) => withBlockers(result, results));
}

/** A blocked requirement's reason says whether what blocks it failed: one that did not leaves it unexplained. */
function withBlockers(result: RequirementResult, results: readonly RequirementResult[]): RequirementResult {
  if (result.status !== 'blocked') return result;
  const described = result.blockedBy!.map((id) => {
    const status = results.find((candidate) => candidate.id === id)?.status;
    const failed = status !== undefined && (FAILING.has(status) || status === 'expected-fail');
    return `${id} (${failed ? status : `${status ?? 'not in the catalog'}: it did not fail in this run`})`;
  });
  return { ...result, reason: `Not judged: blocked by ${described.join(', ')}: ${result.reason}` };
}

/** The attempts of a test that ran (a retry the run could not send counts for nothing). */
const ran = (test: TestRecord) => test.attempts.filter((attempt) => attempt.status !== 'skipped');

function judgeRequirement(requirement: Requirement, profile: Profile, tests: readonly TestRecord[]): RequirementResult {
  const { id } = requirement;
  const holding = tests.filter((test) => test.requirements.includes(id));
  const violatedBy = tests.filter((test) => test.attempts.some((attempt) => attempt.violated.includes(id)));
  // A test that found it violated in every attempt shows a deterministic failure; in some only, an intermittent one.
  const deterministic = violatedBy.some((test) => ran(test).every((attempt) => attempt.violated.includes(id)));
  const attempts =
    violatedBy.length === 0
      ? undefined
      : {
          violated: violatedBy.reduce((sum, test) => sum + ran(test).filter((attempt) => attempt.violated.includes(id)).length, 0),
          judged: violatedBy.reduce((sum, test) => sum + ran(test).length, 0),
        };
  const notesOf = (kind: 'warnings' | 'observations') =>
    unique(tests.flatMap((test) => test[kind].filter((note) => note.requirement === id).map((note) => note.text)));
  const warnings = notesOf('warnings');
  const involved = unique([...holding, ...violatedBy, ...tests.filter((test) => test.warnings.some((note) => note.requirement === id))]);

  const outcome = ((): { status: RequirementStatus; reason?: string; blockedBy?: string[] } => {
    if (!isTestable(requirement)) return { status: 'not-testable', reason: requirement.reason ?? 'Not observable through this interface.' };
    if (deterministic) return { status: 'fail' };
    if (violatedBy.length > 0)
      return {
        status: 'intermittent',
        reason: `Violated in ${attempts!.violated} of ${attempts!.judged} attempts: the same test, with the same seed, found it broken only sometimes.`,
      };
    const broken = holding.find(unfinished);
    if (broken) return { status: 'error', reason: whyUnfinished(broken) };
    const blocked = holding.filter((test) => test.status === 'skipped' && test.blocked !== undefined);
    if (blocked.length > 0)
      return {
        status: 'blocked',
        blockedBy: unique(blocked.map((test) => test.blocked!.requirement)),
        reason: unique(blocked.map((test) => test.blocked!.text)).join(' '),
      };
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
    ...(attempts && { attempts }),
  };
}

/** A listed known failure that fails is expected; past its date the entry counts for nothing but is still shown. */
function withExpectation(result: RequirementResult, expectations: RunMetadata['expectations']): RequirementResult {
  const entry = expectations?.entries.find((candidate) => candidate.requirement === result.id);
  if (!entry) return result;
  const expected = { reason: entry.reason, ...(entry.until !== undefined && { until: entry.until }), expired: entry.expired };
  if (entry.expired || !FAILING.has(result.status)) return { ...result, expected };
  return {
    ...result,
    status: 'expected-fail',
    reason: `Expected to fail (${expectations!.file}): ${entry.reason}${entry.until ? ` (until ${entry.until})` : ''}.${result.reason ? ` ${result.reason}` : ''}`,
    expected,
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
 * environment kept it from judging (an error, an interrupted run, nothing run), or a requirement was
 * blocked by one that did not fail at MUST; else CONFORMANT.
 */
export function decideVerdict(input: VerdictInput): { verdict: Verdict; reason: string } {
  // Blocked requirements were not judged because the target broke what they stand on: beside a
  // failed MUST they say how much it hid; without one, the run could not judge them, as for an error.
  const blocked = input.requirements.filter((result) => result.status === 'blocked');
  // An intermittent MUST failure is a failure: the target answered wrongly, if not every time.
  const failed = input.requirements.filter((result) => FAILING.has(result.status) && result.level === 'MUST');
  if (failed.length > 0) {
    const described = failed.map((result) =>
      result.status === 'intermittent'
        ? `${result.id} (intermittent, ${result.attempts!.violated} of ${result.attempts!.judged} attempts)`
        : result.id,
    );
    return {
      verdict: 'NON-CONFORMANT',
      reason: `${failed.length} MUST requirement(s) failed: ${described.join(', ')}.${blockedSentence(blocked)}`,
    };
  }
  if (input.runnerErrors.length > 0)
    return { verdict: 'INCONCLUSIVE', reason: `The run failed outside the tests: ${firstLine(input.runnerErrors[0]!)}` };
  if (input.runnerStatus === 'interrupted' || input.runnerStatus === 'timedout')
    return {
      verdict: 'INCONCLUSIVE',
      reason: `The run was ${input.runnerStatus === 'timedout' ? 'stopped by its global timeout' : 'interrupted'} before it ended.`,
    };
  const errored = input.requirements.filter((result) => result.status === 'error');
  if (errored.length > 0)
    return {
      verdict: 'INCONCLUSIVE',
      reason: `${errored.length} requirement(s) could not be judged; first: ${errored[0]!.id}: ${errored[0]!.reason}`,
    };
  if (blocked.length > 0)
    return {
      verdict: 'INCONCLUSIVE',
      reason: `No MUST requirement failed, but ${blocked.length} requirement(s) could not be judged; first: ${blocked[0]!.id}: ${blocked[0]!.reason}`,
    };
  const brokenUntraced = input.tests.filter((test) => unfinished(test) && test.requirements.length === 0);
  if (brokenUntraced.length > 0)
    return { verdict: 'INCONCLUSIVE', reason: `A test without a requirement did not finish: ${brokenUntraced[0]!.title}` };
  const ran = input.tests.filter((test) => test.status !== 'skipped');
  if (ran.length === 0) return { verdict: 'INCONCLUSIVE', reason: input.tests.length === 0 ? 'No test ran.' : 'Every test was skipped.' };
  const judged = input.requirements.filter((result) => result.status === 'pass' || result.status === 'warn').length;
  const open = input.requirements.filter((result) => result.status === 'skip' || result.status === 'uncovered').length;
  const expected = input.requirements.filter((result) => result.status === 'expected-fail').map((result) => result.id);
  const known = expected.length > 0 ? ` beyond the ${expected.length} expected failure(s) listed (${expected.join(', ')})` : '';
  return {
    verdict: 'CONFORMANT',
    reason: `No MUST requirement failed${known}; ${judged} requirement(s) judged${open > 0 ? `, ${open} not checked in this run (skipped or uncovered)` : ''}.`,
  };
}

/** " N requirement(s) not judged, blocked by X, Y." or nothing. */
function blockedSentence(blocked: readonly RequirementResult[]): string {
  if (blocked.length === 0) return '';
  return ` ${blocked.length} requirement(s) not judged, blocked by ${unique(blocked.flatMap((result) => result.blockedBy ?? [])).join(', ')}.`;
}

export const exitCodeOf = (verdict: Verdict): 0 | 1 | 3 =>
  verdict === 'CONFORMANT' || verdict.startsWith('NO VIOLATIONS')
    ? 0
    : verdict === 'NON-CONFORMANT' || verdict === 'VIOLATIONS FOUND'
      ? 1
      : 3;

const firstLine = (text: string) =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? text;
