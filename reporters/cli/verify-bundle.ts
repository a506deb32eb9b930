// `npm run verify-bundle -- DIR [--public-key FILE]`: checks a certification bundle's hashes and
// signature and says plainly what does not match. Exit 0 when it verifies, 1 when it does not,
// 2 for a usage error.
import { existsSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { readPublicKey } from '../bundle/manifest.ts';
import { verifyBundle } from '../bundle/verify.ts';
import { helpRequested } from './command-help.ts';

const USAGE = 'Usage: npm run verify-bundle -- BUNDLE_DIR [--public-key PUBLIC_KEY.pem]';

function main(argv: string[]): number {
  if (helpRequested('verify-bundle', argv)) return 0;
  let dir: string | undefined;
  let keyPath: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--public-key') keyPath = argv[++index];
    else if (arg.startsWith('--public-key=')) keyPath = arg.slice('--public-key='.length);
    else if (!arg.startsWith('-') && dir === undefined) dir = arg;
    else return usage(`unexpected argument ${arg}`);
  }
  if (dir === undefined) return usage('no bundle folder given');
  if (!existsSync(dir)) return usage(`${dir} does not exist`);
  let trustedKey: KeyObject | undefined;
  if (keyPath !== undefined) {
    try {
      trustedKey = readPublicKey(keyPath);
    } catch (error) {
      return usage(
        `--public-key ${keyPath} ${error instanceof Error && error.message.startsWith('is ') ? error.message : 'cannot be read as a PEM or DER public key'}`,
      );
    }
  }
  const { problems, notes, manifest } = verifyBundle(dir, trustedKey);
  for (const note of notes) process.stdout.write(`ok       ${note}\n`);
  for (const problem of problems) process.stdout.write(`PROBLEM  ${problem}\n`);
  if (problems.length > 0) {
    process.stdout.write(`\nBundle ${dir} does NOT verify: ${problems.length} problem(s).\n`);
    return 1;
  }
  process.stdout.write(
    `\nBundle ${dir} verifies: ${manifest!.verdict}, suite ${manifest!.suite.version}${manifest!.suite.commit ? ` (${manifest!.suite.commit.slice(0, 12)})` : ''}, seed ${manifest!.seed}, ${manifest!.files.length} files.\n`,
  );
  return 0;
}

function usage(problem: string): number {
  process.stderr.write(`verify-bundle: ${problem}\n${USAGE}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
