// Runs the conformance suite, as a child process and the way a user runs it, to its end, against the
// reference with one fault (or none) under one of its readings, and reads what the suite reported:
// the requirements it found violated or warned about, how many requests it took to first do so, and
// from results.json which requirements it could not judge. A fault is caught only when the run
// names what it breaks and judges every other requirement: one deviation must not hide the rest.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS, DEMO_KEYS } from '../../reference/fixtures.ts';
import type { Fault } from '../../reference/faults/catalog.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from '../../reference/readings.ts';
import type { StartedAtFilterField } from '../../reference/call-index.ts';
import type { ReferenceAlternative } from '../../reference/alternatives.ts';
import type { GetEnvelope } from '../../reference/get-envelope.ts';
import { DEFAULT_SETTLE_DELAY, type SettleDelay } from '../../reference/live/settle-delay.ts';
import { describeAnswerAge, type AnswerAges } from '../../reference/answer-age.ts';
import { effectiveLevel, loadCatalog } from '../../openapi/catalog.ts';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { fileURLToPath } from 'node:url';
import { referenceTargetEnv, runSuite, SELF_TEST_SEED } from '../runner/run-suite.ts';
import type { DetectionLine } from './detection-reporter.ts';
import { RUN_STATE_VARIABLE } from '../../core/transport/run-state.ts';
import { reportFolderOf, type MatrixPlan } from './matrix-plan.ts';
import { preflightStop, STOPPED_EXIT_CODE } from './preflight-stop.ts';

/** The data set the faults run on: the reference's default size (DEFAULT_CALLS), one fixed seed. */
export const MATRIX_REFERENCE_SEED = 5;
export const RUN_TIMEOUT_MS = 300_000;

export type Expectation = 'pass' | 'fail' | 'warn';
/** `unjudged`: the run named what the fault breaks, but left some other requirement in error. */
export type Outcome = 'passed' | 'killed' | 'warned' | 'survived' | 'unjudged';

export interface MatrixRow {
  /** The fault's name, or `clean` for the reference without one. */
  fault: string;
  description: string;
  profile: 'spec' | 'strict';
  /** The readings the reference served. */
  readings: ReferenceReadings;
  /** New calls a second when the reference lived (reference/live/); absent when it stood still. */
  live?: number;
  /** When it lived, the seconds after a call's end over which its late fields settled. */
  settleDelay?: SettleDelay;
  /** How old the reference's answers were (reference/answer-age.ts); absent when every answer was fresh. */
  answerAge?: AnswerAges;
  /** The suite's own settings the run was given beyond the target's (REQUEST_BUDGET, MAX_RPS), when any. */
  env?: Readonly<Record<string, string>>;
  /** The tests the row ran: the whole suite, or those a regular expression over titles chose (its fault's own). */
  tests: 'whole suite' | { grep: string };
  /** CONFORMANCE_RETRIES, when the row set it. */
  retries?: number;
  conformanceSeed: string;
  referenceSeed: number;
  /** The requirements the fault declares it violates. */
  requirements: readonly string[];
  expected: Expectation;
  outcome: Outcome;
  /** Declared requirements the suite did not report (empty when the fault is killed). */
  missed: string[];
  /** Every requirement the suite reported as violated (failed MUSTs) and as warnings, until the run stopped. */
  violated: string[];
  warned: string[];
  /** Requirements the run could not judge (status error in results.json), each with why. */
  errored: string[];
  verdict: string;
  /** The exit code `npm run conformance` gives that verdict (results.json's); null without a report. */
  exitCode: number | null;
  testsRun: number;
  /** Requests the target answered before the first test reporting a declared requirement ended. */
  requestsToDetect: number | null;
  /** Requests the target answered in the whole run. */
  requests: number;
  /** When the run started (ISO 8601) and how long it took. */
  startedAt: string;
  seconds: number;
  /** What the run learned of the target: for each reading, the candidates its report accepted. */
  learned: Record<string, string[]>;
  /** What to read when the outcome is not the expected one. */
  problem?: string;
  /** The line the preflight stopped the run with, before any test (preflight-stop.ts), when it did. */
  stopped?: string;
}

/**
 * A fault is caught by failing the run when any requirement it breaks is a MUST under the profile,
 * else by a warning. Under a profile where it breaks neither (a strict convention under the spec
 * profile), the run must pass: a convention is not the specification.
 */
export function expectationOf(fault: Fault | undefined, profile = fault?.profile ?? 'spec'): Expectation {
  if (!fault) return 'pass';
  const catalog = loadCatalog();
  const levels = fault.requirements.map((id) => {
    const requirement = catalog.byId.get(id);
    if (!requirement) throw new Error(`fault ${fault.name} names an unknown requirement ${id}`);
    return effectiveLevel(requirement, profile);
  });
  if (levels.includes('MUST')) return 'fail';
  if (levels.includes('SHOULD')) return 'warn';
  return 'pass';
}

export interface RunOptions {
  conformanceSeed?: string;
  referenceSeed?: number;
  profile?: 'spec' | 'strict';
  readings?: ReferenceReadings;
  /** Runs the reference living, logging this many new calls a second (reference/live/); it stands still by default. */
  live?: number;
  /** When living, over how many seconds after its end each call settles; the reference's default (2 to 15 s) when absent. */
  settleDelay?: SettleDelay;
  /** Answers List Calls and Get Call old, from a replica behind or a cache (reference/answer-age.ts); every answer fresh when absent. */
  answerAge?: AnswerAges;
  /** More of the suite's settings for the child run, as a user sets them (REQUEST_BUDGET, MAX_RPS); named in the row's label. */
  env?: Readonly<Record<string, string>>;
  /** How long the whole child run may take; RUN_TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** Which of a call's times the reference's startedAt filter compares (a reading the words allow, not a fault); startedAt by default. */
  startedAtFilter?: StartedAtFilterField;
  /** Readings the words allow that the reference serves instead of its own (reference/alternatives.ts). */
  alternatives?: readonly ReferenceAlternative[];
  /** The envelope the reference answers Get Call in (reference/get-envelope.ts); its default when absent. */
  getEnvelope?: GetEnvelope;
  /** In a run of many rows (runRows), the tests this row runs, as a regular expression over titles; the whole suite when absent. */
  grep?: string;
  /** CONFORMANCE_RETRIES for the row; a user's default when absent. */
  retries?: number;
}

/** One row of the matrix to run: the fault (none: the clean reference) and how. */
export interface RowSpec {
  fault: Fault | undefined;
  options: RunOptions;
}

/** A row's reference, serving on loopback, and when it answered each request. */
interface RowTarget {
  spec: RowSpec;
  reference: ReturnType<typeof createServer>;
  address: string;
  answeredAt: number[];
}

async function startTarget(spec: RowSpec): Promise<RowTarget> {
  const { fault, options } = spec;
  const reference = createServer({
    seed: options.referenceSeed ?? MATRIX_REFERENCE_SEED,
    calls: fault?.calls ?? DEFAULT_CALLS,
    readings: options.readings ?? DEFAULT_READINGS,
    ...(fault && { fault }),
    ...(options.live !== undefined && { live: { rate: options.live, settleDelay: options.settleDelay ?? DEFAULT_SETTLE_DELAY } }),
    ...(options.startedAtFilter && { startedAtFilter: options.startedAtFilter }),
    ...(options.alternatives && { alternatives: options.alternatives }),
    ...(options.getEnvelope && { getEnvelope: options.getEnvelope }),
    ...(options.answerAge && { answerAge: options.answerAge }),
  });
  const answeredAt: number[] = [];
  reference.server.on('request', () => answeredAt.push(Date.now()));
  const address = await reference.listen(0);
  return { spec, reference, address, answeredAt };
}

/** The suite's settings for a row, as a user sets them for that target. */
function rowEnv(target: RowTarget): Record<string, string> {
  const { fault, options } = target.spec;
  return {
    ...(options.env ?? {}),
    ...referenceTargetEnv(target.address),
    CONFORMANCE_SEED: options.conformanceSeed ?? SELF_TEST_SEED,
    CONFORMANCE_PROFILE: options.profile ?? fault?.profile ?? 'spec',
    ...(options.retries !== undefined && { CONFORMANCE_RETRIES: String(options.retries) }),
  };
}

/** What one run of the suite left for a row: its tests as they ended, whether the run ended, its results.json. */
interface RowObservation {
  /** The preflight's line, when it stopped the row's run before its tests; nothing else was run. */
  stopped?: string;
  tests: DetectionLine[];
  ended: boolean;
  results: ConformanceReport | undefined;
  stderr: string;
  startedAt: number;
  seconds: number;
}

/** The row, judged from what the run of its target left. */
function rowOf(target: RowTarget, seen: RowObservation): MatrixRow {
  const { fault, options } = target.spec;
  const conformanceSeed = options.conformanceSeed ?? SELF_TEST_SEED;
  const profile = options.profile ?? fault?.profile ?? 'spec';
  const readings = options.readings ?? DEFAULT_READINGS;
  const expected = expectationOf(fault, profile);
  const declared = expected === 'pass' ? [] : (fault?.requirements ?? []);
  const env = options.env ?? {};
  const violated = new Set<string>();
  const warned = new Set<string>();
  let detectedAt: number | undefined;
  for (const line of [...seen.tests].sort((a, b) => a.at - b.at)) {
    line.violations.forEach((id) => violated.add(id));
    line.warnings.forEach((id) => warned.add(id));
    const reported = expected === 'warn' ? warned : violated;
    if (detectedAt === undefined && expected !== 'pass' && declared.every((id) => reported.has(id))) detectedAt = line.at;
  }
  const errored = (seen.results?.requirements ?? [])
    .filter((result) => result.status === 'error')
    .map((result) => `${result.id} (${result.reason ?? 'not judged'})`);
  const missed = declared.filter((id) => !(expected === 'warn' ? warned : violated).has(id));
  const row: MatrixRow = {
    fault: `${labelOf(fault, profile, readings, options.live, options.answerAge)}${options.startedAtFilter === 'initiatedAt' ? ' (startedAt filter on initiatedAt)' : ''}${options.alternatives?.length ? ` (serving ${options.alternatives.join(', ')})` : ''}${options.getEnvelope ? ` (Get Call ${options.getEnvelope})` : ''}${envLabel(env)}`,
    description: fault?.description ?? 'The reference implementation without a fault.',
    profile,
    readings,
    ...(options.live !== undefined && { live: options.live, settleDelay: options.settleDelay ?? DEFAULT_SETTLE_DELAY }),
    ...(options.answerAge && { answerAge: options.answerAge }),
    ...(Object.keys(env).length > 0 && { env }),
    tests: options.grep === undefined ? 'whole suite' : { grep: options.grep },
    ...(options.retries !== undefined && { retries: options.retries }),
    conformanceSeed,
    referenceSeed: options.referenceSeed ?? MATRIX_REFERENCE_SEED,
    requirements: declared,
    expected,
    outcome:
      seen.stopped === undefined
        ? judge(expected, seen.ended, seen.results?.verdict, violated.size + warned.size, missed, errored)
        : stoppedOutcome(expected),
    // A stop is no report of the declared requirements, and stands for none of them missed: the run
    // said the target does not know the key, which is what such a fault does.
    missed: seen.stopped === undefined ? missed : [],
    violated: [...violated].sort(),
    warned: [...warned].sort(),
    errored,
    verdict: seen.stopped === undefined ? (seen.results?.verdict ?? 'no report') : 'stopped before the tests',
    exitCode: seen.stopped === undefined ? (seen.results?.exitCode ?? null) : STOPPED_EXIT_CODE,
    testsRun: seen.tests.length,
    requestsToDetect:
      seen.stopped !== undefined
        ? target.answeredAt.length
        : detectedAt === undefined
          ? null
          : target.answeredAt.filter((time) => time <= detectedAt).length,
    requests: target.answeredAt.length,
    startedAt: new Date(seen.startedAt).toISOString(),
    seconds: seen.seconds,
    learned: Object.fromEntries(
      (seen.results?.readings ?? []).map((reading) => [
        reading.subject,
        reading.candidates.filter((candidate) => candidate.status === 'accepted').map((candidate) => candidate.id),
      ]),
    ),
    ...(seen.stopped !== undefined && { stopped: seen.stopped }),
  };
  if (row.outcome === 'survived' || row.outcome === 'unjudged') row.problem = explain(row, seen.ended, seen.stderr, seen.results);
  return row;
}

/** Collects the detection lines of a run's stdout as they come (a `stopWhen` that never stops it), and whether the run ended. */
function watchDetections(): { lines: DetectionLine[]; ended: () => boolean; watch: (text: string) => boolean } {
  const lines: DetectionLine[] = [];
  let ended = false;
  const watch = (text: string) => {
    const line = detectionLine(text);
    if (line?.status === 'end') ended = true;
    else if (line) lines.push(line);
    return false;
  };
  return { lines, ended: () => ended, watch };
}

/** Reads one DetectionLine from a line of the run's stdout; anything else (a summary a reporter printed) is not one. */
function detectionLine(text: string): DetectionLine | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as DetectionLine;
  } catch {
    return undefined;
  }
}

const MATRIX_CONFIG = fileURLToPath(new URL('./matrix.config.ts', import.meta.url));

/**
 * Runs many rows in one Playwright run of the suite (matrix.config.ts): a project per row, each
 * against its own reference served from this process, with its own seed, profile, readings and run
 * state, and its own report written by the product's reporter. `workers` rows run at once.
 */
export async function runRows(
  specs: readonly RowSpec[],
  { workers, timeoutMs }: { workers: number; timeoutMs: number },
): Promise<MatrixRow[]> {
  const targets: RowTarget[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'kill-matrix-batch-'));
  const reports = join(scratch, 'reports');
  try {
    for (const spec of specs) targets.push(await startTarget(spec));
    const stops = await preflightOf(targets);
    const names = targets.map((_, index) => `row-${index}`);
    const plan: MatrixPlan = {
      workers,
      projects: targets.flatMap((target, index) =>
        stops[index] !== undefined
          ? []
          : [
              {
                name: names[index]!,
                env: { ...rowEnv(target), [RUN_STATE_VARIABLE]: join(scratch, 'state', names[index]!) },
                ...(target.spec.options.grep !== undefined && { grep: target.spec.options.grep }),
              },
            ],
      ),
    };
    const planFile = join(scratch, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const started = Date.now();
    const seen = watchDetections();
    const run =
      plan.projects.length === 0
        ? { stderr: '' }
        : await runSuite(
            [`--config=${MATRIX_CONFIG}`],
            // The demo keys, so that the reports redact them as a user's run redacts its own.
            { KILL_MATRIX_PLAN: planFile, REPORT_DIR: reports, API_KEY: DEMO_KEYS.fullAccess, RESTRICTED_API_KEY: DEMO_KEYS.readOnly },
            { timeoutMs, stopWhen: seen.watch },
          );
    return targets.map((target, index) => {
      if (stops[index] !== undefined)
        return rowOf(target, {
          stopped: stops[index],
          tests: [],
          ended: true,
          results: undefined,
          stderr: '',
          startedAt: started,
          seconds: 0,
        });
      const tests = seen.lines.filter((line) => line.project === names[index]);
      const first = Math.min(...tests.map((line) => line.startedAt));
      const last = Math.max(...tests.map((line) => line.at));
      return rowOf(target, {
        tests,
        ended: seen.ended(),
        results: readResults(join(reports, reportFolderOf(names[index]!))),
        stderr: run.stderr,
        startedAt: tests.length > 0 ? first : started,
        seconds: tests.length > 0 ? (last - first) / 1000 : 0,
      });
    });
  } finally {
    await Promise.all(targets.map((target) => target.reference.close()));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What a user's run would ask each row's target first. A row that goes on has its preflight's
 * requests forgotten: its counts are its tests', as they were before the matrix asked.
 */
async function preflightOf(targets: readonly RowTarget[]): Promise<Array<string | undefined>> {
  return Promise.all(
    targets.map(async (target) => {
      const stop = await preflightStop(rowEnv(target));
      if (stop === undefined) target.answeredAt.length = 0;
      return stop;
    }),
  );
}

/** A run stopped before its tests caught a fault only if the fault is one: the clean reference must be judged. */
const stoppedOutcome = (expected: Expectation): Outcome => (expected === 'fail' ? 'killed' : 'survived');

/** The fault's name, and the profile and readings it ran under where they are not its own first, the living, and old answers. */
function labelOf(
  fault: Fault | undefined,
  profile: 'spec' | 'strict',
  readings: ReferenceReadings,
  live: number | undefined,
  answerAge: AnswerAges | undefined,
): string {
  const name = fault ? `${fault.name}${profile !== (fault.profile ?? 'spec') ? ` (${profile} profile)` : ''}` : 'clean';
  const label = readings === DEFAULT_READINGS ? name : `${name} (${readings} readings)`;
  const living = live === undefined ? label : `${label} (living, ${live} calls/s)`;
  return answerAge === undefined ? living : `${living} (answers: ${describeAnswerAge(answerAge)})`;
}

/** The settings a run was given beyond the target's, as a user would type them before the command. */
function envLabel(env: Readonly<Record<string, string>>): string {
  const words = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  return words.length === 0 ? '' : ` (${words.join(' ')})`;
}

function readResults(dir: string): ConformanceReport | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ConformanceReport;
  } catch {
    return undefined;
  }
}

/** By the verdict the run's report gives, as a user gating on it would read it. */
function judge(
  expected: Expectation,
  ended: boolean,
  verdict: string | undefined,
  reports: number,
  missed: string[],
  errored: string[],
): Outcome {
  if (!ended) return 'survived';
  if (expected === 'fail')
    return verdict !== 'NON-CONFORMANT' || missed.length > 0 ? 'survived' : errored.length > 0 ? 'unjudged' : 'killed';
  if (errored.length > 0) return 'unjudged';
  if (expected === 'pass') return verdict === 'CONFORMANT' && reports === 0 ? 'passed' : 'survived';
  return verdict === 'CONFORMANT' && missed.length === 0 ? 'warned' : 'survived';
}

function explain(row: MatrixRow, ended: boolean, stderr: string, results: ConformanceReport | undefined): string {
  const reported = `${row.verdict}, exit ${row.exitCode}; violated [${row.violated.join(', ') || 'nothing'}]; warned [${row.warned.join(', ') || 'nothing'}]`;
  if (row.stopped !== undefined) return `the run stopped before its tests: ${row.stopped}`;
  if (!ended) return `the run did not finish: ${reported}\n${stderr.slice(-2000)}`;
  if (row.outcome === 'unjudged')
    return `other requirements were left in error, one deviation hiding the verdict on them: ${row.errored.join('; ')}`;
  if (row.expected === 'pass') return `the clean reference did not pass cleanly: ${reported}\n${failuresOf(results)}`;
  if (row.expected === 'warn' && row.verdict !== 'CONFORMANT') return `a SHOULD fault must only warn, but the run failed: ${reported}`;
  return `the suite did not report ${row.missed.join(', ')}: ${reported}`;
}

/** What the run's report says failed, test by test, for a row that should have passed: enough to see the cause without running it again. */
function failuresOf(results: ConformanceReport | undefined): string {
  if (!results) return 'no results.json was written';
  return results.failures
    .slice(0, 3)
    .map((failure) => `${failure.test}\n${failure.message.slice(0, 3000)}\nrerun: ${failure.rerun}`)
    .join('\n\n');
}
