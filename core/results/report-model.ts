// The conformance report as data: what the reporter collects from each test, and the summary the
// three renderings (HTML, results.json, JUnit) are made from. results.json is this summary as is.
// It lives in the core, not in reports/, because the configuration reads results files too
// (BASELINE): the core imports nothing from the reporters (tests/structure/ checks it).
import type { Level, RequirementKind } from '../../openapi/catalog.ts';
import type { RequestRecord } from './request-log.ts';
import type { Profile } from '../run/profile.ts';
import type { Expectation } from './expectations.ts';
import type { DetectionSummary } from '../learning/detection.ts';
import type { CreditedViolation } from '../run/verdict.ts';
import type { Coverage } from '../coverage/model.ts';
import type { AgesSeen } from '../checks/answer-age.ts';
import type { Note } from './annotations.ts';

/**
 * What a report says about the run beyond its tests (computed by reports/run-metadata.ts): the
 * suite's version and commit, the hashes of what it judged by, the configuration with secrets redacted.
 */
export interface RunMetadata {
  suite: { name: string; version: string; commit?: string; modified?: boolean };
  openapi: { file: string; sha256: string };
  catalog: { file: string; sha256: string };
  profile: Profile;
  seed: number;
  runs: number;
  target: string;
  allowWrites: boolean;
  /** COVERAGE_MIN, when set: a coverage dimension under it makes a CONFORMANT run INCONCLUSIVE. */
  coverageMin?: number;
  /** MAX_ANSWER_AGE, in seconds: how much older than its arrival an answer was allowed to be (core/checks/answer-age.ts). */
  maxAnswerAgeSeconds: number;
  configuration: Record<string, unknown>;
  /** The known failures the run was judged with (CONFORMANCE_EXPECTATIONS), each marked expired or not on the run's date. */
  expectations?: { file: string; entries: Array<Expectation & { expired: boolean }> };
}

/**
 * A passive run (recorded traffic: `npm run conformance -- har`, or the judging proxy) never claims
 * more than traffic can show: it finds violations, or none in so many exchanges; never CONFORMANT.
 */
export type PassiveVerdict = 'VIOLATIONS FOUND' | `NO VIOLATIONS IN ${number} EXCHANGES`;
export type Verdict = 'CONFORMANT' | 'NON-CONFORMANT' | 'INCONCLUSIVE' | PassiveVerdict;

/** What a passive run read, and what it could not judge. */
interface PassiveSummary {
  /** The HAR files, or the proxy's target. */
  sources: string[];
  entries: number;
  exchanges: number;
  byOperation: Record<string, number>;
  /** Entries left alone, by why (other host, other path, not an entry, …). */
  ignored: Record<string, number>;
  /** Exchanges whose response body was not recorded: judged on their status alone. */
  bodiesAbsent: number;
  /** Header (and query parameter) names whose values were redacted from every report. */
  redacted: string[];
  /** Requirements the traffic could not show, with why. */
  notJudged: Array<{ id: string; reason: string }>;
  /**
   * The walks of a listing's pages judged together (several pages of one list), and those not judged,
   * by why (one page only, pages too far apart, calls that moved between the asks). Absent from
   * reports of older versions.
   */
  walks?: { judged: number; notJudged: Record<string, number> };
  /**
   * Each requirement the traffic violated: how many violations, and the entries of the examples kept
   * (`session.har, entry 12`; at most ten examples a requirement). Absent from reports of older versions.
   */
  violatedIn?: Array<{ id: string; violations: number; entries: string[] }>;
}
/**
 * `intermittent`: violated in some attempts of a test and not in others (Playwright's retries, the
 * same seed); `expected-fail`: failed, and listed as a known failure (CONFORMANCE_EXPECTATIONS);
 * `blocked`: not judged, because what its tests stand on was not there: the target broke another
 * requirement (`blockedBy`), and that one is judged in its stead.
 */
export type RequirementStatus =
  'pass' | 'fail' | 'intermittent' | 'expected-fail' | 'warn' | 'skip' | 'not-testable' | 'error' | 'blocked' | 'uncovered';
export type TestStatus = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';

/** Whether a test (or an attempt of it) with this status failed: it failed, ran out of time, or was interrupted. */
export const failedStatus = (status: string): boolean => status === 'failed' || status === 'timedOut' || status === 'interrupted';

/** A requirement id and one line about it, from a `violation`, `warning`, `observation` or `blocked` note (annotations.ts). */
export type { Note };

/** One test as the reporter saw it end; secrets already redacted. */
export interface TestRecord {
  title: string;
  /** `suite/calls-get/not-found.spec.ts:12`, relative to the project. */
  location: string;
  requirements: string[];
  status: TestStatus;
  skipReason?: string;
  /** When it was skipped because the target broke another requirement: that one, and what was seen. */
  blocked?: Note;
  violations: Note[];
  warnings: Note[];
  observations: Note[];
  errors: string[];
  durationMs: number;
  requests: RequestRecord[];
  /** The suite's seed in the worker that ran the test, when it reported one. */
  seed?: number;
  /** What the suite learned of the target that this test's requirements were judged under. */
  readings: DetectionSummary[];
  /** The largest age per operation this test saw its answers have (its `answer-age` annotations); absent from passive records. */
  answerAges?: AgesSeen;
  /** Requirements this test does not hold that it found broken, described, with the trace id of the attempt that found each. */
  credited: Array<CreditedViolation & { traceId?: string }>;
  /** Every attempt, the last (this record) included: more than one when Playwright retried a failed test. */
  attempts: Attempt[];
}

/** One attempt of a test: how it ended, and which requirements it found violated. */
interface Attempt {
  status: TestStatus;
  violated: string[];
  /** The attempt's failure message, when it failed. */
  errors: string[];
  /** The trace id every request of the attempt carried (core/transport/trace-context.ts); absent with TRACE_HEADERS=false. */
  traceId?: string;
}

export interface RequirementResult {
  id: string;
  section: string;
  /** The level the run judged it at (its convention's under the strict profile). */
  level: Level;
  specLevel: Level;
  kind: RequirementKind;
  text: string;
  status: RequirementStatus;
  /** Why it was skipped, not testable, uncovered, blocked or in error. */
  reason?: string;
  /** For a blocked one: the requirements whose failure kept its tests from judging it. */
  blockedBy?: string[];
  /** For "not shown" items: the suite's stance, and what the target was seen to do. */
  stance?: string;
  observations: string[];
  warnings: string[];
  /** The tests that hold it, and any other test that found it violated. */
  tests: Array<{ title: string; location: string; status: TestStatus }>;
  /** The readings it was judged under: for each subject, the candidates the checks accepted. */
  readings: Array<{ subject: string; accepted: string[] }>;
  /** For a requirement found violated: in how many of the attempts that judged it. */
  attempts?: { violated: number; judged: number };
  /** When it is listed as a known failure (CONFORMANCE_EXPECTATIONS). */
  expected?: { reason: string; until?: string; expired: boolean };
}

/** What the run learned of its answers' age: the bound it judged under, and the largest age seen per operation. */
export interface AnswerAges {
  /** MAX_ANSWER_AGE: comparisons of two answers failed only on what no answer up to this many seconds older than its arrival explains. */
  boundSeconds: number;
  /** Per operation, the largest age (whole seconds) any test saw an answer have at least; empty when none was seen. */
  largest: AgesSeen;
}

/** One thing the suite learned of the target (a Readings entry of the report). */
export interface ReadingResult {
  subject: string;
  question: string;
  /** How the suite decides between the candidates. */
  judged: string;
  /** The requirements judged under it. */
  requirements: string[];
  candidates: Array<{
    id: string;
    text: string;
    /** accepted: the checks judge by it; consistent: it fits everything seen but another is judged by; ruled-out: something seen contradicts it. */
    status: 'accepted' | 'consistent' | 'ruled-out';
    /** For a ruled-out candidate, the first thing seen that it cannot explain. */
    reason?: string;
  }>;
  /** No candidate fits everything seen: the target fits none, or follows different ones on different calls. */
  noneSurvived: boolean;
  evidence: string;
  /** When the workers or shards learned different things (a target that changed meanwhile), each is listed. */
  variants: number;
}

export interface FailureRecord {
  test: string;
  location: string;
  status: TestStatus;
  requirements: string[];
  /** The failure as the suite wrote it: Expected/Received per violation and a curl line. */
  message: string;
  /** The command that re-runs just this test with the same seed. */
  rerun: string;
  /** True when the test met another requirement's violation on the way and credited it there (the test itself may have passed). */
  credited?: boolean;
  /** When Playwright retried the test: in how many attempts it failed. */
  attempts?: { failed: number; total: number };
  /**
   * The W3C trace id every request of the failed attempt carried in its `traceparent`: what a
   * server's logs find it by. Absent with TRACE_HEADERS=false, and from results files of older runs.
   */
  traceId?: string;
}

export interface OperationSummary {
  operation: string;
  requests: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p95: number; max: number };
}

/** An operation of the interface no request of the run went to. */
export interface UnexercisedOperation {
  /** The operation's id in the OpenAPI document: `markGroupConversationAsUnread`. */
  operation: string;
  /** Its summary there: `Mark Group Conversation As Unread`. */
  name: string;
  /** Why: `ALLOW_WRITES is not true`, a skip's reason, or that no test of it ran. */
  reason: string;
}

export interface WriteSummary {
  method: string;
  url: string;
  /** The final status; 0 when no answer could be judged. */
  status: number;
  /** Requests sent, retries included. */
  count: number;
}

export type StatusCounts = Record<RequirementStatus, number>;

export interface ConformanceReport {
  format: 'calls-conformance-results/1';
  verdict: Verdict;
  /** One sentence saying why the verdict is what it is. */
  verdictReason: string;
  /** The exit code `npm run conformance` ends with for this verdict. */
  exitCode: 0 | 1 | 3;
  specification: string;
  run: RunMetadata & {
    startedAt: string;
    endedAt: string;
    durationMs: number;
    /** Every seed the tests ran with; more than one means shards were run without a common seed. */
    seeds: number[];
    /** The addresses the requests went to. */
    targetAddresses: string[];
    runner: { status: string; errors: string[] };
  };
  summary: {
    requirements: StatusCounts;
    /** MUST requirements failed or intermittent: what makes the verdict NON-CONFORMANT. */
    mustFailed: string[];
    /** Of those, the ones that failed only in some attempts. */
    intermittent: string[];
    tests: Record<TestStatus, number>;
    requests: number;
  };
  sections: Array<{ id: string; title: string; counts: StatusCounts }>;
  requirements: RequirementResult[];
  /** What the suite learned of the target and judged it under, subject by subject. */
  readings: ReadingResult[];
  /** What the run learned of its answers' age: in every report since; absent from results files of older runs. */
  answerAges?: AnswerAges;
  /** The known failures the run was judged with, and what became of them. */
  expectations?: {
    file: string;
    /** Listed, and failed: not counted against the verdict. */
    expectedFailures: string[];
    /** Listed, and passed: the file no longer says what the target does. */
    unexpectedPasses: string[];
    /** Listed past their date: judged as if not listed. */
    expired: string[];
  };
  /** The same run compared with a baseline (BASELINE). */
  comparison?: Comparison;
  /** Present when the run judged recorded traffic rather than requests of its own. */
  passive?: PassiveSummary;
  operations: OperationSummary[];
  /** Every write the run sent to the target. */
  writes: WriteSummary[];
  /**
   * The operations of the interface the run sent no request to, and why: a verdict holds for what
   * was exercised, and the verdict's reason names these. Absent from results files of older runs.
   */
  unexercised?: UnexercisedOperation[];
  failures: FailureRecord[];
  /**
   * What the run tried of the interface, item by item (core/coverage/): covered on data that tells,
   * tried on data that cannot tell, or not covered and why. Absent from results files of older runs.
   */
  coverage?: Coverage;
  /** Tests that carry no catalogued requirement (they count toward the verdict when they fail). */
  untraced: string[];
  /** This run beside the earlier runs of its target in HISTORY_FILE, when one is named (core/history/). */
  history?: HistorySummary;
}

/** A mark the history gives a requirement in this run (core/history/history-marks.ts). */
export type HistoryMark = 'flaky' | 'flaky-for-sure' | 'new-failure' | 'fixed' | 'reading-changed';

/** What HISTORY_FILE says of this run beside the runs before it on the same target. */
export interface HistorySummary {
  file: string;
  /** Runs the file holds with this one (of every target). */
  runs: number;
  /** The file's lines skipped (and kept as they are), or why this run could not be added. */
  problems: string[];
  /** The last runs of this run's target (at most 30), oldest first, this run last. */
  shown: Array<{ at: string; suite: string; seed: number; verdict: string; ms: number }>;
  /** Each requirement a shown run judged: one letter a run (history-line.ts's OUTCOME_CODES, `.` not judged), and its marks. */
  grid: Array<{ id: string; outcomes: string; marks: HistoryMark[] }>;
  /** Failed now, passed since a failure in one of the five runs before (Allure's rule). */
  flaky: string[];
  /** Passed and failed in two runs of the same suite version and seed. */
  flakyForSure: string[];
  /** Failed now, passed in the last run before that judged it. */
  newFailures: string[];
  /** Passed now, failed in the last run before that judged it. */
  fixed: string[];
  /** Readings learned differently from the last run before that learned them, with the requirements judged under them. */
  readingsChanged: Array<{ subject: string; before: string[]; now: string[]; requirements: string[] }>;
}

/** What changed between two runs, requirement by requirement (reports/compare.ts). */
export interface Comparison {
  base: { file: string; verdict: Verdict; target: string; startedAt: string };
  next: { file: string; verdict: Verdict; target: string; startedAt: string };
  /** Failed (or intermittent) now, and not before: a regression. */
  newlyFailing: OutcomeChange[];
  /** Failed before, and passes now. */
  fixed: OutcomeChange[];
  /** Any other change of outcome (a pass now skipped, an error now passing, a failure now expected). */
  changed: OutcomeChange[];
  /** Readings the target was found to follow that differ. */
  readings: Array<{ subject: string; base: string[]; next: string[] }>;
  /** "Not shown" items the target answered differently. */
  notShown: Array<{ id: string; base: string[]; next: string[] }>;
  /**
   * Coverage items (core/coverage/) covered in the base run and not in the next, with their states
   * in words: what the next run no longer covered. Never a regression of the target. Absent when
   * either run has no coverage.
   */
  coverageLost?: Array<{ id: string; label: string; base: string; next: string }>;
}

export interface OutcomeChange {
  id: string;
  level: Level;
  base: RequirementStatus | 'absent';
  next: RequirementStatus | 'absent';
}
