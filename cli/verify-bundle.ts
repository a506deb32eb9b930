// `npm run verify-bundle -- DIR [--public-key FILE]`: checks a certification bundle's hashes and
// signature and says plainly what does not match. Exit 0 when it verifies, 1 when it does not,
// 2 for a usage error.
import { existsSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { readPublicKey } from '../reports/bundle/manifest.ts';
import { verifyBundle } from '../reports/bundle/verify.ts';
import { helpRequested } from './command-help.ts';
import { readOptions } from '../core/run/read-options.ts';
import { commandLineHere } from '../core/results/replay-command.ts';

function main(argv: string[]): number {
  if (helpRequested('verify-bundle', argv)) return 0;
  const read = readOptions({ args: argv, options: { 'public-key': { type: 'string' } }, allowPositionals: true, strict: true });
  if (read.refusal !== undefined) return usage(read.refusal);
  const [dir, extra] = read.parsed.positionals;
  const keyPath = read.parsed.values['public-key'];
  if (dir === undefined) return usage('no bundle folder given');
  if (extra !== undefined) return usage(`unexpected argument ${extra} (one bundle folder at a time)`);
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
  process.stderr.write(`verify-bundle: ${problem}\nUsage: ${commandLineHere()} verify-bundle BUNDLE_DIR [--public-key PUBLIC_KEY.pem]\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
