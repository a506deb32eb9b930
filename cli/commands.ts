// What conformance.ts does with a command line before the suite's own commands: print a help,
// refuse, or run one of the scripts that are commands of their own (certify, verify-bundle, the
// reference) as a child process, which gives their exit code back unchanged.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { EXIT } from './playwright-run.ts';
import { ownFile, scriptLoaderArgs } from '../core/run/package-paths.ts';
import type { CommandLine } from './command-line.ts';
import { commandLineHere } from '../core/results/replay-command.ts';
import { passiveStateIn, runPassiveMerge } from '../passive/merge-passive.ts';

const SCRIPTS: Readonly<Record<string, string>> = {
  certify: fileURLToPath(new URL(ownFile('./certify.ts'), import.meta.url)),
  'verify-bundle': fileURLToPath(new URL(ownFile('./verify-bundle.ts'), import.meta.url)),
  reference: fileURLToPath(new URL(ownFile('../reference/main.ts'), import.meta.url)),
};

/** Prints a help or a refusal; undefined when the line is a command to run. */
export async function answerWithoutRunning(line: CommandLine): Promise<number | undefined> {
  if (line.kind === 'help') {
    process.stdout.write(`${line.text}\n`);
    return EXIT.conformant;
  }
  if (line.kind === 'refused') {
    process.stderr.write(line.text);
    return EXIT.error;
  }
  if (line.kind === 'playwright-help') {
    process.stdout.write(
      `Playwright's options of \`playwright test\`; \`${commandLineHere()} run --help\` says which the suite passes on.\n\n`,
    );
    return child([createRequire(import.meta.url).resolve('@playwright/test/cli'), 'test', '--help']);
  }
  if (SCRIPTS[line.command] !== undefined) return child([...scriptLoaderArgs(), SCRIPTS[line.command]!, ...line.args]);
  // merge takes the blob reports of sharded runs, or the report folders of judging proxies (merge-passive.ts).
  if (line.command === 'merge' && line.args.some((arg) => passiveStateIn(arg) !== undefined)) return runPassiveMerge(line.args);
  return undefined;
}

function child(args: string[]): Promise<number> {
  return new Promise((done) => {
    const running = spawn(process.execPath, args, { stdio: 'inherit' });
    // Ctrl-C reaches the child with the whole process group; a SIGTERM sent to this process alone is passed on.
    const wait = () => {};
    const forward = () => running.kill('SIGTERM');
    process.on('SIGINT', wait).on('SIGTERM', forward);
    running.on('close', (code, signal) => {
      process.off('SIGINT', wait).off('SIGTERM', forward);
      done(code ?? (signal ? 128 : EXIT.error));
    });
    running.on('error', () => done(EXIT.error));
  });
}
