// Folders for what a self-test's runs write (reports, artefacts, HAR files of up to 90 MB): each a
// fresh one under the system's temporary folder, removed when the process that made it exits. Tests
// of a file share a run through one worker (`once`), so a folder must live as long as the worker, not
// its test. Left behind, they came to some 0.8 GB a run of npm test (21 GB on one machine).
// CONFORMANCE_KEEP_TEST_DIRS=1 keeps them, to look into a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Removes every folder freshDir made in this process, unless CONFORMANCE_KEEP_TEST_DIRS=1 asks to keep them. */
function removeFreshDirs(): void {
  if (process.env.CONFORMANCE_KEEP_TEST_DIRS === '1') return;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A new, empty folder named `prefix-XXXXXX`, removed when this process exits. */
export function freshDir(prefix: string): string {
  if (made.length === 0) process.once('exit', removeFreshDirs);
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}
