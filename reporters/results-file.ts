// A run's results.json read back, from its path or the folder that holds it: the input of
// `npm run conformance -- compare` and of BASELINE. Anything else is refused with one line.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './report-model.ts';

export const RESULTS_FORMAT = 'calls-conformance-results/1';

export function resultsPathOf(pathOrDir: string): string {
  return existsSync(pathOrDir) && statSync(pathOrDir).isDirectory() ? join(pathOrDir, 'results.json') : pathOrDir;
}

export function readResultsFile(pathOrDir: string): ConformanceReport {
  const path = resultsPathOf(pathOrDir);
  if (!existsSync(path)) throw new Error(`${pathOrDir} is not a results.json, nor a folder that holds one`);
  let parsed: Partial<ConformanceReport>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConformanceReport>;
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (parsed.format !== RESULTS_FORMAT || !Array.isArray(parsed.requirements)) throw new Error(`${path} is not a conformance results.json (format ${RESULTS_FORMAT})`);
  return parsed as ConformanceReport;
}
