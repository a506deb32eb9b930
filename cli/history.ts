// `calls-conformance history [--trim N] [FILE]`: the runs' history (FILE, or HISTORY_FILE) in brief,
// a line a run, target by target, then what the history marks in each target's last run (flaky,
// new failures, fixed, readings changed); `--trim N` first keeps the last N runs only, written back
// whole by a rename. The lines it cannot read are said on stderr, skipped, and kept in the file.
// Exit 0, or 2 on a bad command line or a file it cannot read or write.
import { environment, loadPassiveConfig } from '../core/run/config.ts';
import { ConfigError, configErrorLine } from '../core/run/config-error.ts';
import { readHistory, trimmed, writeHistory, type HistoryContents } from '../core/history/history-file.ts';
import { decodeOutcomes, type HistoryRun } from '../core/history/history-line.ts';
import { MAX_HISTORY_LIMIT } from '../core/history/history-settings.ts';
import { historyCatalog } from '../core/history/record-run.ts';
import { historySummary, type HistoryCatalog } from '../core/history/history-summary.ts';
import { visibleLine } from '../core/results/visible.ts';
import { commandLineHere } from '../core/results/replay-command.ts';
import { historyFindings } from '../reports/history-text.ts';
import { EXIT } from './playwright-run.ts';

export function runHistory(args: readonly string[]): number {
  const options = readArgs(args);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\nUsage: ${commandLineHere()} history [--trim N] [FILE]   (FILE: HISTORY_FILE when not given)\n`);
    return EXIT.error;
  }
  let file = options.file;
  try {
    file ??= loadPassiveConfig(environment()).history?.file;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${configErrorLine(error)}\n`);
    return EXIT.error;
  }
  if (file === undefined) {
    process.stderr.write('history: name the history file, or set HISTORY_FILE\n');
    return EXIT.error;
  }
  let contents = readHistory(file);
  for (const problem of contents.problems) process.stderr.write(`history: ${visibleLine(problem)}\n`);
  if (contents.unreadable) return EXIT.error;
  if (options.trim !== undefined) {
    const trimmedContents = trimHistory(file, contents, options.trim);
    if (trimmedContents === undefined) return EXIT.error;
    contents = trimmedContents;
  }
  process.stdout.write(`${describeHistory(file, contents, historyCatalog()).join('\n')}\n`);
  return EXIT.conformant;
}

function readArgs(args: readonly string[]): { trim?: number; file?: string } | string {
  const options: { trim?: number; file?: string } = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--trim' || arg.startsWith('--trim=')) {
      const value = arg === '--trim' ? args[++index] : arg.slice('--trim='.length);
      if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_HISTORY_LIMIT)
        return `history: --trim takes the number of runs to keep, from 1 to ${MAX_HISTORY_LIMIT} (got "${value ?? ''}")`;
      options.trim = Number(value);
    } else if (options.file === undefined) options.file = arg;
    else return `history: one file at most (got "${options.file}" and "${arg}")`;
  }
  return options;
}

/** Keeps the last `keep` runs (and every line it could not read), written whole; undefined when it could not write. */
function trimHistory(file: string, contents: HistoryContents, keep: number): HistoryContents | undefined {
  const runs = contents.entries.filter((entry) => entry.kind === 'run').length;
  const entries = trimmed(contents.entries, keep);
  if (entries.length === contents.entries.length) {
    process.stdout.write(`${visibleLine(file)} holds ${runs} run(s), no more than ${keep}: left as it was.\n`);
    return contents;
  }
  try {
    writeHistory(file, entries);
  } catch (error) {
    process.stderr.write(`history: ${visibleLine(file)} could not be written (${(error as NodeJS.ErrnoException).code ?? 'error'})\n`);
    return undefined;
  }
  process.stdout.write(`Trimmed ${visibleLine(file)}: kept the last ${keep} of ${runs} run(s).\n`);
  return { ...contents, entries };
}

/** A line a run, target by target, then what the history marks in each target's last run. */
function describeHistory(file: string, contents: HistoryContents, catalog: HistoryCatalog): string[] {
  const runs = contents.entries.flatMap((entry) => (entry.kind === 'run' ? [entry.run] : []));
  if (runs.length === 0) return [`${visibleLine(file)}: no run yet.`];
  const targets = [...new Set(runs.map((run) => run.target))];
  return [
    `${visibleLine(file)}: ${runs.length} run(s) of ${targets.length} target(s), oldest first.`,
    ...targets.flatMap((target) => {
      const own = runs.filter((run) => run.target === target);
      const findings = historyFindings(historySummary(file, own, catalog)!);
      return [
        '',
        `Target: ${visibleLine(target)}`,
        ...own.map((run) => runLine(run, catalog)),
        `  Last run: ${findings.length === 0 ? 'nothing flaky, no new failure' : visibleLine(findings.join('; '))}.`,
      ];
    }),
  ];
}

/** `  2026-12-06T12:00:00.000Z  NON-CONFORMANT  seed 42  suite 0.1.0  12.3 s  run  pass 80, fail 2` */
function runLine(run: HistoryRun, catalog: HistoryCatalog): string {
  const counts = new Map<string, number>();
  for (const status of decodeOutcomes(run.outcomes, catalog.ids).values()) counts.set(status, (counts.get(status) ?? 0) + 1);
  const outcomes = [...counts].map(([status, count]) => `${status} ${count}`).join(', ') || 'nothing judged';
  return visibleLine(
    `  ${run.at}  ${run.verdict}  seed ${run.seed}  suite ${run.suite}  ${(run.ms / 1000).toFixed(1)} s  ${run.mode}  ${outcomes}`,
  );
}
