// The rows of the kill matrix and how they are run, as data: kill-matrix.spec.ts turns each row into
// a test, and each batch into one Playwright run of the suite with a project per row (runRows).
//
// What each row runs, and why it is enough:
// - Every fault, standing under each of its readings and living, runs the tests that hold the
//   requirements it breaks (their ids lead the test titles), with everything those tests stand on
//   (the learning of the target is a fixture, so it always runs), and no retries: the row asks
//   whether the suite names the fault, not whether a failure repeats.
// - Whether one deviation hides the verdict on the others needs the whole suite: a rotating sample
//   of the faults (a different one at each commit, the same one for the same commit) runs the whole
//   suite, also without retries, and must leave no other requirement in error. (A failed test costs
//   a worker start, its retry another: retries tell a steady failure from an intermittent one, which
//   the self-tests of the reports prove, not whether the suite names a fault.)
//   KILL_MATRIX_WHOLE=all runs every fault's standing rows whole, as the matrix did before it had samples.
// - The clean reference runs the whole suite, as a user's run does, on every seed, reading and rate,
//   and so do the strict-only faults under the spec profile (which must pass).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { FAULTS, type Fault } from '../../reference/faults/catalog.ts';
import { readingsOf } from '../../reference/faults/fault.ts';
import { REFERENCE_READINGS } from '../../reference/readings.ts';
import { REFERENCE_ALTERNATIVES } from '../../reference/alternatives.ts';
import { DEFAULT_GET_ENVELOPE, GET_ENVELOPES } from '../../reference/get-envelope.ts';
import { SELF_TEST_SEED } from '../runner/run-suite.ts';
import { expectationOf, MATRIX_REFERENCE_SEED, type Outcome, type RunOptions, type RowSpec } from './kill-matrix.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';
import { FILTER_FAULTS } from '../../reference/faults/filters.ts';
import { PAGINATION_FAULTS } from '../../reference/faults/pagination.ts';
import { GET_CALL_FAULTS } from '../../reference/faults/get-call.ts';
import type { AnswerAges } from '../../reference/answer-age.ts';

interface MatrixRowPlan extends RowSpec {
  /** The test's title: what the row proves. */
  title: string;
  /** The outcome the row must have. */
  expected: Extract<Outcome, 'passed' | 'killed' | 'warned'>;
  /** A row that must learn this startedAt filter reading and no other. */
  learns?: { subject: string; candidates: string[] };
}

export interface MatrixBatch {
  /** The describe block's title. */
  title: string;
  /** Rows judged at once, each in a worker of its own; the runs side by side in one Playwright run. */
  workers: number;
  /** How long one row may take, in seconds, where it is longer than the matrix's default (answers it waits out). */
  rowSeconds?: number;
  rows: MatrixRowPlan[];
}

/** Several seeds of both the data and the suite: the clean reference passes on each, under each of its readings. */
const CLEAN_RUNS = [
  { referenceSeed: MATRIX_REFERENCE_SEED, conformanceSeed: SELF_TEST_SEED },
  { referenceSeed: 2, conformanceSeed: '7' },
  { referenceSeed: 11, conformanceSeed: '424242' },
];

/** The settings of a run without trace headers (core/transport/trace-context.ts). */
const UNTRACED: Readonly<Record<string, string>> = { TRACE_HEADERS: 'false' };

/** Living at these rates the clean reference passes on five seeds; the faults live at the first, the busier. */
const LIVING_RATES = [1, 0.2] as const;
const LIVING_SEEDS = [...CLEAN_RUNS, { referenceSeed: 17, conformanceSeed: '99' }, { referenceSeed: 23, conformanceSeed: '2026' }];
const FAULT_LIVING_RATE = LIVING_RATES[0];

/** A reading the words allow that the reference serves on demand, other than its own: what it serves, and how a title says it. */
interface ReadingVariant {
  says: string;
  options: Pick<RunOptions, 'alternatives' | 'getEnvelope' | 'startedAtFilter'>;
}

/**
 * The readings the words allow that the reference serves on demand, each alone, and all at once: its
 * alternatives (reference/alternatives.ts), Get Call's other envelopes, the startedAt filter on
 * initiatedAt. The one at once takes the last envelope; the reference's readings vary by row.
 */
const READING_VARIANTS: readonly ReadingVariant[] = [
  ...REFERENCE_ALTERNATIVES.map((alternative) => ({ says: `serving ${alternative}`, options: { alternatives: [alternative] } })),
  ...GET_ENVELOPES.filter((envelope) => envelope !== DEFAULT_GET_ENVELOPE).map((envelope) => ({
    says: `answering Get Call ${envelope}`,
    options: { getEnvelope: envelope },
  })),
  {
    says: `serving every reading at once (${REFERENCE_ALTERNATIVES.join(', ')}, Get Call ${GET_ENVELOPES.at(-1)}, the startedAt filter on initiatedAt)`,
    options: { alternatives: REFERENCE_ALTERNATIVES, getEnvelope: GET_ENVELOPES.at(-1)!, startedAtFilter: 'initiatedAt' },
  },
];

/** One fault in this many runs the whole suite at each commit; successive commits cover the catalog. */
export const WHOLE_SAMPLE_EVERY = 16;
/** Rows a batch holds: many where each row runs a test or two, few where each runs the whole suite, so that no batch is left running alone at the end. */
const OWN_TESTS_BATCH = 16;
const WHOLE_SUITE_BATCH = 4;

/** A regular expression over test titles that holds the tests whose lead requirement is one of `ids`. */
export function testsHolding(ids: readonly string[]): string {
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(^|\\s)(${escaped.join('|')})\\s`;
}

/**
 * Which faults run the whole suite this time: every WHOLE_SAMPLE_EVERY-th of the catalog, from an
 * offset the key chooses (the commit being tested), so that successive commits cover them all.
 */
export function wholeSample(faults: readonly Fault[], key: string, every = WHOLE_SAMPLE_EVERY): Set<string> {
  const offset = createHash('sha256').update(key).digest().readUInt32BE(0) % every;
  return new Set(faults.filter((_, index) => index % every === offset).map((fault) => fault.name));
}

/** The commit under test, or the day when there is no repository: what the sample rotates with. */
export function sampleKey(): string {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return head.status === 0 ? head.stdout.trim() : new Date().toISOString().slice(0, 10);
}

const how = (fault: Fault) => (expectationOf(fault) === 'fail' ? 'fails the run naming' : 'warns naming');
const caught = (fault: Fault): 'killed' | 'warned' => (expectationOf(fault) === 'fail' ? 'killed' : 'warned');

/**
 * Faults that the tests holding their requirements do not see, and the requirements whose tests do:
 * the suite checks every answer against every requirement it bears on and credits what it finds to
 * the requirement (core/run/verdict.ts), so a fault can show only in answers another test asks for.
 * Found by running each fault's own tests, then the whole suite with Playwright's JSON reporter.
 */
export const ALSO_SEEN_BY: Readonly<Record<string, readonly string[]>> = {
  // The totals of each status value must add up to the unfiltered total: the status test sums them.
  'status-drops-large-calls': ['CALLS-LIST-FILTER-STATUS'],
  // The wrapped items are calls whose fields are all missing, seen on any list page a test reads;
  // the blocked list leaves the field tests unjudged.
  'list-items-wrapped-as-prism-mock': ['CALLS-LIST-OK'],
  // Only malformed requests draw the HTML error bodies.
  'bad-request-as-html': ['ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
};

/** The tests of the fault's requirements (and of those that see it, ALSO_SEEN_BY), no retries. */
function ownTests(fault: Fault): RunOptions {
  return { grep: testsHolding([...fault.requirements, ...(ALSO_SEEN_BY[fault.name] ?? [])]), retries: 0 };
}

function chunks(title: string, workers: number, rows: MatrixRowPlan[], size: number, rowSeconds?: number): MatrixBatch[] {
  const batches: MatrixBatch[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const part = rows.slice(start, start + size);
    const count = Math.ceil(rows.length / size);
    batches.push({
      title: count === 1 ? title : `${title} (${batches.length + 1} of ${count})`,
      workers,
      rows: part,
      ...(rowSeconds !== undefined && { rowSeconds }),
    });
  }
  return batches;
}

export function matrixBatches(options: { whole: 'sample' | 'all'; key: string }): MatrixBatch[] {
  const sampled = options.whole === 'all' ? new Set(FAULTS.map((fault) => fault.name)) : wholeSample(FAULTS, options.key);
  for (const fault of FAULTS) {
    if (expectationOf(fault) === 'pass')
      throw new Error(`fault ${fault.name} breaks no MUST or SHOULD requirement under its own profile, so nothing could catch it`);
  }

  const clean: MatrixRowPlan[] = [];
  for (const readings of REFERENCE_READINGS) {
    for (const { referenceSeed, conformanceSeed } of CLEAN_RUNS)
      clean.push({
        fault: undefined,
        options: { referenceSeed, conformanceSeed, readings },
        title: `the clean reference under the ${readings} readings (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`,
        expected: 'passed',
      });
  }
  // The words allow the startedAt filter to compare a call's initiatedAt (startedAt is "also
  // described as when it was initiated"): a reference that does is no fault. It passes too, the
  // suite having learned that reading and no other.
  for (const { referenceSeed, conformanceSeed } of CLEAN_RUNS)
    clean.push({
      fault: undefined,
      options: { referenceSeed, conformanceSeed, startedAtFilter: 'initiatedAt' },
      title: `the reference whose startedAt filter compares initiatedAt (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning, having learned initiated-at-or-after`,
      expected: 'passed',
      learns: { subject: 'started-at-filter', candidates: ['initiated-at-or-after'] },
    });
  // Every reading the words allow that the reference does not follow by default (reference/alternatives.ts)
  // is a variant that must pass: alone, and all of them at once, each on its own seeds, under
  // either of the reference's own readings; living too, below.
  for (const [index, variant] of READING_VARIANTS.entries()) {
    const { referenceSeed, conformanceSeed } = CLEAN_RUNS[index % CLEAN_RUNS.length]!;
    const readings = REFERENCE_READINGS[index % REFERENCE_READINGS.length]!;
    clean.push({
      fault: undefined,
      options: { referenceSeed, conformanceSeed, readings, ...variant.options },
      title: `the reference ${variant.says} under the ${readings} readings (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`,
      expected: 'passed',
    });
  }
  // A convention of the deployment is not the specification: under the spec profile, a target that
  // breaks only a convention passes.
  for (const fault of FAULTS.filter((entry) => entry.profile === 'strict'))
    clean.push({
      fault,
      options: { profile: 'spec' },
      title: `fault ${fault.name} breaks only a convention: under the spec profile the suite passes the whole suite with no warning`,
      expected: 'passed',
    });

  // A target that refuses headers it does not know runs with TRACE_HEADERS=false: the headers are
  // never part of a judgement, so every other fault's own tests run without them and catch it all
  // the same, and the clean reference passes the whole suite without them.
  clean.push({
    fault: undefined,
    options: { ...CLEAN_RUNS[0]!, env: UNTRACED },
    title: `the clean reference without trace headers (TRACE_HEADERS=false) passes the whole suite with no warning`,
    expected: 'passed',
  });
  const whole: MatrixRowPlan[] = [];
  const standing: MatrixRowPlan[] = [];
  for (const [faultIndex, fault] of FAULTS.entries()) {
    readingsOf(fault).forEach((readings, index) => {
      const isWhole = sampled.has(fault.name) && (options.whole === 'all' || index === 0);
      const untraced = !isWhole && faultIndex % 2 === 1;
      (isWhole ? whole : standing).push({
        fault,
        options: { readings, ...(isWhole ? { retries: 0 } : ownTests(fault)), ...(untraced && { env: UNTRACED }) },
        title: isWhole
          ? `fault ${fault.name} under the ${readings} readings: the whole suite ${how(fault)} ${fault.requirements.join(', ')}, and judges every other requirement`
          : `fault ${fault.name} under the ${readings} readings${untraced ? ' without trace headers' : ''}: the tests of ${fault.requirements.join(', ')} ${how(fault)} it`,
        expected: caught(fault),
      });
    });
  }

  // A living target (reference/live/): new calls logged during the run, calls ending, minutes
  // growing, and each call's recording and final minutes arriving 2 to 15 seconds after it ends.
  // The clean reference living passes the whole suite on five seeds at each rate, and every fault
  // is still caught while the data moves: "it moved" never excuses a wrong answer
  // (core/checks/moving-data.ts), and a late field settling never excuses one either (core/checks/settling.ts).
  const livingClean: MatrixRowPlan[] = [];
  for (const live of LIVING_RATES) {
    for (const { referenceSeed, conformanceSeed } of LIVING_SEEDS)
      livingClean.push({
        fault: undefined,
        options: { referenceSeed, conformanceSeed, live },
        title: `the clean reference living at ${live} new calls a second (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`,
        expected: 'passed',
      });
  }
  const livingVariants: ReadingVariant[] = [
    ...READING_VARIANTS,
    { says: 'whose startedAt filter compares initiatedAt', options: { startedAtFilter: 'initiatedAt' } },
  ];
  for (const [index, variant] of livingVariants.entries()) {
    const { referenceSeed, conformanceSeed } = LIVING_SEEDS[(index + 1) % LIVING_SEEDS.length]!;
    // The other reading of the call fields from the standing row's, so that each variant lives under both.
    const readings = REFERENCE_READINGS[(index + 1) % REFERENCE_READINGS.length]!;
    livingClean.push({
      fault: undefined,
      options: { referenceSeed, conformanceSeed, readings, live: FAULT_LIVING_RATE, ...variant.options },
      title: `the reference ${variant.says} living at ${FAULT_LIVING_RATE} new calls a second under the ${readings} readings (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`,
      expected: 'passed',
    });
  }
  const living: MatrixRowPlan[] = FAULTS.map((fault) => {
    const readings = readingsOf(fault)[0]!;
    return {
      fault,
      options: { readings, live: FAULT_LIVING_RATE, ...ownTests(fault) },
      title: `fault ${fault.name} living at ${FAULT_LIVING_RATE} new calls a second under the ${readings} readings: the tests of ${fault.requirements.join(', ')} ${how(fault)} it`,
      expected: caught(fault),
    };
  });

  const { agedClean, agedFaults } = agedRows();
  return [
    ...chunks('the clean reference, the whole suite', 1, clean, WHOLE_SUITE_BATCH),
    ...chunks('the clean reference answering old, the whole suite', 2, agedClean, WHOLE_SUITE_BATCH, AGED_ROW_SECONDS),
    ...chunks('faults answering old, each by its own tests', 2, agedFaults, AGED_BATCH, AGED_ROW_SECONDS),
    ...chunks('the clean reference living, the whole suite', 2, livingClean, 2 * WHOLE_SUITE_BATCH),
    ...chunks(
      `faults sampled for the whole suite (${options.whole === 'all' ? 'every fault' : `one in ${WHOLE_SAMPLE_EVERY}, rotating by commit`})`,
      1,
      whole,
      WHOLE_SUITE_BATCH,
    ),
    ...chunks('faults standing, each by its own tests', 1, standing, OWN_TESTS_BATCH),
    ...chunks('faults living, each by its own tests', 2, living, OWN_TESTS_BATCH),
  ];
}

/**
 * Old answers (reference/answer-age.ts): a cache or a lagging replica in front of List Calls and,
 * apart, Get Call, each answer a true snapshot up to 10 s old. The clean reference answering so
 * passes the whole suite, living at one new call a second and standing, on several seeds, under
 * both readings of the call fields (core/checks/answer-age.ts: age never fails a target); and every
 * fault of the filters, of pagination and of Get Call is still caught while answers are old (age
 * never excuses one), one of them with MAX_ANSWER_AGE far above the age served.
 */
const AGED_ANSWERS: ReadonlyArray<{ answerAge: AnswerAges; live: boolean }> = [
  { answerAge: { list: { mode: 'cache', seconds: 5 } }, live: true },
  { answerAge: { list: { mode: 'cache', seconds: 10 } }, live: true },
  { answerAge: { get: { mode: 'replica', seconds: 10 } }, live: true },
  { answerAge: { list: { mode: 'replica', seconds: 10 }, get: { mode: 'cache', seconds: 5 } }, live: true },
  { answerAge: { list: { mode: 'cache', seconds: 10 }, get: { mode: 'replica', seconds: 10 } }, live: false },
];
/** What the faults answer behind: a cache in front of the lists, Get Call from a replica behind. */
const FAULT_ANSWER_AGE: AnswerAges = { list: { mode: 'cache', seconds: 10 }, get: { mode: 'replica', seconds: 5 } };
/** A fault that drops calls from a filtered answer for good, judged with the widest age a user may allow. */
const DROPPING_FAULT = 'uid-drops-unanswered-one-to-one';
const AGED_BATCH = 8;
/** A row answering old waits out MAX_ANSWER_AGE wherever a comparison met an old answer, or found a fault. */
const AGED_ROW_SECONDS = 200;

function agedRows(): { agedClean: MatrixRowPlan[]; agedFaults: MatrixRowPlan[] } {
  const agedClean = AGED_ANSWERS.map(({ answerAge, live }, index): MatrixRowPlan => {
    const { referenceSeed, conformanceSeed } = LIVING_SEEDS[index % LIVING_SEEDS.length]!;
    const readings = REFERENCE_READINGS[index % REFERENCE_READINGS.length]!;
    return {
      fault: undefined,
      options: { referenceSeed, conformanceSeed, readings, answerAge, ...(live && { live: FAULT_LIVING_RATE }) },
      title: `the clean reference answering old (${JSON.stringify(answerAge)})${live ? ` living at ${FAULT_LIVING_RATE} new calls a second` : ''} under the ${readings} readings (data seed ${referenceSeed}, conformance seed ${conformanceSeed}) passes the whole suite with no warning`,
      expected: 'passed',
    };
  });
  const faults = [...FILTER_FAULTS, ...PAGINATION_FAULTS, ...GET_CALL_FAULTS];
  const agedFaults = faults.map((fault): MatrixRowPlan => {
    const readings = readingsOf(fault)[0]!;
    const wide = fault.name === DROPPING_FAULT ? { env: { MAX_ANSWER_AGE: '60' } } : {};
    return {
      fault,
      options: { readings, live: FAULT_LIVING_RATE, answerAge: FAULT_ANSWER_AGE, ...wide, ...ownTests(fault) },
      title: `fault ${fault.name} answering old behind a cache and a replica, living at ${FAULT_LIVING_RATE} new calls a second${fault.name === DROPPING_FAULT ? ', MAX_ANSWER_AGE=60' : ''}: the tests of ${fault.requirements.join(', ')} ${how(fault)} it`,
      expected: caught(fault),
    };
  });
  return { agedClean, agedFaults };
}
