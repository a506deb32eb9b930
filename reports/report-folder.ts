// What each command writes into its report folder, and what it says when that folder holds another
// kind of command's report. A run of the suite writes index.html, results.json, junit.xml, results.sarif and
// Playwright's artefacts (test-results/, only the folders that hold a file); the passive commands
// (har, the judging proxy, their merge) write the same four files, summary.md and, for the proxy,
// passive-state.json. Each kind has its own default folder (DEFAULT_REPORT_DIRS), so they meet only
// where REPORT_DIR names one folder for both: the writer then says, in one line, whose report it
// replaces, and removes the other kind's own files, which would otherwise be read as part of the new
// report (`merge` takes a folder with passive-state.json for a proxy's report; a passive report
// beside an active run's test-results/ would seem to have artefacts it never wrote).
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ARTEFACTS_FOLDER, DEFAULT_REPORT_DIRS, type ReportWriter } from '../core/run/config.ts';

/** The files only the passive commands write: their job summary, and the proxy's state for a merge. */
export const PASSIVE_FILES = { summary: 'summary.md', state: 'passive-state.json' } as const;

const WORDS: Readonly<Record<ReportWriter, string>> = {
  run: 'a run of the suite',
  passive: 'a passive command (har or the judging proxy)',
};

/** Which kind of report the folder holds, by the files only that kind writes or by its results.json; undefined when none. */
function heldReport(dir: string): ReportWriter | undefined {
  if (Object.values(PASSIVE_FILES).some((file) => existsSync(join(dir, file)))) return 'passive';
  if (existsSync(join(dir, ARTEFACTS_FOLDER))) return 'run';
  try {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { passive?: unknown };
    return results.passive === undefined ? 'run' : 'passive';
  } catch {
    return undefined;
  }
}

/**
 * Before `writer` writes its report into `dir`: when the folder holds the other kind's report, its
 * own files go, and the line returned says whose report this replaces and where each kind writes by
 * default. Undefined when the folder held no other kind's report.
 */
export function takeOverReportFolder(dir: string, writer: ReportWriter): string | undefined {
  const held = heldReport(dir);
  if (held === undefined || held === writer) return undefined;
  const removed = held === 'passive' ? Object.values(PASSIVE_FILES) : [`${ARTEFACTS_FOLDER}/`];
  for (const file of removed) rmSync(join(dir, file), { recursive: true, force: true });
  const where = relative(process.cwd(), dir) || '.';
  return `Report folder ${where}/ held the report of ${WORDS[held]}: replaced by this one (${removed.join(', ')} removed). Unless REPORT_DIR says otherwise, a run of the suite writes to ${DEFAULT_REPORT_DIRS.run}/ and the passive commands to ${DEFAULT_REPORT_DIRS.passive}/.`;
}

/**
 * Playwright makes a test's artefacts folder whenever the test attaches anything, files or not, and
 * every test attaches the requests it sent (request-log.ts): a run would leave one empty folder per
 * test. Removes every empty folder under `folder`, and the folder itself when nothing is left.
 */
export function removeEmptyFolders(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyFolders(join(folder, entry.name));
  if (readdirSync(folder).length === 0) rmdirSync(folder);
}
