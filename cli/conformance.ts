// `npm run conformance [-- playwright options]` runs the suite and exits with its verdict:
// 0 conformant, 1 non-conformant, 2 configuration or suite error, 3 inconclusive.
// With CONFORMANCE_DRY_RUN=true (`npm run dry-run`) it lists what a run would send and sends nothing.
// `npm run conformance -- merge DIR` merges the blob reports of sharded runs found in DIR into one
// conformance report (the same as one unsharded run) and exits the same way.
// `npm run conformance -- compare BASE NEW` compares two runs (each a results.json or its folder),
// requirement by requirement, and exits 1 when something newly fails, else 0 (2 on a bad argument).
// `--help` (usage.ts) lists every command, the variables and the exit codes; an unknown command or
// option is refused with the usage, exit 2 (command-line.ts).
// `npm run conformance -- summary [REPORT_DIR]` prints a report's job summary in Markdown (summary-command.ts).
// `npm run conformance -- har FILE...` judges recorded traffic (passive/har.ts, docs/passive.md).
// `npm run conformance -- proxy --target URL [--port N] [--har OUT.har]` runs the judging proxy (proxy.ts).
// `npm run conformance -- history [--trim N] [FILE]` prints the runs' history, and trims it (history.ts).
// `npm run conformance -- diff` compares a candidate's answers with the primary's (diff.ts, docs/diff.md).
import { fileURLToPath } from 'node:url';
import { EXIT, runWithVerdict } from './playwright-run.ts';
import { environment, loadConfig } from '../core/run/config.ts';
import { defaultWorkers } from '../core/run/budget-plan.ts';
import { describeDryRun } from '../core/run/dry-run.ts';
import { compareRuns, describeComparison } from '../reports/compare.ts';
import { readResultsFile, resultsPathOf } from '../core/results/results-file.ts';
import { readCommandLine } from './command-line.ts';
import { answerWithoutRunning } from './commands.ts';
import { ownFile, testFilterArgs } from '../core/run/package-paths.ts';
import { untestedNodeLine } from '../core/run/node-version.ts';
import { commandLineHere } from '../core/results/replay-command.ts';

const REPORTER = fileURLToPath(new URL(ownFile('../reports/conformance-reporter.ts'), import.meta.url));

/** The dry run's listing when CONFORMANCE_DRY_RUN=true; a bad configuration is left to the run to report, in its one line. */
function dryRunListing(): string | undefined {
  try {
    const config = loadConfig(environment());
    return config.dryRun ? describeDryRun(config, defaultWorkers(config)) : undefined;
  } catch {
    return undefined;
  }
}

function compare(paths: string[]): number {
  if (paths.length !== 2) {
    process.stderr.write(`Usage: ${commandLineHere()} compare BASE NEW   (each a results.json, or the folder that holds it)\n`);
    return EXIT.error;
  }
  try {
    const [base, next] = paths.map((path) => readResultsFile(path));
    const comparison = compareRuns(base!, next!, { base: resultsPathOf(paths[0]!), next: resultsPathOf(paths[1]!) });
    process.stdout.write(`${describeComparison(comparison)}\n`);
    return comparison.newlyFailing.length > 0 ? EXIT.nonConformant : EXIT.conformant;
  } catch (error) {
    process.stderr.write(`compare: ${(error as Error).message}\n`);
    return EXIT.error;
  }
}

async function main(commandLine: string[]): Promise<number> {
  const line = readCommandLine(commandLine);
  const answered = await answerWithoutRunning(line);
  if (answered !== undefined || line.kind !== 'command') return answered ?? EXIT.error;
  const { command, args } = line;
  // The suite's runs say it in Playwright's configuration; the commands that do not start Playwright, here.
  const untested = ['compare', 'har', 'proxy', 'summary', 'history', 'diff'].includes(command) ? untestedNodeLine() : undefined;
  if (untested !== undefined) process.stderr.write(`${untested}\n`);
  if (command === 'compare') return compare(args);
  // Each command's modules loaded when it is the one run: the har command judges on a thread that
  // loads its own, and every module this thread loads for nothing is memory the judging does not get.
  if (command === 'har') return (await import('../passive/har-command.ts')).runHar(args);
  if (command === 'summary') return (await import('./summary-command.ts')).printSummary(args);
  if (command === 'proxy') return (await import('../passive/proxy/proxy-command.ts')).runProxy(args);
  if (command === 'history') return (await import('./history.ts')).runHistory(args);
  if (command === 'diff') return (await import('./diff.ts')).runDiffCommand(args);
  if (command === 'dry-run') process.env.CONFORMANCE_DRY_RUN = 'true';
  const listing = command === 'merge' ? undefined : dryRunListing();
  if (listing !== undefined) {
    process.stdout.write(`${listing}\n`);
    return EXIT.conformant;
  }
  if (command === 'merge') {
    const dir = args[0];
    if (dir === undefined || args.length > 1) {
      process.stderr.write(`Usage: ${commandLineHere()} merge BLOB_REPORTS_DIR\n`);
      return EXIT.error;
    }
    const outcome = await runWithVerdict(['merge-reports', `--reporter=${REPORTER}`, dir]);
    if (outcome.problem) process.stderr.write(`No conformance verdict: ${outcome.problem}\n`);
    return outcome.code;
  }
  const outcome = await runWithVerdict(['test', '--project=conformance', ...testFilterArgs(args)]);
  if (outcome.problem) process.stderr.write(`No conformance verdict: ${outcome.problem}\n`);
  return outcome.code;
}

process.exitCode = await main(process.argv.slice(2));
