// The certification bundle's manifest: what was run (suite version and commit, the OpenAPI document
// and requirement catalog by hash, the redacted configuration, seed, times, target addresses) and
// the sha256 of every file beside it. An Ed25519 signature of the manifest's exact bytes, in
// manifest.json.sig, binds all of it to the key that signed it.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { sha256 } from '../run-metadata.ts';

export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.json.sig';
export const BUNDLE_FORMAT = 'calls-conformance-bundle/1';

export interface FileEntry {
  path: string;
  sha256: string;
  bytes: number;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  /** True only for a run that may be certified; a refused bundle is never signed. */
  certified: boolean;
  refusedBecause: string[];
  verdict: ConformanceReport['verdict'];
  verdictReason: string;
  specification: string;
  suite: ConformanceReport['run']['suite'];
  openapi: ConformanceReport['run']['openapi'];
  catalog: ConformanceReport['run']['catalog'];
  profile: string;
  seed: number;
  configuration: Record<string, unknown>;
  target: string;
  targetAddresses: string[];
  startedAt: string;
  endedAt: string;
  files: FileEntry[];
  signer?: { algorithm: 'Ed25519'; keyId: string; publicKey: string };
}

/** Every file under `dir` (but the manifest and its signature), with its hash, in a stable order. */
export function hashFiles(dir: string): FileEntry[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  return walk(dir)
    .map((file) => relative(dir, file).split(sep).join('/'))
    .filter((path) => path !== MANIFEST_FILE && path !== SIGNATURE_FILE)
    .sort()
    .map((path) => {
      const bytes = readFileSync(join(dir, path));
      return { path, sha256: sha256(bytes), bytes: statSync(join(dir, path)).size };
    });
}

export function manifestFor(
  report: ConformanceReport,
  refusals: string[],
  files: FileEntry[],
  signingKey: KeyObject | undefined,
): Manifest {
  const { run } = report;
  return {
    format: BUNDLE_FORMAT,
    certified: refusals.length === 0,
    refusedBecause: refusals,
    verdict: report.verdict,
    verdictReason: report.verdictReason,
    specification: report.specification,
    suite: run.suite,
    openapi: run.openapi,
    catalog: run.catalog,
    profile: run.profile,
    seed: run.seed,
    configuration: run.configuration,
    target: run.target,
    targetAddresses: run.targetAddresses,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    files,
    ...(signingKey && refusals.length === 0 && { signer: signerOf(signingKey) }),
  };
}

/** Reads an Ed25519 private key (PEM or DER PKCS#8); anything else is refused with what it is. */
export function readSigningKey(path: string): KeyObject {
  const key = createPrivateKey(readFileSync(path));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`is a ${key.asymmetricKeyType ?? 'symmetric'} key, not an Ed25519 private key`);
  return key;
}

export function readPublicKey(path: string): KeyObject {
  const key = createPublicKey(readFileSync(path));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`is a ${key.asymmetricKeyType ?? 'symmetric'} key, not an Ed25519 public key`);
  return key;
}

/** A key's id: the sha256 of its public key (SubjectPublicKeyInfo, DER), as the bundle names it. */
export const keyIdOf = (key: KeyObject): string =>
  sha256((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }));

function signerOf(privateKey: KeyObject): NonNullable<Manifest['signer']> {
  const publicKey = createPublicKey(privateKey);
  return { algorithm: 'Ed25519', keyId: keyIdOf(publicKey), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export const signManifest = (bytes: Buffer, privateKey: KeyObject): string => sign(null, bytes, privateKey).toString('base64');
export const signatureMatches = (bytes: Buffer, signature: string, publicKey: KeyObject): boolean =>
  verify(null, bytes, publicKey, Buffer.from(signature.trim(), 'base64'));
