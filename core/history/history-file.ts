// HISTORY_FILE on disk: read line by line as bytes, each line a run of this suite's format or a line
// kept as it is (not JSON, another tool's, another version's, too long to read), with why; written
// whole to a file of its own beside it and renamed over it (POSIX makes the rename atomic), so a
// reader, or a run killed while writing, never leaves half a history. A kept line is reported and
// skipped, never fatal, and written back byte for byte: the history never loses what it did not write.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runLineProblem, type HistoryRun } from './history-line.ts';

/** A run's line is under 2 KB; a line eight times that long is no run of ours, and is kept unread. */
export const MAX_LINE_BYTES = 16 * 1024;
/** A history of thousands of runs; a larger file is left alone (not read, not written) and said so. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

export type HistoryEntry = { kind: 'run'; run: HistoryRun; bytes: Buffer } | { kind: 'kept'; bytes: Buffer };

export interface HistoryContents {
  /** Every non-empty line, in the file's order (oldest first). */
  entries: HistoryEntry[];
  /** One line per line kept unread, or why the file could not be read; each names the file and the line. */
  problems: string[];
  /** The file could not be read whole: it must not be written over. */
  unreadable: boolean;
}

/** The history in `path`; an absent file is an empty history. Never throws. */
export function readHistory(path: string): HistoryContents {
  const refused = (why: string): HistoryContents => ({ entries: [], problems: [`${path} ${why}; left as it is`], unreadable: true });
  if (!existsSync(path)) return { entries: [], problems: [], unreadable: false };
  let bytes: Buffer;
  try {
    const size = statSync(path);
    if (!size.isFile()) return refused('is not a file');
    if (size.size > MAX_FILE_BYTES) return refused(`is larger than ${MAX_FILE_BYTES / 2 ** 20} MiB (${size.size} bytes)`);
    bytes = readFileSync(path);
  } catch (error) {
    return refused(`could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const entries: HistoryEntry[] = [];
  const problems: string[] = [];
  splitLines(bytes).forEach((line, index) => {
    if (line.toString('latin1').trim() === '') return;
    const problem = lineProblem(line);
    if (problem === undefined) entries.push({ kind: 'run', run: JSON.parse(line.toString('utf8')) as HistoryRun, bytes: line });
    else {
      entries.push({ kind: 'kept', bytes: line });
      problems.push(`${path}:${index + 1} ${problem}: skipped, and kept in the file`);
    }
  });
  return { entries, problems, unreadable: false };
}

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function lineProblem(line: Buffer): string | undefined {
  if (line.length > MAX_LINE_BYTES) return `is longer than ${MAX_LINE_BYTES} bytes (${line.length})`;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(line));
  } catch {
    return 'is not JSON text';
  }
  return runLineProblem(value);
}

/** The entries with the oldest runs dropped, so that at most `limit` remain; kept lines stay where they are. */
export function trimmed(entries: readonly HistoryEntry[], limit: number): HistoryEntry[] {
  let excess = entries.filter((entry) => entry.kind === 'run').length - limit;
  return entries.filter((entry) => entry.kind === 'kept' || excess-- <= 0);
}

/** Writes the entries whole, one a line, by a rename over `path` (its folder made when missing). */
export function writeHistory(path: string, entries: readonly HistoryEntry[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temporary, Buffer.concat(entries.flatMap((entry) => [entry.bytes, Buffer.from('\n')])));
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The run as the line written for it: `protect` (the redactor, the escapes) applied, and checked to read back as itself. */
export function runEntry(run: HistoryRun, protect: (text: string) => string): HistoryEntry {
  const text = protect(JSON.stringify(run));
  const bytes = Buffer.from(text, 'utf8');
  const problem = lineProblem(bytes);
  if (problem !== undefined) throw new Error(`the run's history line ${problem}`);
  return { kind: 'run', run: JSON.parse(text) as HistoryRun, bytes };
}

export interface Appended {
  /** The lines skipped (and kept), or why nothing was written. */
  problems: string[];
  written: boolean;
  /** The history with this run last, oldest first: as the file now holds it, or would have, had it been written. */
  runs: HistoryRun[];
}

/** Adds the run's line at the end and drops the oldest runs past `limit`; never throws. */
export function appendRun(path: string, entry: HistoryEntry, limit: number): Appended {
  const contents = readHistory(path);
  const runsOf = (entries: readonly HistoryEntry[]) => entries.flatMap((each) => (each.kind === 'run' ? [each.run] : []));
  if (contents.unreadable) return { problems: contents.problems, written: false, runs: runsOf([entry]) };
  const entries = trimmed([...contents.entries, entry], limit);
  try {
    writeHistory(path, entries);
  } catch (error) {
    const why = `${path} could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); this run is not in it`;
    return { problems: [...contents.problems, why], written: false, runs: runsOf(entries) };
  }
  return { problems: contents.problems, written: true, runs: runsOf(entries) };
}
