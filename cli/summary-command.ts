// `npm run conformance -- summary [REPORT_DIR] [--report-url URL]`: a report folder's job summary,
// in Markdown on stdout, for a CI step to append to its page or post on a pull request (action.yml
// does both). An active run's summary is made here from its results.json; a passive one's is the
// summary its own report wrote (passive-report.ts), made again from the same file; a diff's
// (docs/diff.md: its results.json says `"kind": "diff"`) from the diff object it holds.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readResultsFile, resultsPathOf } from '../core/results/results-file.ts';
import { visible } from '../core/results/visible.ts';
import { renderDiffSummary, renderRunSummary } from '../reports/job-summary.ts';
import type { DiffResults } from '../reports/diff-report.ts';
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
    const link = parsed.values['report-url'];
    const diff = diffReportIn(folder);
    const report = diff === undefined ? readResultsFile(folder) : undefined;
    const markdown = diff
      ? renderDiffSummary(diff.diff, diff.seed, link)
      : report!.passive
        ? renderPassiveSummary(report!)
        : renderRunSummary(report!, link);
    process.stdout.write(visible(markdown));
    return EXIT.conformant;
  } catch (error) {
    process.stderr.write(`summary: ${visible((error as Error).message.split('\n')[0]!)}\n`);
    return EXIT.error;
  }
}

/**
 * A diff report's results.json, when the folder holds one; else undefined (a run's, read as one). Its
 * shape is checked before anything is read of it: it is a file, and what a target sent went into it.
 */
function diffReportIn(folder: string): { seed: unknown; diff: DiffResults } | undefined {
  const path = resultsPathOf(folder);
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { kind?: unknown }).kind !== 'diff') return undefined;
  const { seed, diff } = parsed as { seed: unknown; diff: Partial<Record<keyof DiffResults, unknown>> | undefined };
  const lists = ['findings', 'operations', 'readingsChanged', 'inconclusive', 'ignored'] as const;
  const findingsWell =
    Array.isArray(diff?.findings) && diff.findings.every((finding: { because?: unknown }) => Array.isArray(finding?.because));
  if (diff === undefined || !lists.every((name) => Array.isArray(diff[name])) || !findingsWell)
    throw new Error(`${path} is a diff's results.json without its diff object`);
  return { seed, diff: diff as DiffResults };
}

function usage(problem: string): number {
  process.stderr.write(`summary: ${problem}\nUsage: ${commandLineHere()} summary [REPORT_DIR] [--report-url URL]\n`);
  return EXIT.error;
}
