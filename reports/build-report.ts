// The whole conformance report from what the reporter collected: the requirement matrix, the
// verdict, the sections, the per-operation request summary and the failures. Pure, so the same
// tests give the same report whether they ran in one process or in merged shards.
import type { Catalog } from '../openapi/catalog.ts';
import type { OperationName } from '../openapi/contract.ts';
import type { RequestRecord } from '../core/results/request-log.ts';
import type {
  ConformanceReport,
  FailureRecord,
  OperationSummary,
  RequirementResult,
  RunMetadata,
  TestRecord,
  Verdict,
  WriteSummary,
} from '../core/results/report-model.ts';
import { failedStatus } from '../core/results/report-model.ts';
import { countStatuses, countTests, decideVerdict, exitCodeOf, FAILING, requirementResults } from './requirement-matrix.ts';
import { readingResults } from './readings.ts';
import { answerAgesOf } from './answer-ages.ts';
import { rerunCommand, type Launcher } from '../core/results/replay-command.ts';
import { unexercisedOperations, unexercisedSentence } from './unexercised.ts';
import { belowFloor, coverageOf, type Coverage } from '../core/coverage/model.ts';
import { emptyTally, tallyObservation } from '../core/coverage/tally.ts';

export interface CollectedRun {
  metadata: RunMetadata;
  tests: readonly TestRecord[];
  startedAt: Date;
  durationMs: number;
  runnerStatus: string;
  runnerErrors: readonly string[];
  /** The interface's operations (operationNames()): those the run sent nothing to are named beside the verdict. */
  operations?: readonly OperationName[];
  /** What started the run, for the failures' rerun commands; Playwright itself when not said. */
  launcher?: Launcher;
}

export function buildReport(catalog: Catalog, run: CollectedRun): ConformanceReport {
  const tests = [...run.tests].sort(
    (a, b) => a.location.localeCompare(b.location, 'en', { numeric: true }) || a.title.localeCompare(b.title),
  );
  const requirements = requirementResults(catalog, run.metadata.profile, tests, run.metadata.expectations);
  const untraced = tests.filter((test) => test.requirements.length === 0).map((test) => test.title);
  const decided = decideVerdict({ requirements, tests, runnerStatus: run.runnerStatus, runnerErrors: run.runnerErrors });
  const requests = tests.flatMap((test) => test.requests);
  // A requirement no test of the run held: the run was narrowed (--grep, one shard), and what it did
  // not cover may be covered by the part it left out.
  const narrowed = requirements.some((result) => result.status === 'uncovered');
  const coverage = coverageOfTests(tests, { allowWrites: run.metadata.allowWrites, narrowed });
  const { verdict, reason } = underFloor(decided, coverage, run.metadata.coverageMin);
  const operations = summarizeOperations(requests);
  const unexercised = unexercisedOperations(catalog, {
    operations: run.operations ?? [],
    sent: operations,
    allowWrites: run.metadata.allowWrites,
    requirements,
  });
  return {
    format: 'calls-conformance-results/1',
    verdict,
    verdictReason: `${reason}${unexercisedSentence(verdict, unexercised)}`,
    exitCode: exitCodeOf(verdict),
    specification: catalog.title,
    run: {
      ...run.metadata,
      startedAt: run.startedAt.toISOString(),
      endedAt: new Date(run.startedAt.getTime() + run.durationMs).toISOString(),
      durationMs: Math.round(run.durationMs),
      seeds: [...new Set(tests.flatMap((test) => (test.seed === undefined ? [] : [test.seed])))].sort((a, b) => a - b),
      targetAddresses: [...new Set(requests.map((request) => request.base))].sort(),
      runner: { status: run.runnerStatus, errors: [...run.runnerErrors] },
    },
    summary: {
      requirements: countStatuses(requirements),
      mustFailed: requirements.filter((result) => FAILING.has(result.status) && result.level === 'MUST').map((result) => result.id),
      intermittent: requirements.filter((result) => result.status === 'intermittent').map((result) => result.id),
      tests: countTests(tests),
      requests: requestsSent(requests),
    },
    sections: Object.entries(catalog.sections)
      .sort(([a], [b]) => compareSections(a, b))
      .map(([id, title]) => ({ id, title, counts: countStatuses(requirements.filter((result) => result.section === id)) })),
    requirements,
    readings: readingResults(catalog, tests),
    answerAges: answerAgesOf(run.metadata.maxAnswerAgeSeconds, tests),
    ...(run.metadata.expectations && { expectations: expectationsOf(run.metadata.expectations, requirements) }),
    operations,
    writes: summarizeWrites(requests),
    unexercised,
    failures: tests.flatMap((test) => failuresOf(test, run.metadata.seed, run.launcher ?? 'playwright')),
    coverage,
    untraced,
  };
}

/** Who covered what learning the target covered: every run sends those requests, before any test. */
export const LEARNING_CREDIT = 'learning the target, before the tests (every run sends these requests)';

/**
 * What the run's requests tried, each credited to the first test that sent it, by its location and
 * title: `npx playwright test LOCATION` runs it again, requests and all. The requests sent while
 * learning the target travel with whichever test first took them (request-log.ts), which did not
 * send them: a test without a key would be credited with the learning's successes.
 */
function coverageOfTests(tests: readonly TestRecord[], context: { allowWrites: boolean; narrowed: boolean }): Coverage {
  const tally = emptyTally();
  for (const test of tests)
    for (const request of test.requests)
      if (request.cover) tallyObservation(tally, request.cover, request.learning ? LEARNING_CREDIT : `${test.location} ${test.title}`);
  return coverageOf(tally, context);
}

/**
 * COVERAGE_MIN: a run that covered less than the floor of some dimension cannot say CONFORMANT, as
 * it did not try enough to; it says INCONCLUSIVE, one line per dimension under the floor. A
 * violation found stays NON-CONFORMANT, the lines added. Without a floor, coverage changes nothing.
 */
function underFloor(
  decided: { verdict: Verdict; reason: string },
  coverage: Coverage,
  floor: number | undefined,
): { verdict: Verdict; reason: string } {
  if (floor === undefined) return decided;
  const lines = belowFloor(coverage, floor);
  if (lines.length === 0) return decided;
  const said = `${decided.reason} Coverage under COVERAGE_MIN ${floor}%: ${lines.join('; ')}.`;
  return decided.verdict === 'CONFORMANT' ? { verdict: 'INCONCLUSIVE', reason: said } : { ...decided, reason: said };
}

/** Section numbers in reading order (2.1 before 3): a JavaScript object lists integer keys first. */
function compareSections(a: string, b: string): number {
  const [left, right] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? -1) - (right[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Listed, failed as expected, passed against expectation, or listed past its date. */
function expectationsOf(
  expectations: NonNullable<RunMetadata['expectations']>,
  requirements: readonly RequirementResult[],
): NonNullable<ConformanceReport['expectations']> {
  const statusOf = (id: string) => requirements.find((result) => result.id === id)?.status;
  const active = expectations.entries.filter((entry) => !entry.expired).map((entry) => entry.requirement);
  return {
    file: expectations.file,
    expectedFailures: active.filter((id) => statusOf(id) === 'expected-fail'),
    unexpectedPasses: active.filter((id) => statusOf(id) === 'pass' || statusOf(id) === 'warn'),
    expired: expectations.entries.filter((entry) => entry.expired).map((entry) => entry.requirement),
  };
}

/**
 * A test's own failure, when any attempt of it failed (the last such attempt's message, and how many
 * attempts failed when it was retried), and one record per requirement it does not hold that it found
 * broken on the way (it may itself have passed): every failed requirement has its message.
 */
function failuresOf(test: TestRecord, seed: number, launcher: Launcher): FailureRecord[] {
  const rerun = rerunCommand(launcher, test.seed ?? seed, test.location);
  const credited = new Set(test.credited.map((entry) => entry.requirement));
  const failedAttempts = test.attempts.filter((attempt) => failedStatus(attempt.status));
  const last = failedAttempts.at(-1);
  const own = last
    ? [
        {
          test: test.title,
          location: test.location,
          status: last.status,
          requirements: [...new Set(failedAttempts.flatMap((attempt) => attempt.violated).filter((id) => !credited.has(id)))],
          message: last.errors.join('\n\n') || `The test ended ${last.status} without an error message.`,
          rerun,
          ...(test.attempts.length > 1 && { attempts: { failed: failedAttempts.length, total: test.attempts.length } }),
          ...(last.traceId !== undefined && { traceId: last.traceId }),
        },
      ]
    : [];
  return [
    ...own,
    ...test.credited.map(({ requirement, message, traceId }) => ({
      test: test.title,
      location: test.location,
      status: test.status,
      requirements: [requirement],
      message: `Found while testing "${test.title}", which holds ${test.requirements.join(', ') || 'no requirement'}:\n${message}`,
      rerun,
      credited: true,
      ...(traceId !== undefined && { traceId }),
    })),
  ];
}

/** Requests sent, each retry counted: what a rate limit or REQUEST_BUDGET sees. */
const requestsSent = (records: readonly RequestRecord[]) => records.reduce((sum, record) => sum + (record.attempts ?? 1), 0);

/** Per operation: requests sent, final statuses (0 when no answer could be judged), and latency of the answered ones. */
function summarizeOperations(requests: readonly RequestRecord[]): OperationSummary[] {
  const byOperation = new Map<string, RequestRecord[]>();
  for (const request of requests) byOperation.set(request.operation, [...(byOperation.get(request.operation) ?? []), request]);
  return [...byOperation]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, records]) => {
      const statuses: Record<string, number> = {};
      for (const record of records) statuses[record.status] = (statuses[record.status] ?? 0) + 1;
      const times = records
        .filter((record) => record.status !== 0)
        .map((record) => record.ms)
        .sort((a, b) => a - b);
      return {
        operation,
        requests: requestsSent(records),
        statuses,
        latencyMs: { p50: percentile(times, 0.5), p95: percentile(times, 0.95), max: times.at(-1) ?? 0 },
      };
    });
}

/** Every write sent (anything but GET), by address and final status: what a run changed on the target. */
function summarizeWrites(requests: readonly RequestRecord[]): WriteSummary[] {
  const byWrite = new Map<string, WriteSummary>();
  for (const record of requests) {
    if (record.url === undefined) continue;
    const key = `${record.method} ${record.url} ${record.status}`;
    const entry = byWrite.get(key) ?? { method: record.method, url: record.url, status: record.status, count: 0 };
    entry.count += record.attempts ?? 1;
    byWrite.set(key, entry);
  }
  return [...byWrite.values()].sort((a, b) => a.url.localeCompare(b.url) || a.status - b.status);
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}
