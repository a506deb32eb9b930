// `npm run certify [-- --out DIR] [--signing-key FILE]`: runs the whole suite, writes included,
// and writes a certification bundle: the three reports, manifest.json (what ran, against what,
// and the hash of every file) and, for a certified run with a signing key, manifest.json.sig (an
// Ed25519 signature of the manifest). A run where a MUST failed, or a required group was not
// checked, is refused: the reports and an unsigned manifest saying why, and a non-zero exit.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { ConfigError, environment, loadConfig } from '../core/run/config.ts';
import { EXPECTATIONS_VARIABLE } from '../core/results/expectations.ts';
import { hashFiles, manifestFor, MANIFEST_FILE, readSigningKey, SIGNATURE_FILE, signManifest } from '../reports/bundle/manifest.ts';
import { PASSIVE_REFUSAL, refusalsOf } from '../reports/bundle/refusals.ts';
import { readResultsFile } from '../core/results/results-file.ts';
import { EXIT, runWithVerdict } from './playwright-run.ts';
import { helpRequested } from './command-help.ts';
import { readOptions } from '../core/run/read-options.ts';
import { commandLineHere } from '../core/results/replay-command.ts';

const usage = () =>
  `Usage: ${commandLineHere()} certify [--out BUNDLE_DIR] [--signing-key ED25519_PRIVATE_KEY.pem] [--output PLAYWRIGHT_ARTEFACTS_DIR]`;
export const DEFAULT_BUNDLE_DIR = 'certification-bundle';

interface Options {
  out: string;
  /** Playwright's folder for test artefacts (traces, attachments), passed on as its --output. */
  output?: string;
  signingKey?: KeyObject;
}

async function main(argv: string[]): Promise<number> {
  if (helpRequested('certify', argv)) return EXIT.conformant;
  const options = parseOptions(argv);
  // A passive run offered for certification is refused in one line: no usage would help.
  if (typeof options === 'string')
    return fail(options.endsWith(PASSIVE_REFUSAL) ? `certify: ${options}` : `certify: ${options}\n${usage()}`);
  const problem = configurationProblem();
  if (problem) return fail(`Configuration error: ${problem}`);

  // Playwright's artefacts are no part of a bundle: unless --output names a folder for them, they go
  // to a temporary one, removed after the run (a bundle's every file is hashed into the manifest).
  const artefacts = options.output ?? mkdtempSync(join(tmpdir(), 'certify-artefacts-'));
  const outcome = await runWithVerdict(['test', '--project=conformance', `--output=${artefacts}`], {
    ...process.env,
    REPORT_DIR: options.out,
  }).finally(() => options.output === undefined && rmSync(artefacts, { recursive: true, force: true }));
  if (!outcome.report)
    return fail(`Certification not possible: ${outcome.problem ?? 'the configuration was refused (above)'}.`, outcome.code);

  const refusals = refusalsOf(outcome.report);
  const manifest = manifestFor(outcome.report, refusals, hashFiles(options.out), options.signingKey);
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(options.out, MANIFEST_FILE), bytes);
  if (manifest.certified && options.signingKey)
    writeFileSync(join(options.out, SIGNATURE_FILE), `${signManifest(bytes, options.signingKey)}\n`);

  if (!manifest.certified) {
    process.stdout.write(
      `\nCertification REFUSED; no certificate was issued. The bundle in ${options.out} holds the reports and says why:\n${refusals.map((reason) => `  - ${reason}`).join('\n')}\n`,
    );
    return outcome.code === EXIT.conformant ? EXIT.inconclusive : outcome.code;
  }
  process.stdout.write(
    `\nCertified: ${outcome.report.verdict}. Bundle written to ${options.out}${manifest.signer ? `, signed with key ${manifest.signer.keyId}` : ' (unsigned: pass --signing-key to sign it)'}.\nCheck it with: ${commandLineHere()} verify-bundle ${options.out}${manifest.signer ? ' --public-key PUBLIC_KEY.pem' : ''}\n`,
  );
  return EXIT.conformant;
}

function parseOptions(argv: string[]): Options | string {
  const read = readOptions({
    args: argv,
    options: { out: { type: 'string', default: DEFAULT_BUNDLE_DIR }, 'signing-key': { type: 'string' }, output: { type: 'string' } },
    strict: true,
  });
  if (read.refusal !== undefined) {
    if (read.unexpected !== undefined && isPassiveResults(read.unexpected)) return `${read.unexpected}: ${PASSIVE_REFUSAL}`;
    return read.unexpected === undefined ? read.refusal : `${read.refusal} (certification always runs the whole suite)`;
  }
  const { output, 'signing-key': keyPath } = read.parsed.values;
  const out = resolve(read.parsed.values.out);
  if (existsSync(out) && !statSync(out).isDirectory()) return `${out} is a file; a bundle goes into a new or empty folder`;
  if (existsSync(out) && readdirSync(out).length > 0)
    return `${out} is not empty; a bundle goes into a new or empty folder, so nothing of an earlier one is lost`;
  let signingKey: KeyObject | undefined;
  if (keyPath !== undefined) {
    try {
      signingKey = readSigningKey(keyPath);
    } catch (error) {
      return `--signing-key ${keyPath} ${error instanceof Error && error.message.startsWith('is ') ? error.message : 'cannot be read as a PEM or DER private key'}`;
    }
  }
  mkdirSync(out, { recursive: true });
  return { out, ...(signingKey && { signingKey }), ...(output && { output }) };
}

/** A certification checks everything: the mark-unread write and the key without fullAccess included. */
function configurationProblem(): string | undefined {
  try {
    const config = loadConfig(environment());
    if (!config.allowWrites)
      return 'ALLOW_WRITES must be true for certification, with GROUP_GUID, MESSAGE_ID and ACTING_UID naming the fixtures mark-unread may write to';
    if (config.restrictedApiKey === undefined)
      return 'RESTRICTED_API_KEY is required for certification (a key without fullAccess, to check that mark-unread refuses it)';
    if (config.replayPath !== undefined) return 'CONFORMANCE_PATH replays one counterexample; unset it to certify a whole run';
    if (config.expectations !== undefined)
      return `${EXPECTATIONS_VARIABLE} excuses known failures; a certified run is judged without them: unset it`;
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/** A results.json (or its folder) of a passive run, offered to certify. */
function isPassiveResults(path: string): boolean {
  try {
    return readResultsFile(path).passive !== undefined;
  } catch {
    return false;
  }
}

function fail(message: string, code: number = EXIT.error): number {
  process.stderr.write(`${message}\n`);
  return code;
}

process.exitCode = await main(process.argv.slice(2));
