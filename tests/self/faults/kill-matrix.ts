// Runs the conformance suite, as a child process and the way a user runs it, against the reference
// with one fault (or none), and reads from Playwright's JSON report what the suite reported: the
// requirements it found violated or warned about, and how many requests it took to first do so.
import { createServer } from '../../../reference/server.ts';
import { DEFAULT_CALLS } from '../../../reference/fixtures.ts';
import type { Fault } from '../../../reference/faults/catalog.ts';
import { effectiveLevel, loadCatalog } from '../../../openapi/catalog.ts';
import { fileURLToPath } from 'node:url';
import { referenceTargetEnv, runSuite, SELF_TEST_SEED } from '../runner/run-suite.ts';
import type { DetectionLine } from './detection-reporter.ts';

/** The data set the faults run on: the reference's default size (DEFAULT_CALLS), one fixed seed. */
export const MATRIX_REFERENCE_SEED = 5;
const RUN_TIMEOUT_MS = 300_000;

export type Expectation = 'pass' | 'fail' | 'warn';
export type Outcome = 'passed' | 'killed' | 'warned' | 'survived';

export interface MatrixRow {
  /** The fault's name, or `clean` for the reference without one. */
  fault: string;
  description: string;
  profile: 'spec' | 'strict';
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
  /** True when the run was stopped once the fault was caught; the exit code is then unknown. */
  stoppedEarly: boolean;
  exitCode: number | null;
  testsRun: number;
  /** Requests the target answered before the first test reporting a declared requirement ended. */
  requestsToDetect: number | null;
  requests: number;
  /** When the run started (ISO 8601) and how long it took. */
  startedAt: string;
  seconds: number;
  /** What to read when the outcome is not the expected one. */
  problem?: string;
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

const DETECTION_REPORTER = fileURLToPath(new URL('./detection-reporter.ts', import.meta.url));

/**
 * Runs the suite against the reference with the fault (none: the clean reference). A run that must
 * fail stops as soon as the suite has reported every requirement the fault breaks: the matrix
 * measures detection, and the rest of the run would only repeat it. Runs that must pass or only
 * warn go to the end, since nothing before the end shows that nothing fails.
 */
export async function runAgainst(fault: Fault | undefined, options: { conformanceSeed?: string; referenceSeed?: number; profile?: 'spec' | 'strict' } = {}): Promise<MatrixRow> {
  const conformanceSeed = options.conformanceSeed ?? SELF_TEST_SEED;
  const referenceSeed = options.referenceSeed ?? MATRIX_REFERENCE_SEED;
  const profile = options.profile ?? fault?.profile ?? 'spec';
  const expected = expectationOf(fault, profile);
  const declared = expected === 'pass' ? [] : fault?.requirements ?? [];
  const reference = createServer({ seed: referenceSeed, calls: fault?.calls ?? DEFAULT_CALLS, ...(fault && { fault }) });
  const answeredAt: number[] = [];
  reference.server.on('request', () => answeredAt.push(Date.now()));
  const address = await reference.listen(0);
  const started = Date.now();
  const tests: DetectionLine[] = [];
  let ended = false;
  const violated = new Set<string>();
  const warned = new Set<string>();
  let detectedAt: number | undefined;
  const stopWhen = (text: string) => {
    let line: DetectionLine;
    try {
      line = JSON.parse(text) as DetectionLine;
    } catch {
      return false;
    }
    if (line.status === 'end') {
      ended = true;
      return false;
    }
    tests.push(line);
    line.violations.forEach((id) => violated.add(id));
    line.warnings.forEach((id) => warned.add(id));
    const reported = expected === 'warn' ? warned : violated;
    if (detectedAt === undefined && expected !== 'pass' && declared.every((id) => reported.has(id))) detectedAt = line.at;
    return expected === 'fail' && detectedAt !== undefined;
  };
  try {
    // One worker per run: the matrix gets its parallelism from running faults side by side, one per
    // core, and a run per fault with workers of its own would oversubscribe a large machine.
    const run = await runSuite(['--project=conformance', '--workers=1', `--reporter=${DETECTION_REPORTER}`], {
      ...referenceTargetEnv(address),
      CONFORMANCE_SEED: conformanceSeed,
      CONFORMANCE_PROFILE: profile,
    }, { timeoutMs: RUN_TIMEOUT_MS, stopWhen });
    const missed = declared.filter((id) => !(expected === 'warn' ? warned : violated).has(id));
    const row: MatrixRow = {
      fault: fault ? `${fault.name}${profile !== (fault.profile ?? 'spec') ? ` (${profile} profile)` : ''}` : 'clean',
      description: fault?.description ?? 'The reference implementation without a fault.',
      profile,
      conformanceSeed,
      referenceSeed,
      requirements: declared,
      expected,
      outcome: judge(expected, run.stopped, ended, run.code, violated.size + warned.size, missed),
      missed,
      violated: [...violated].sort(),
      warned: [...warned].sort(),
      stoppedEarly: run.stopped,
      exitCode: run.stopped ? null : run.code,
      testsRun: tests.length,
      requestsToDetect: detectedAt === undefined ? null : answeredAt.filter((time) => time <= detectedAt!).length,
      requests: answeredAt.length,
      startedAt: new Date(started).toISOString(),
      seconds: (Date.now() - started) / 1000,
    };
    if (row.outcome === 'survived') row.problem = explain(row, ended, run.stderr);
    return row;
  } finally {
    await reference.close();
  }
}

function judge(expected: Expectation, stopped: boolean, ended: boolean, code: number | null, reports: number, missed: string[]): Outcome {
  if (expected === 'fail') return stopped && missed.length === 0 ? 'killed' : 'survived';
  if (!ended) return 'survived';
  if (expected === 'pass') return code === 0 && reports === 0 ? 'passed' : 'survived';
  return code === 0 && missed.length === 0 ? 'warned' : 'survived';
}

function explain(row: MatrixRow, ended: boolean, stderr: string): string {
  const reported = `exit ${row.exitCode}; violated [${row.violated.join(', ') || 'nothing'}]; warned [${row.warned.join(', ') || 'nothing'}]`;
  if (!ended) return `the run did not finish: ${reported}\n${stderr.slice(-2000)}`;
  if (row.expected === 'pass') return `the clean reference did not pass cleanly: ${reported}\n${stderr.slice(-2000)}`;
  if (row.expected === 'warn' && row.exitCode !== 0) return `a SHOULD fault must only warn, but the run failed: ${reported}`;
  return `the suite did not report ${row.missed.join(', ')}: ${reported}`;
}
