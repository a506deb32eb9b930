// `npm run conformance -- summary [REPORT_DIR] [--report-url URL]`: a report folder's job summary,
// in Markdown on stdout, for a CI step to append to its page or post on a pull request (action.yml
// does both). An active run's summary is made here from its results.json; a passive one's is the
// summary its own report wrote (passive-report.ts), made again from the same file.
import { parseArgs } from 'node:util';
import { readResultsFile } from '../core/results/results-file.ts';
import { visible } from '../core/results/visible.ts';
import { renderRunSummary } from '../reports/job-summary.ts';
import { renderPassiveSummary } from '../passive/passive-report.ts';
import { reportDirectory, environment } from '../core/run/config.ts';
import { commandLineHere } from '../core/results/replay-command.ts';
import { EXIT } from './playwright-run.ts';

export function printSummary(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { 'report-url': { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    return usage((error as Error).message);
  }
  if (parsed.positionals.length > 1) return usage('one report folder at most');
  const folder = parsed.positionals[0] ?? reportDirectory(environment());
  try {
    const report = readResultsFile(folder);
    const markdown = report.passive ? renderPassiveSummary(report) : renderRunSummary(report, parsed.values['report-url']);
    process.stdout.write(visible(markdown));
    return EXIT.conformant;
  } catch (error) {
    process.stderr.write(`summary: ${visible((error as Error).message.split('\n')[0]!)}\n`);
    return EXIT.error;
  }
}

function usage(problem: string): number {
  process.stderr.write(`summary: ${problem}\nUsage: ${commandLineHere()} summary [REPORT_DIR] [--report-url URL]\n`);
  return EXIT.error;
}
