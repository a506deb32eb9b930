// What the suite learned of its answers' age (core/checks/answer-age.ts), for the reports. Each test
// that saw an answer older than its arrival carries the largest age per operation in an `answer-age`
// annotation; the run reports the largest of all its tests beside the bound it judged under, so that
// shards merged give the same as one unsharded run, as the readings do.
import { ANSWER_AGE_ANNOTATION, type AgesSeen } from '../core/checks/answer-age.ts';
import type { AnswerAges, TestRecord } from '../core/results/report-model.ts';
import type { OperationId } from '../openapi/contract.ts';

/**
 * Far longer than what the fixture writes (three operation ids and their seconds): an annotation
 * longer than this is not the fixture's, and is not parsed.
 */
const ANNOTATION_LIMIT = 1_000;

/**
 * The ages a test's `answer-age` annotations carry. The text came through the runner, so it is read
 * as data: only a JSON object is read, only the `operations` given, only whole non-negative seconds;
 * anything else is left out, and a malformed annotation adds nothing.
 */
export function agesNoted(
  annotations: ReadonlyArray<{ type: string; description?: string }>,
  operations: readonly OperationId[],
): AgesSeen {
  return largestAges(
    annotations
      .filter((annotation) => annotation.type === ANSWER_AGE_ANNOTATION)
      .map((annotation) => agesIn(annotation.description, operations)),
  );
}

function agesIn(text: string | undefined, operations: readonly OperationId[]): AgesSeen {
  if (text === undefined || text.length > ANNOTATION_LIMIT) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const ages: AgesSeen = {};
  for (const operation of operations) {
    const seconds: unknown = Object.hasOwn(value, operation) ? (value as Record<string, unknown>)[operation] : undefined;
    const whole = typeof seconds === 'number' && seconds >= 0 ? Math.floor(seconds) : 0;
    // A zero says nothing was seen; a number past the safe integers is no measured age.
    if (whole > 0 && Number.isSafeInteger(whole)) ages[operation] = whole;
  }
  return ages;
}

/** The largest age per operation of several records (a run's tests, a test's attempts), operations in name order. */
export function largestAges(records: ReadonlyArray<AgesSeen | undefined>): AgesSeen {
  const largest = new Map<OperationId, number>();
  for (const record of records)
    for (const [operation, seconds] of Object.entries(record ?? {}) as Array<[OperationId, number]>)
      largest.set(operation, Math.max(seconds, largest.get(operation) ?? 0));
  return Object.fromEntries([...largest].sort(([a], [b]) => a.localeCompare(b)));
}

/** The report's `answerAges`: the run's bound (MAX_ANSWER_AGE) and the largest age its tests saw, per operation. */
export function answerAgesOf(boundSeconds: number, tests: readonly TestRecord[]): AnswerAges {
  return { boundSeconds, largest: largestAges(tests.map((test) => test.answerAges)) };
}
