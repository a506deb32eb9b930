// The self-tests' folders (tests/fresh-dir.ts) last as long as the process that made them, and
// no longer, unless asked to be kept.
import { test, expect } from '@playwright/test';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runNode } from './run-suite.ts';

const FRESH_DIR = fileURLToPath(new URL('../fresh-dir.ts', import.meta.url));
/** A process that makes two folders, fills one, prints both, and exits with 3. */
const MAKER = `import { freshDir } from ${JSON.stringify(FRESH_DIR)}; import { writeFileSync, mkdirSync } from 'node:fs';
const a = freshDir('fresh-dir-test'); const b = freshDir('fresh-dir-test');
mkdirSync(a + '/deep/er', { recursive: true }); writeFileSync(a + '/deep/er/file', 'x');
console.log(JSON.stringify([a, b])); process.exitCode = 3;`;

const made = (stdout: string) => JSON.parse(stdout) as string[];

test('the folders a process made are there while it runs and gone when it exits, contents and all', async () => {
  const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', MAKER]);
  expect(run.code, run.stderr).toBe(3);
  const dirs = made(run.stdout);
  expect(dirs).toHaveLength(2);
  expect(new Set(dirs).size).toBe(2);
  for (const dir of dirs) expect(existsSync(dir), dir).toBe(false);
});

test('CONFORMANCE_KEEP_TEST_DIRS=1 keeps them, to look into a failure', async () => {
  const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', MAKER], { CONFORMANCE_KEEP_TEST_DIRS: '1' });
  const dirs = made(run.stdout);
  try {
    expect(existsSync(`${dirs[0]}/deep/er/file`)).toBe(true);
    expect(existsSync(dirs[1]!)).toBe(true);
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});
