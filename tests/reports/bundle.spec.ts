// `npm run certify` and `npm run verify-bundle`, run as users run them: a conformant run gives a
// signed bundle that verifies, and any tampering with it is named; a faulty target's run is refused.
import { test, expect } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_PATH } from '../../openapi/catalog.ts';
import { OPENAPI_PATH } from '../../openapi/contract.ts';
import type { Manifest } from '../../reports/bundle/manifest.ts';
import { sha256, sha256OfFile } from '../../reports/run-metadata.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, once, SUITE_RUN_TIMEOUT_MS, withReference } from './report-runs.ts';

test.describe.configure({ mode: 'default' });
test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

function keyPair(dir: string, name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const paths = { privateKey: join(dir, `${name}.pem`), publicKey: join(dir, `${name}.pub.pem`) };
  writeFileSync(paths.privateKey, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(paths.publicKey, publicKey.export({ type: 'spki', format: 'pem' }));
  return paths;
}
const keys = freshDir('keys');
const signer = keyPair(keys, 'vendor');
const stranger = keyPair(keys, 'stranger');

const certify = (args: string[], env: Record<string, string> = {}) =>
  runScript(CLI.certify, [...args, `--output=${freshDir('artefacts')}`], env, SUITE_RUN_TIMEOUT_MS);
const verify = (dir: string, publicKey?: string) => runScript(CLI.verifyBundle, [dir, ...(publicKey ? ['--public-key', publicKey] : [])]);

const certified = once(async () => {
  const bundle = join(freshDir('bundle'), 'certification');
  return { bundle, run: await certify(['--out', bundle, '--signing-key', signer.privateKey]) };
});

/** A copy of the certified bundle, changed by `tamper`, for one verification. */
async function tampered(tamper: (dir: string) => void): Promise<string> {
  const copy = join(freshDir('tampered'), 'bundle');
  cpSync((await certified()).bundle, copy, { recursive: true });
  tamper(copy);
  return copy;
}

test('npm run certify against the embedded reference writes a signed bundle whose manifest says what ran', async () => {
  const { bundle, run } = await certified();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Certified: CONFORMANT.');
  for (const file of ['index.html', 'results.json', 'junit.xml', 'results.sarif', 'manifest.json', 'manifest.json.sig'])
    expect(existsSync(join(bundle, file)), file).toBe(true);

  const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest).toMatchObject({
    format: 'calls-conformance-bundle/1',
    certified: true,
    refusedBecause: [],
    verdict: 'CONFORMANT',
    profile: 'spec',
  });
  expect(manifest.openapi.sha256).toBe(sha256OfFile(OPENAPI_PATH));
  expect(manifest.catalog.sha256).toBe(sha256OfFile(CATALOG_PATH));
  expect(manifest.suite).toMatchObject({ name: 'calls-conformance', version: expect.any(String) });
  expect(manifest.configuration).toMatchObject({ apiKey: '[redacted]', allowWrites: true });
  expect(manifest.targetAddresses).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v3$/)]);
  expect(Date.parse(manifest.endedAt)).toBeGreaterThan(Date.parse(manifest.startedAt));
  expect(manifest.files.map((file) => file.path)).toEqual(['index.html', 'junit.xml', 'results.json', 'results.sarif']);
  for (const file of manifest.files) expect(file.sha256, file.path).toBe(sha256(readFileSync(join(bundle, file.path))));
  expect(manifest.signer?.publicKey).toBe(readFileSync(signer.publicKey, 'utf8'));
});

test("verify-bundle accepts the untouched bundle, under the signer's public key and under the key the bundle names", async () => {
  const { bundle } = await certified();
  const pinned = await verify(bundle, signer.publicKey);
  expect(pinned.code, pinned.stdout + pinned.stderr).toBe(0);
  expect(pinned.stdout).toContain('the signature holds under the given public key');
  expect(pinned.stdout).toContain(`Bundle ${bundle} verifies: CONFORMANT`);
  const unpinned = await verify(bundle);
  expect(unpinned.code).toBe(0);
  expect(unpinned.stdout).toContain('pass --public-key to check who signed it');
});

const tamperings: Array<[string, (dir: string) => void, RegExp]> = [
  [
    'a report changed',
    (dir) => appendFileSync(join(dir, 'results.json'), ' '),
    /PROBLEM {2}results\.json: sha256 is \w+, the manifest says \w+ \(the file was changed\)/,
  ],
  ['a report removed', (dir) => rmSync(join(dir, 'junit.xml')), /PROBLEM {2}junit\.xml: listed in the manifest but missing/],
  [
    'a file added',
    (dir) => writeFileSync(join(dir, 'extra.txt'), 'x'),
    /PROBLEM {2}extra\.txt: not listed in the manifest \(the file was added\)/,
  ],
  [
    'the manifest edited',
    (dir) =>
      writeFileSync(
        join(dir, 'manifest.json'),
        readFileSync(join(dir, 'manifest.json'), 'utf8').replace('"certified": true', '"certified": true '),
      ),
    /PROBLEM {2}the signature does not match manifest\.json under the given public key/,
  ],
  ['the signature removed', (dir) => rmSync(join(dir, 'manifest.json.sig')), /PROBLEM {2}the bundle is not signed/],
  [
    "the manifest's hashes rewritten to match an edited report, without the key",
    (dir) => {
      appendFileSync(join(dir, 'results.json'), ' ');
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
      manifest.files = manifest.files.map((file) =>
        file.path === 'results.json' ? { ...file, sha256: sha256(readFileSync(join(dir, 'results.json'))) } : file,
      );
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    },
    /PROBLEM {2}the signature does not match manifest\.json/,
  ],
];
for (const [what, tamper, problem] of tamperings) {
  test(`verify-bundle refuses a bundle with ${what}, and names the problem`, async () => {
    const run = await verify(await tampered(tamper), signer.publicKey);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(problem);
    expect(run.stdout).toContain('does NOT verify');
  });
}

test("verify-bundle refuses a bundle under a public key other than the signer's", async () => {
  const run = await verify((await certified()).bundle, stranger.publicKey);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain('PROBLEM  the signature does not match manifest.json under the given public key');
});

test('certification is refused for a target with a fault: exit 1, the reasons in an unsigned manifest, and no certificate', async () => {
  const bundle = join(freshDir('bundle-refused'), 'certification');
  const run = await withReference('get-answers-next-call', (base) =>
    certify(['--out', bundle, '--signing-key', signer.privateKey], referenceTargetEnv(base)),
  );
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain('Certification REFUSED; no certificate was issued.');
  const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest).toMatchObject({ certified: false, verdict: 'NON-CONFORMANT' });
  expect(manifest.refusedBecause.join(' ')).toContain('CALLS-GET-OK');
  expect(manifest.signer).toBeUndefined();
  expect(existsSync(join(bundle, 'manifest.json.sig'))).toBe(false);

  const verified = await verify(bundle);
  expect(verified.code).toBe(1);
  expect(verified.stdout).toContain('PROBLEM  the bundle is not a certificate: it was refused because The verdict is NON-CONFORMANT');
});

test('certify stops before any test, with one line, on what cannot give a certificate', async () => {
  const noWrites = await certify(['--out', join(freshDir('bundle-no-writes'), 'b')], {
    CALLS_BASE_URL: 'http://127.0.0.1:9/v3',
    CHAT_BASE_URL: 'http://127.0.0.1:9/v3',
    API_KEY: 'k-123456',
    RESTRICTED_API_KEY: 'r-123456',
  });
  expect(noWrites.code).toBe(2);
  expect(noWrites.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^Configuration error: ALLOW_WRITES must be true for certification/),
  ]);

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const rsaPath = join(keys, 'rsa.pem');
  writeFileSync(rsaPath, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const wrongKey = await certify(['--out', join(freshDir('bundle-rsa'), 'b'), '--signing-key', rsaPath]);
  expect(wrongKey.code).toBe(2);
  expect(wrongKey.stderr).toContain(`certify: --signing-key ${rsaPath} is a rsa key, not an Ed25519 private key`);

  const occupied = freshDir('bundle-occupied');
  writeFileSync(join(occupied, 'earlier.txt'), 'keep me');
  const notEmpty = await certify(['--out', occupied]);
  expect(notEmpty.code).toBe(2);
  expect(notEmpty.stderr).toContain('is not empty');
  expect(readFileSync(join(occupied, 'earlier.txt'), 'utf8')).toBe('keep me');
});
