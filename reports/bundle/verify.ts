// Verifying a certification bundle: every file the manifest lists is present with its hash, no file
// was added, and the signature over the manifest's exact bytes holds (under the public key the
// verifier trusts, or else the one the bundle names, which proves integrity but not who signed).
import { existsSync, readFileSync } from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { sha256 } from '../run-metadata.ts';
import { BUNDLE_FORMAT, hashFiles, keyIdOf, MANIFEST_FILE, SIGNATURE_FILE, signatureMatches, type Manifest } from './manifest.ts';

export interface BundleCheck {
  /** What does not match; empty when the bundle verifies. */
  problems: string[];
  /** What holds, and what a reader should know (an unpinned key, an unsigned bundle). */
  notes: string[];
  manifest?: Manifest;
}

export function verifyBundle(dir: string, trustedKey?: KeyObject): BundleCheck {
  const problems: string[] = [];
  const notes: string[] = [];
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath))
    return { problems: [`${MANIFEST_FILE} is missing from ${dir}: this is not a certification bundle`], notes };
  const bytes = readFileSync(manifestPath);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    return { problems: [`${MANIFEST_FILE} is not valid JSON`], notes };
  }
  if (manifest.format !== BUNDLE_FORMAT || !Array.isArray(manifest.files))
    return { problems: [`${MANIFEST_FILE} is not a ${BUNDLE_FORMAT} manifest`], notes };

  const present = new Map(hashFiles(dir).map((entry) => [entry.path, entry]));
  for (const entry of manifest.files) {
    const found = present.get(entry.path);
    if (!found) problems.push(`${entry.path}: listed in the manifest but missing`);
    else if (found.sha256 !== entry.sha256)
      problems.push(`${entry.path}: sha256 is ${found.sha256}, the manifest says ${entry.sha256} (the file was changed)`);
    else notes.push(`${entry.path}: sha256 matches`);
  }
  const listed = new Set(manifest.files.map((entry) => entry.path));
  for (const path of present.keys()) if (!listed.has(path)) problems.push(`${path}: not listed in the manifest (the file was added)`);

  checkSignature(dir, bytes, manifest, trustedKey, problems, notes);
  if (!manifest.certified)
    problems.push(`the bundle is not a certificate: it was refused because ${manifest.refusedBecause.join(' ') || 'of its verdict'}`);
  return { problems, notes, manifest };
}

function checkSignature(
  dir: string,
  bytes: Buffer,
  manifest: Manifest,
  trustedKey: KeyObject | undefined,
  problems: string[],
  notes: string[],
): void {
  const signaturePath = join(dir, SIGNATURE_FILE);
  if (!existsSync(signaturePath)) {
    if (trustedKey)
      problems.push(`the bundle is not signed (${SIGNATURE_FILE} is missing), so it cannot be checked against the given public key`);
    else notes.push('the bundle is not signed: its hashes show it is intact, not who produced it');
    return;
  }
  const signature = readFileSync(signaturePath, 'utf8');
  let key = trustedKey;
  if (!key) {
    if (!manifest.signer) return void problems.push(`${SIGNATURE_FILE} is present but the manifest names no signer`);
    try {
      key = createPublicKey(manifest.signer.publicKey);
    } catch {
      return void problems.push('the manifest names a signer whose public key cannot be read');
    }
  }
  let valid: boolean;
  try {
    valid = signatureMatches(bytes, signature, key);
  } catch {
    valid = false;
  }
  if (!valid) {
    problems.push(
      `the signature does not match ${MANIFEST_FILE} under ${trustedKey ? 'the given public key' : "the bundle's own key"} (the manifest was changed, or signed with another key)`,
    );
    return;
  }
  const keyId = keyIdOf(key);
  if (manifest.signer && manifest.signer.keyId !== keyId)
    problems.push(`the manifest names signer key ${manifest.signer.keyId}, but the signature holds under key ${keyId}`);
  notes.push(
    trustedKey
      ? `the signature holds under the given public key (key id ${keyId})`
      : `the signature holds under the key the bundle names (key id ${keyId}); pass --public-key to check who signed it`,
  );
  notes.push(`manifest sha256 ${sha256(bytes)}`);
}
