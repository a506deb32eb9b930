// A secondary trusted copy for the A/A pass (SECONDARY_*): when given, the A/A pass asks it instead
// of the primary again, so the noise between two trusted deployments is measured; its key reaches no
// output; a bad value names its variable, exit 2, and so does any of its variables without its address.
import { test, expect } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { childEnv, runScript } from '../runner/run-suite.ts';
import { CLI, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import type { DiffResults } from '../../reports/diff-report.ts';

const PRIMARY_KEY = 'primary-side-key-for-secondary-4d1e';
const SECONDARY_KEY = 'secondary-side-key-never-shown-8c2a';

test.describe.configure({ mode: 'parallel', timeout: SUITE_RUN_TIMEOUT_MS });

test('the A/A pass asks the secondary when one is given: its differences from the primary are the noise measured; its key in no output', async () => {
  // The first door clean (the primary, and the candidate); the second a copy that leaves out a field on group calls.
  const doors = await openTwoDoors(
    { calls: 300, keys: { fullAccess: PRIMARY_KEY } },
    { fault: findFault('receiver-missing-for-groups')!, keys: { fullAccess: SECONDARY_KEY } },
  );
  const dirs = [mkdtempSync(join(tmpdir(), 'diff-secondary-')), mkdtempSync(join(tmpdir(), 'diff-no-secondary-'))];
  try {
    const base = {
      CALLS_BASE_URL: doors.primary,
      CHAT_BASE_URL: doors.primary,
      API_KEY: PRIMARY_KEY,
      CANDIDATE_CALLS_BASE_URL: doors.primary,
      CANDIDATE_CHAT_BASE_URL: doors.primary,
      CANDIDATE_API_KEY: PRIMARY_KEY,
    };
    const secondary = {
      SECONDARY_CALLS_BASE_URL: doors.candidate,
      SECONDARY_CHAT_BASE_URL: doors.candidate,
      SECONDARY_API_KEY: SECONDARY_KEY,
    };
    const [withSecondary, without] = await Promise.all([
      runScript(CLI.conformance, ['diff'], childEnv({ ...base, ...secondary, REPORT_DIR: dirs[0]! }), SUITE_RUN_TIMEOUT_MS),
      runScript(CLI.conformance, ['diff'], childEnv({ ...base, REPORT_DIR: dirs[1]! }), SUITE_RUN_TIMEOUT_MS),
    ]);
    const results = dirs.map((dir) => (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { diff: DiffResults }).diff);
    const listCalls = (diff: DiffResults) => diff.operations.find(({ operation }) => operation === 'listCalls')!;
    // With the secondary, the primary's answers differ from the A/A pass's where the copy leaves the field out.
    expect(listCalls(results[0]!).aaDiffering, withSecondary.stdout).toBeGreaterThan(0);
    expect(results[0]!.findings).toEqual([]);
    // Without it, the primary asked again: nothing differs.
    expect(without.code, without.stdout + without.stderr).toBe(0);
    expect(listCalls(results[1]!).aaDiffering).toBe(0);
    const texts = [
      withSecondary.stdout,
      withSecondary.stderr,
      ...readdirSync(dirs[0]!).map((name) => readFileSync(join(dirs[0]!, name), 'utf8')),
    ];
    for (const text of texts) expect(text.includes(SECONDARY_KEY)).toBe(false);
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await doors.close();
  }
});

test('a secondary variable without its address, or a bad address, names its variable, exit 2', async () => {
  const base = {
    CALLS_BASE_URL: 'http://primary.invalid/v3',
    CHAT_BASE_URL: 'http://primary.invalid/v3',
    API_KEY: PRIMARY_KEY,
    CANDIDATE_CALLS_BASE_URL: 'http://candidate.invalid/v3',
    CANDIDATE_CHAT_BASE_URL: 'http://candidate.invalid/v3',
    CANDIDATE_API_KEY: PRIMARY_KEY,
  };
  const keyOnly = await runScript(CLI.conformance, ['diff'], childEnv({ ...base, SECONDARY_API_KEY: SECONDARY_KEY }));
  expect(keyOnly.code).toBe(2);
  expect(keyOnly.stderr).toMatch(/^Configuration error: SECONDARY_CALLS_BASE_URL is required when SECONDARY_API_KEY is set/);
  const bad = await runScript(
    CLI.conformance,
    ['diff'],
    childEnv({
      ...base,
      SECONDARY_CALLS_BASE_URL: 'not an address',
      SECONDARY_CHAT_BASE_URL: 'http://s.invalid/v3',
      SECONDARY_API_KEY: SECONDARY_KEY,
    }),
  );
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/^Configuration error: SECONDARY_CALLS_BASE_URL /);
  expect(bad.stderr.includes(SECONDARY_KEY)).toBe(false);
  const dry = await runScript(
    CLI.conformance,
    ['diff'],
    childEnv({
      ...base,
      SECONDARY_CALLS_BASE_URL: 'http://s.invalid/v3',
      SECONDARY_CHAT_BASE_URL: 'http://s.invalid/v3',
      SECONDARY_API_KEY: SECONDARY_KEY,
      CONFORMANCE_DRY_RUN: 'true',
    }),
  );
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain('asked of the primary, the secondary and the candidate once each');
});
