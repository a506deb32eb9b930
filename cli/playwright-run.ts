// The suite as the command-line entries run it: Playwright as a child process with the terminal
// passed through, then the verdict read back from the results.json the conformance reporter wrote.
// Exit codes: 0 conformant, 1 non-conformant, 2 configuration or suite error, 3 inconclusive.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { environment, reportDirectory } from '../core/run/config.ts';
import { REPORT_FILES } from '../reports/conformance-reporter.ts';
import type { ConformanceReport } from '../core/results/report-model.ts';
import { PLAYWRIGHT_CONFIG, suitePlace } from '../core/run/package-paths.ts';
import { LAUNCHER_VARIABLE } from '../core/results/replay-command.ts';

export const EXIT = { conformant: 0, nonConformant: 1, error: 2, inconclusive: 3 } as const;
const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export interface SuiteOutcome {
  code: number;
  report?: ConformanceReport;
  reportDir: string;
  /** Why there is no verdict, when there is none and nothing has said so yet. */
  problem?: string;
}

/**
 * Playwright's blob and HTML reporters write beside the config by default: for an installed suite,
 * inside node_modules. They write to the current directory instead, as the suite's reports do,
 * unless their variables say otherwise.
 */
function reportFoldersHere(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PLAYWRIGHT_BLOB_OUTPUT_DIR: resolve('blob-report'), PLAYWRIGHT_HTML_OUTPUT_DIR: resolve('playwright-report'), ...env };
}

/** Runs `playwright <args>` (test or merge-reports) and turns what it wrote into an exit code. */
export async function runWithVerdict(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<SuiteOutcome> {
  const reportDir = resolve(reportDirectory(environment(env)));
  const resultsPath = join(reportDir, REPORT_FILES.json);
  // A results.json left by an earlier run must not pass for this run's verdict.
  rmSync(resultsPath, { force: true });
  const code = await new Promise<number>((done) => {
    // The suite's own config, named: run from another project's directory, Playwright would find none.
    // merge-reports reads no config unless told to, and the suite's would judge the environment again.
    const [command, ...rest] = args;
    const config = command === 'test' ? [`--config=${PLAYWRIGHT_CONFIG}`] : [];
    const argv = [PLAYWRIGHT_CLI, command!, ...config, ...rest];
    // Its failures are to name this command line, in its form here, not Playwright, as the way to replay them (replay-command.ts).
    const child = spawn(process.execPath, argv, {
      stdio: 'inherit',
      env: { ...reportFoldersHere(env), [LAUNCHER_VARIABLE]: suitePlace() },
    });
    // Ctrl-C reaches the whole process group, Playwright included, which then ends the run and still
    // writes its reports: the wrapper only waits. A SIGTERM sent to the wrapper alone is passed on.
    const wait = () => {};
    const forward = () => child.kill('SIGTERM');
    process.on('SIGINT', wait).on('SIGTERM', forward);
    child.on('close', (exitCode, signal) => {
      process.off('SIGINT', wait).off('SIGTERM', forward);
      done(exitCode ?? (signal ? 128 : EXIT.error));
    });
    child.on('error', () => done(EXIT.error));
  });
  // The configuration check in playwright.config.ts has already said what is wrong, in one line.
  if (code === EXIT.error) return { code: EXIT.error, reportDir };
  if (!existsSync(resultsPath)) {
    return {
      code: EXIT.error,
      reportDir,
      problem: `the suite ended (exit ${code}) without writing ${resultsPath}; was the conformance reporter replaced with --reporter?`,
    };
  }
  const report = JSON.parse(readFileSync(resultsPath, 'utf8')) as ConformanceReport;
  return { code: report.exitCode, report, reportDir };
}
