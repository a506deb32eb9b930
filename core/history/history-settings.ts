// HISTORY_FILE and HISTORY_LIMIT, as the configuration (core/run/config.ts) reads them once with the
// rest: a bad value stops the run before any test, with one line naming the variable.
import { existsSync, statSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import { ConfigError } from '../run/config-error.ts';

export interface HistorySettings {
  /** The JSON Lines file each run adds its line to (made when missing). */
  file: string;
  /** The most runs it keeps: the oldest go first. */
  limit: number;
}

export const DEFAULT_HISTORY_LIMIT = 100;
export const MAX_HISTORY_LIMIT = 10_000;

/** What a run writes into REPORT_DIR: a history there would be overwritten, or emptied with Playwright's artefacts. */
const REPORT_NAMES = ['index.html', 'results.json', 'junit.xml', 'summary.md', 'passive-state.json'];

/**
 * The settings, or undefined without HISTORY_FILE. `reportDir` is where this run writes its
 * reports, and `artefacts` the folder of it that Playwright empties as a run starts.
 */
export function readHistorySettings(
  file: string | undefined,
  limit: string | undefined,
  where: { reportDir: string; artefacts: string },
): HistorySettings | undefined {
  const kept = readLimit(limit);
  if (file === undefined) return undefined;
  const path = resolve(file);
  if (existsSync(path) && !statSync(path).isFile()) throw new ConfigError('HISTORY_FILE', `must name a file, not a folder (got "${file}")`);
  const inside = (folder: string) => {
    const part = relative(resolve(folder), path);
    return part !== '' && !part.startsWith('..') && !part.startsWith(sep) && part !== path;
  };
  if (inside(resolve(where.reportDir, where.artefacts)) || (inside(where.reportDir) && REPORT_NAMES.includes(basename(path))))
    throw new ConfigError(
      'HISTORY_FILE',
      `names a file a run replaces in REPORT_DIR (${where.reportDir}); keep the history beside it, not in it (got "${file}")`,
    );
  return Object.freeze({ file, limit: kept });
}

function readLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_HISTORY_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_HISTORY_LIMIT)
    throw new ConfigError(
      'HISTORY_LIMIT',
      `must be an integer from 1 to ${MAX_HISTORY_LIMIT}: the most runs the history keeps (got "${value}")`,
    );
  return Number(value);
}
