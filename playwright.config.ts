// `conformance` is the product (the suite, run against the configured target or the embedded
// reference). The project's own tests exist only when CONFORMANCE_SELF_TESTS=1 (`npm test` sets it),
// so that a plain `npx playwright test` runs the suite and nothing else: `self` (unit and
// integration tests), `faults` (the kill matrix: the suite against every fault of the reference),
// and `kill-matrix`, the teardown of `faults` that writes the matrix.
// The suite's configuration is read and validated here, before any test: a bad value ends the run
// with one line naming the variable.
import { randomUUID } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import {
  ARTEFACTS_FOLDER,
  ConfigError,
  environment,
  loadConfig,
  REFERENCE_URL_VARIABLE,
  reportDirectory,
  withRuns,
  type SuiteConfig,
} from './core/run/config.ts';
import { configOfThisProcess, settleConfigOfThisProcess } from './core/run/config-of-this-process.ts';
import { addsBlob, isShard } from './core/run/playwright-options.ts';
import { configErrorLine } from './core/run/config-error.ts';
import { defaultWorkers, describePlan, planBudget } from './core/run/budget-plan.ts';
import { describeDryRun } from './core/run/dry-run.ts';
import { RUN_STATE_VARIABLE } from './core/transport/run-state.ts';
import { METADATA_KEY, runMetadata } from './reports/run-metadata.ts';
import { reporterSettings } from './reports/reporter-settings.ts';
import { ownFile, REFERENCE_COMMAND } from './core/run/package-paths.ts';
import { selfTestsNodeLine, untestedNodeLine } from './core/run/node-version.ts';

/** Workers load this file too; what the reports say about the run is computed once, in the runner. */
const inRunner = process.env.TEST_WORKER_INDEX === undefined;

function configOrExit(): SuiteConfig {
  try {
    // Workers inherit what the runner decided (seed, scaled runs, the shared run state).
    return inRunner ? settleConfigOfThisProcess(runnerConfig()) : configOfThisProcess();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${configErrorLine(error)}\n`);
    process.exit(2);
  }
}

/**
 * The runner's configuration, read once, with what it decides for the whole run, handed to every
 * worker through the environment they inherit: a run without CONFORMANCE_SEED gets one here, so
 * that all of them generate from the same seed, and REQUEST_BUDGET scales the property runs.
 */
function runnerConfig(): SuiteConfig {
  const env = environment();
  let config = loadConfig(env);
  const chosen = env.CONFORMANCE_SEED === undefined || env.CONFORMANCE_SEED === '';
  if (chosen) process.env.CONFORMANCE_SEED = String(config.seed);
  if (config.dryRun) {
    process.stdout.write(`${describeDryRun(config, defaultWorkers(config))}\n`);
    process.exit(0);
  }
  if (chosen) process.stderr.write(`Conformance seed ${config.seed} (replay with CONFORMANCE_SEED=${config.seed})\n`);
  if (config.requestBudget !== undefined) {
    const plan = planBudget(config);
    process.env.CONFORMANCE_RUNS = String(plan.runs);
    process.stderr.write(`${describePlan(plan, config.requestBudget)}\n`);
    config = withRuns(config, plan.runs);
  }
  // Shared by the runner (preflight) and the workers: the requests counted against the budget,
  // and whether the target was found unavailable. Made on first use, removed by the teardown.
  process.env[RUN_STATE_VARIABLE] = join(tmpdir(), `conformance-run-${randomUUID()}`);
  return config;
}

const selfTests = process.env.CONFORMANCE_SELF_TESTS === '1';
// A Node outside package.json's engines is named in one line, before anything runs (node-version.ts).
if (inRunner) {
  const unsupported = selfTests ? selfTestsNodeLine() : untestedNodeLine();
  if (unsupported !== undefined) process.stderr.write(`${unsupported}\n`);
  if (selfTests && unsupported !== undefined) process.exit(2);
}
const suite = selfTests ? undefined : configOrExit();

// The self-tests start some thousand Node processes (workers, child suites, references), each
// compiling the same Playwright bundles and project files: Node's compile cache, inherited by every
// one of them (the self-tests' children too, tests/runner/run-suite.ts), spares about a tenth of
// the CPU (docs/self-tests.md). A cache the user chose is kept.
if (selfTests) process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'calls-conformance-compile-cache');

// The embedded reference learns the suite's keys from the environment it inherits from the runner,
// not from webServer.env: Playwright writes its config, webServer included, into its JSON and blob
// reports, and a key the user configured is a secret there too.
if (suite?.target.kind === 'embedded' && inRunner) {
  process.env.API_KEY = suite.apiKey;
  process.env.RESTRICTED_API_KEY = suite.restrictedApiKey ?? '';
}

/** With no remote target, the reference starts on a free port and reports its address on stdout. */
const embeddedReference =
  suite?.target.kind === 'embedded'
    ? {
        command: `${REFERENCE_COMMAND} --port 0 --seed ${suite.target.seed} --calls ${suite.target.calls} --readings ${suite.target.readings} --get-envelope ${suite.target.getEnvelope}${suite.target.alternatives.length === 0 ? '' : ` --alternatives ${suite.target.alternatives.join(',')}`}${suite.target.live === undefined ? '' : ` --live ${suite.target.live}`}${suite.target.settleDelay === undefined ? '' : ` --settle-delay ${suite.target.settleDelay}`}${suite.target.answerAge === undefined ? '' : ` --answer-age ${suite.target.answerAge}`}`,
        wait: { stdout: new RegExp(`reference server listening on (?<${REFERENCE_URL_VARIABLE.toLowerCase()}>http://\\S+)`) },
        stdout: 'ignore' as const,
        stderr: 'pipe' as const,
        timeout: 120_000,
        gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 2_000 },
      }
    : undefined;

/**
 * The suite's reporters. Named here, not by `--reporter=blob` on a shard's command line: that
 * replaces them all, and Playwright, finding none left that prints, adds its own line reporter, one
 * line per test outside a terminal.
 */
function suiteReporters(config: SuiteConfig, blob: boolean): ReporterDescription[] {
  const progress: ReporterDescription =
    config.console === 'verbose' ? ['list'] : [ownFile('./reports/console-reporter.ts'), { verdictFollows: true }];
  // What the conformance reporter needs of the configuration read here, so that it reads none itself.
  const conformance: ReporterDescription = [ownFile('./reports/conformance-reporter.ts'), { settings: reporterSettings(config) }];
  return [progress, conformance, ...(blob ? [['blob'] as ReporterDescription] : [])];
}

/** Workers of the self project while the kill matrix runs (measured: docs/self-tests.md). */
const SELF_PROJECT_WORKERS_BESIDE_THE_MATRIX = 2;

/** The kill matrix runs a whole suite per test, so it may take several minutes on a slow machine. */
const FAULT_RUN_TIMEOUT_MS = 360_000;

export default defineConfig({
  testDir: 'tests',
  // Playwright's artefacts (error contexts, traces, attachments) go where the reports go, into
  // REPORT_DIR's test-results/: nothing of a run lands in the working directory, nor, installed as a
  // package, beside the config in node_modules (Playwright's default). --output overrides it.
  ...(suite && { outputDir: resolve(reportDirectory(environment()), ARTEFACTS_FOLDER) }),
  fullyParallel: true,
  // The conformance reporter writes index.html, results.json and junit.xml (REPORT_DIR) and prints
  // the failed requirements and the verdict; the console reporter shows progress only, unless
  // CONFORMANCE_CONSOLE=verbose asks for Playwright's list with every failure in full. A shard also
  // records a blob report for the merge.
  reporter: suite ? suiteReporters(suite, inRunner && isShard(process.argv) && !addsBlob(process.argv)) : [['list']],
  ...(suite && inRunner && { metadata: { [METADATA_KEY]: runMetadata(suite) } }),
  ...(suite && { globalSetup: ownFile('./core/run/preflight.ts'), globalTeardown: ownFile('./core/run/run-state-teardown.ts') }),
  // The self-tests: the kill matrix (faults) keeps a core busy per worker, while the self project
  // mostly waits (on targets that trickle, on MAX_RPS, on child runs starting), using about half a
  // core per worker. So the matrix gets one worker per core and starts first (it is listed first),
  // and two more workers run the self project beside it, then everything left of it.
  ...(selfTests && { workers: availableParallelism() + SELF_PROJECT_WORKERS_BESIDE_THE_MATRIX }),
  // A target over a network is waited on, not computed on: see defaultWorkers. --workers overrides it.
  ...(suite && { workers: defaultWorkers(suite) }),
  projects: selfTests
    ? [
        {
          name: 'faults',
          testDir: 'tests/faults',
          testMatch: 'kill-matrix.spec.ts',
          timeout: FAULT_RUN_TIMEOUT_MS,
          teardown: 'kill-matrix',
          workers: availableParallelism(),
        },
        // The bench's floor is a Playwright project of its own (tests/bench/floor/playwright.config.ts).
        { name: 'self', testDir: 'tests', testIgnore: ['faults/**', 'bench/floor/**'], timeout: 60_000 },
        { name: 'kill-matrix', testDir: 'tests/faults', testMatch: 'kill-matrix.teardown.ts' },
      ]
    : [{ name: 'conformance', testDir: 'suite', retries: suite?.retries ?? 0 }],
  ...(embeddedReference && { webServer: embeddedReference }),
});
