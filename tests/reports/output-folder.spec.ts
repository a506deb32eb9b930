// A run writes into REPORT_DIR and nowhere else in the folder it is started from: Playwright's own
// artefacts (error contexts, traces, attachments) included, which it would otherwise put in a
// test-results/ of the working directory, next to the user's files (issue 45). Run as a user runs it,
// from a folder of their own, with a fault so that a failed test leaves an artefact to find.
import { test, expect } from '@playwright/test';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT, referenceTargetEnv, runNode } from '../runner/run-suite.ts';
import { CLI, freshDir, SUITE_RUN_TIMEOUT_MS, withReference } from './report-runs.ts';

const FAULT = 'get-answers-next-call';
/** tsx by its file: the bare name resolves from the working directory, which here is not the project. */
const TSX = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

/** Every folder under `dir` that holds nothing. */
const emptyFoldersUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(entry.parentPath, entry.name)).length === 0)
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

test(`npm run conformance from a folder of the user's: the reports and Playwright's artefacts all in REPORT_DIR, nothing else written there, no empty folder left, and a passive report it replaces named (the fault ${FAULT}, so that artefacts exist)`, async () => {
  const working = freshDir('working-folder');
  // REPORT_DIR names the folder a judging proxy wrote to: its summary and state are not this run's.
  mkdirSync(join(working, 'reports'));
  for (const file of ['summary.md', 'passive-state.json']) writeFileSync(join(working, 'reports', file), '{}');
  const run = await withReference(FAULT, (base) =>
    runNode(
      ['--import', TSX, join(PROJECT_ROOT, CLI.conformance), '--grep', '@get-call'],
      { ...referenceTargetEnv(base), REPORT_DIR: 'reports', CONFORMANCE_RETRIES: '0' },
      { timeoutMs: SUITE_RUN_TIMEOUT_MS, cwd: working },
    ),
  );
  expect(run.code, run.stderr).toBe(1);
  expect(readdirSync(working)).toEqual(['reports']);
  const written = filesUnder(join(working, 'reports'));
  for (const report of ['index.html', 'results.json', 'junit.xml', 'results.sarif']) expect(written).toContain(report);
  // Each failed test's error context, in the reports' test-results/.
  const contexts = written.filter((file) => file.endsWith('error-context.md'));
  expect(contexts.length).toBeGreaterThan(0);
  for (const file of contexts) expect(file).toMatch(/^test-results\//);
  // Playwright makes a folder for every test that attaches anything; only those with a file stay.
  expect(emptyFoldersUnder(join(working, 'reports'))).toEqual([]);
  expect(written).not.toContain('summary.md');
  expect(written).not.toContain('passive-state.json');
  expect(run.stdout).toContain(
    'Report folder reports/ held the report of a passive command (har or the judging proxy): replaced by this one (summary.md, passive-state.json removed).',
  );
});

test(`certify from a folder of the user's, without --output: the bundle holds no artefacts, and nothing else is written there (the fault ${FAULT}, so that artefacts exist)`, async () => {
  const working = freshDir('working-folder');
  const run = await withReference(FAULT, (base) =>
    runNode(
      ['--import', TSX, join(PROJECT_ROOT, CLI.certify), '--out', 'bundle'],
      { ...referenceTargetEnv(base), CONFORMANCE_RETRIES: '0' },
      {
        timeoutMs: SUITE_RUN_TIMEOUT_MS,
        cwd: working,
      },
    ),
  );
  expect(run.stdout).toContain('Certification REFUSED');
  expect(readdirSync(working)).toEqual(['bundle']);
  const bundled = filesUnder(join(working, 'bundle'));
  expect(bundled).toContain('manifest.json');
  expect(bundled.filter((file) => file.startsWith('test-results/'))).toEqual([]);
});
