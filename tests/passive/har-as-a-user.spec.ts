// `npm run conformance -- har FILE` as a user first runs it (issue 54), from a folder of their own
// with a `.env` and the last run's report in it: entries of a host other than the configured one
// say which host was configured, by which variables and where they were set, and how to judge every
// host; the passive report goes to passive-report/, never over conformance-report/ unannounced; and
// the report shows only what applies to recorded traffic (no seed, no requests sent, no rerun with a
// seed), its summary naming the entries that broke a requirement.
import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT, runNode } from '../runner/run-suite.ts';
import { CLI, freshDir } from '../reports/report-runs.ts';
import { harEntry, writeHar } from './har-entries.ts';

const TSX = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const RECORDED = 'http://127.0.0.1:45017/v3';
const STAGING = 'https://staging.example.test/v3';
const KEY = { apikey: 'har-as-a-user-key-5e4d3c', Accept: 'application/json' };
/** The deployed API's published List Calls answer, which breaks no requirement. */
const page: unknown = JSON.parse(readFileSync(new URL('../real-payloads/list-calls.json', import.meta.url), 'utf8'));

/** A user's folder: a `.env` left pointing at staging, and the last run of the suite's report. */
function usersFolder(): string {
  const working = freshDir('users-folder');
  writeFileSync(join(working, '.env'), `CALLS_BASE_URL=${STAGING.replace('staging', 'calls')}\nCHAT_BASE_URL=${STAGING}\nAPI_KEY=k\n`);
  mkdirSync(join(working, 'conformance-report', 'test-results', 'a-failed-test'), { recursive: true });
  writeFileSync(join(working, 'conformance-report', 'results.json'), JSON.stringify({ verdict: 'CONFORMANT', exitCode: 0 }));
  writeFileSync(join(working, 'conformance-report', 'test-results', 'a-failed-test', 'error-context.md'), 'context');
  return working;
}

/** The har command run there as `npm run conformance -- har` runs it: `.env` read from the folder. */
const har = (working: string, file: string, env: Record<string, string> = {}) =>
  // ENV_FILE names the default: the self-tests' children run without an env file unless told (run-suite.ts).
  runNode(['--import', TSX, join(PROJECT_ROOT, CLI.conformance), 'har', file], { ENV_FILE: '.env', ...env }, { cwd: working });

test('a .env pointing at another host: the line names the addresses, the variables and .env, and how to judge every host, which then works', async () => {
  const working = usersFolder();
  const file = writeHar([harEntry({ url: `${RECORDED}/calls`, headers: KEY, status: 200, body: page })]);
  const run = await har(working, file);
  expect(run.code, run.stderr).toBe(3);
  const line = run.stdout.replace(/\s+/g, ' ');
  expect(line).toContain('1 entries of another host were left alone');
  expect(line).toContain(`only entries under ${STAGING.replace('staging', 'calls')} and ${STAGING} are judged`);
  expect(line).toContain('from CALLS_BASE_URL and CHAT_BASE_URL, set in .env');
  expect(line).toContain('run the command with CALLS_BASE_URL= CHAT_BASE_URL= before it');
  const everyHost = await har(working, file, { CALLS_BASE_URL: '', CHAT_BASE_URL: '' });
  expect(everyHost.code, everyHost.stderr).toBe(0);
  expect(everyHost.stdout).toContain('NO VIOLATIONS IN 1 EXCHANGES');
  expect(everyHost.stdout).not.toContain('another host');
});

test("har writes to passive-report/, leaving the last run's report alone; told to write over it (REPORT_DIR), it says so and removes the run's artefacts", async () => {
  const working = usersFolder();
  const file = writeHar([harEntry({ url: `${RECORDED}/calls`, headers: KEY, status: 200, body: page })]);
  const own = await har(working, file, { CALLS_BASE_URL: '', CHAT_BASE_URL: '' });
  expect(own.code, own.stderr).toBe(0);
  expect(own.stdout).toContain(join('passive-report', 'index.html'));
  expect(readdirSync(join(working, 'passive-report')).sort()).toEqual([
    'index.html',
    'junit.xml',
    'results.json',
    'results.sarif',
    'summary.md',
  ]);
  expect(JSON.parse(readFileSync(join(working, 'conformance-report', 'results.json'), 'utf8'))).toEqual({
    verdict: 'CONFORMANT',
    exitCode: 0,
  });
  expect(existsSync(join(working, 'conformance-report', 'test-results', 'a-failed-test', 'error-context.md'))).toBe(true);

  const over = await har(working, file, { CALLS_BASE_URL: '', CHAT_BASE_URL: '', REPORT_DIR: 'conformance-report' });
  expect(over.code, over.stderr).toBe(0);
  expect(over.stdout).toContain(
    'Report folder conformance-report/ held the report of a run of the suite: replaced by this one (test-results/ removed).',
  );
  expect(readdirSync(join(working, 'conformance-report')).sort()).toEqual([
    'index.html',
    'junit.xml',
    'results.json',
    'results.sarif',
    'summary.md',
  ]);
  // Written over its own kind, it says nothing.
  const again = await har(working, file, { CALLS_BASE_URL: '', CHAT_BASE_URL: '', REPORT_DIR: 'conformance-report' });
  expect(again.stdout).not.toContain('held the report');
});

test('the passive report shows what applies to recorded traffic: no seed, no requests sent, a line that judges it again; the summary names the entry', async () => {
  const working = usersFolder();
  // A request without a key answered with a page of calls: AUTH-EMPTY-KEY, in the second entry.
  const file = writeHar([
    harEntry({ url: `${RECORDED}/calls`, headers: KEY, status: 200, body: page }),
    harEntry({ url: `${RECORDED}/calls`, headers: { Accept: 'application/json' }, status: 200, body: page }),
  ]);
  const run = await har(working, file, { CALLS_BASE_URL: '', CHAT_BASE_URL: '' });
  expect(run.code, run.stderr).toBe(1);
  const dir = join(working, 'passive-report');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  expect(html).not.toMatch(/<dt>Seed/);
  expect(html).not.toContain('requests</dd>');
  expect(html).not.toContain('id="requests"');
  expect(html).not.toContain('Writes allowed');
  expect(html).not.toContain('same seed');
  expect(html).toContain('Judge the same traffic again:');
  expect(html).toContain('<dt>Traffic</dt>');
  const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
  const row = summary.split('\n').find((line) => line.startsWith('| AUTH-EMPTY-KEY '));
  expect(row).toBe(`| AUTH-EMPTY-KEY | MUST | ${basename(file)}, entry 2 |`);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  expect(results.passive.violatedIn).toContainEqual({ id: 'AUTH-EMPTY-KEY', violations: 1, entries: [`${basename(file)}, entry 2`] });
});
