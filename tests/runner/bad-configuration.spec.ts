// Bad configuration stops the run before any test, with one line naming the variable.
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite } from './run-suite.ts';

const cases: Array<[string, Record<string, string>]> = [
  ['CALLS_BASE_URL', { CALLS_BASE_URL: 'ftp://calls.example.test/v3', CHAT_BASE_URL: 'https://chat.example.test/v3', API_KEY: 'k' }],
  ['REGION', { APP_ID: 'abc123', REGION: 'mars', API_KEY: 'k' }],
  ['API_KEY', { APP_ID: 'abc123', REGION: 'us' }],
  ['REFERENCE_CALLS', { REFERENCE_CALLS: 'many' }],
  // The ones the issue of real targets names: a base URL without /v3, a non-numeric or too small
  // budget, an unknown profile, a key with whitespace.
  ['CHAT_BASE_URL', { CALLS_BASE_URL: 'https://calls.example.test/v3', CHAT_BASE_URL: 'https://chat.example.test', API_KEY: 'k' }],
  ['REQUEST_BUDGET', { APP_ID: 'abc123', REGION: 'us', API_KEY: 'k', REQUEST_BUDGET: 'a thousand' }],
  ['REQUEST_BUDGET', { APP_ID: 'abc123', REGION: 'us', API_KEY: 'k', REQUEST_BUDGET: '40' }],
  ['CONFORMANCE_PROFILE', { CONFORMANCE_PROFILE: 'lenient' }],
  ['API_KEY', { APP_ID: 'abc123', REGION: 'us', API_KEY: 'key with spaces' }],
  ['MAX_RPS', { MAX_RPS: 'fast' }],
  ['MAX_IN_FLIGHT', { MAX_IN_FLIGHT: 'many' }],
  ['TRACE_HEADERS', { TRACE_HEADERS: 'off' }],
];

for (const [variable, env] of cases) {
  test(`a bad ${variable} (${Object.values(env).at(-1)}) ends the run with exit code 2 and one line naming it, before any test`, async () => {
    const run = await runSuite(['--project=conformance'], env);

    expect(run.code).toBe(2);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${variable} `));
    expect(run.stdout).not.toMatch(/Running \d+ test/);
  });
}

test('a bad value in the env file stops the run the same way, naming the variable', async () => {
  const envFile = join(freshDir('env-file'), '.env');
  writeFileSync(envFile, 'APP_ID=abc123\nREGION=mars\nAPI_KEY=k\n');

  const run = await runSuite(['--project=conformance'], { ENV_FILE: envFile });

  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe('Configuration error: REGION must be one of us, eu, in (got "mars")');
});

test('more workers than MAX_IN_FLIGHT ends the run with exit code 2 and one line naming it, before any request', async () => {
  const run = await runSuite(['--project=conformance', '--workers=3'], { MAX_IN_FLIGHT: '2', CONFORMANCE_SEED: '1' });

  expect(run.code).toBe(2);
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toEqual([expect.stringMatching(/^Configuration error: MAX_IN_FLIGHT 2 is fewer than the 3 workers/)]);
  expect(run.stdout).not.toMatch(/passed|failed/);
});
