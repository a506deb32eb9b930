// certify and verify-bundle run as users run them (`npm run certify -- …`, `calls-conformance certify …`):
// an option left without its value, an unknown one, or an option where a value should be is refused
// with one line naming it and then the usage, exit 2, before anything runs; the documented spellings
// (docs/certification.md, docs/passive.md) are read as before. Nothing here runs the suite: the
// accepted command lines stop at the configuration check (certify) or at the bundle (verify-bundle).
import { test, expect } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir } from '../reports/report-runs.ts';

/** A remote target with writes off: certify stops at its configuration check, after reading its options. */
const NO_WRITES = {
  CALLS_BASE_URL: 'http://127.0.0.1:9/v3',
  CHAT_BASE_URL: 'http://127.0.0.1:9/v3',
  API_KEY: 'k-123456',
  RESTRICTED_API_KEY: 'r-123456',
};

const refusals: Array<{ script: keyof typeof CLI; args: string[]; line: string }> = [
  { script: 'certify', args: ['--out'], line: 'certify: option --out needs a value' },
  { script: 'certify', args: ['--out='], line: 'certify: option --out needs a value' },
  { script: 'certify', args: ['--outt', 'b'], line: 'certify: unknown option --outt' },
  {
    script: 'certify',
    args: ['--out', '--output', 'x'],
    line: 'certify: option --out needs a value: --output is an option, not its value',
  },
  { script: 'certify', args: ['--signing-key'], line: 'certify: option --signing-key needs a value' },
  { script: 'certify', args: ['somewhere'], line: 'certify: unexpected argument somewhere (certification always runs the whole suite)' },
  { script: 'verifyBundle', args: ['b', '--public-key'], line: 'verify-bundle: option --public-key needs a value' },
  { script: 'verifyBundle', args: ['--out', 'b'], line: 'verify-bundle: unknown option --out' },
  {
    script: 'verifyBundle',
    args: ['--public-key', '--out', 'b'],
    line: 'verify-bundle: option --public-key needs a value: --out is an option, not its value',
  },
  { script: 'verifyBundle', args: [], line: 'verify-bundle: no bundle folder given' },
  { script: 'verifyBundle', args: ['a', 'b'], line: 'verify-bundle: unexpected argument b (one bundle folder at a time)' },
];

for (const { script, args, line } of refusals) {
  test(`${script === 'verifyBundle' ? 'verify-bundle' : script} ${args.join(' ')}: refused in one line with the usage, exit 2`, async () => {
    const run = await runScript(CLI[script], args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([line, expect.stringMatching(/^Usage: npm run conformance -- (certify|verify-bundle) /), '']);
  });
}

test('calls-conformance certify --out --output x is refused the same way: --output is not taken as the bundle folder', async () => {
  const run = await runScript(CLI.conformance, ['certify', '--out', '--output', 'x']);
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n')[0]).toBe('certify: option --out needs a value: --output is an option, not its value');
  expect(existsSync(join(PROJECT_ROOT, '--output'))).toBe(false);
});

test("certify reads its documented options, a value after a space or an '=', and goes on to check the configuration", async () => {
  const dir = freshDir('certify-options');
  const key = join(dir, 'signing.pem');
  writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  for (const args of [
    ['--out', join(dir, 'spaced'), '--signing-key', key, '--output', join(dir, 'artefacts')],
    [`--out=${join(dir, 'inline')}`, `--signing-key=${key}`, `--output=${join(dir, 'artefacts')}`],
  ]) {
    const run = await runScript(CLI.certify, args, NO_WRITES);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^Configuration error: ALLOW_WRITES must be true for certification/);
  }
  expect(existsSync(join(dir, 'spaced'))).toBe(true);
  expect(existsSync(join(dir, 'inline'))).toBe(true);
});

test('certify refuses a file as its bundle folder in one line, not with a stack', async () => {
  const file = join(freshDir('certify-file'), 'results.json');
  writeFileSync(file, '{}');
  const run = await runScript(CLI.certify, ['--out', file]);
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n')[0]).toBe(`certify: ${file} is a file; a bundle goes into a new or empty folder`);
});

test('verify-bundle reads the folder before or after --public-key, with a space or an =', async () => {
  const dir = freshDir('verify-options');
  const missing = join(dir, 'no-such.pub.pem');
  for (const args of [
    [dir, '--public-key', missing],
    ['--public-key', missing, dir],
    [`--public-key=${missing}`, dir],
  ]) {
    const run = await runScript(CLI.verifyBundle, args);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`verify-bundle: --public-key ${missing} cannot be read as a PEM or DER public key`);
  }
  // Without a key it goes on to the bundle: an empty folder is not one.
  const empty = await runScript(CLI.verifyBundle, [dir]);
  expect(empty.code, empty.stderr).toBe(1);
  expect(empty.stdout).toContain(`Bundle ${dir} does NOT verify`);
});
