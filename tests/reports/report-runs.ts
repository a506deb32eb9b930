// Runs of the suite the way users start them (npm run conformance, certify, verify-bundle), each
// writing its reports into a folder of its own, and the reports read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshDir } from '../fresh-dir.ts';
import { createServer } from '../../reference/server.ts';
import { DEFAULT_CALLS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { runScript, type RunResult } from '../runner/run-suite.ts';

export const CLI = {
  conformance: 'cli/conformance.ts',
  certify: 'cli/certify.ts',
  verifyBundle: 'cli/verify-bundle.ts',
} as const;

/** A whole suite run takes about 10 s alone; on a busy 2-core machine, several times that. */
export const SUITE_RUN_TIMEOUT_MS = 240_000;

/** What the self-tests' runs write goes into folders of their own, gone when the worker exits (fresh-dir.ts). */
export { freshDir };

export interface Reports {
  results: ConformanceReport;
  junit: string;
  html: string;
}

export function readReports(dir: string): Reports {
  return {
    results: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ConformanceReport,
    junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    html: readFileSync(join(dir, 'index.html'), 'utf8'),
  };
}

/** `npm run conformance -- ARGS` with REPORT_DIR set, and Playwright's artefacts in a folder of their own. */
export function runConformance(reportDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<RunResult> {
  return runScript(
    CLI.conformance,
    [...args, `--output=${freshDir('artefacts')}`],
    { REPORT_DIR: reportDir, ...env },
    SUITE_RUN_TIMEOUT_MS,
  );
}

/** The reference on a free port with the named fault (none: the clean reference) while `body` runs. */
export async function withReference<T>(faultName: string | undefined, body: (base: string) => Promise<T>): Promise<T> {
  const fault = faultName === undefined ? undefined : findFault(faultName);
  if (faultName !== undefined && !fault) throw new Error(`No fault named ${faultName}`);
  const reference = createServer({ calls: fault?.calls ?? DEFAULT_CALLS, ...(fault && { fault }) });
  const base = await reference.listen(0);
  try {
    return await body(base);
  } finally {
    await reference.close();
  }
}

/** Runs `compute` once per worker process, however many tests ask. */
export function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= compute());
}
