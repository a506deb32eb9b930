// `npm run certify -- --help` and `npm run verify-bundle -- --help`: the scripts run directly print
// the same help as `calls-conformance certify --help`.
import { commandHelp, findCommand, HELP_FLAGS } from './usage.ts';

/** Prints the command's help when asked for it; true when it did. */
export function helpRequested(name: string, argv: readonly string[]): boolean {
  const command = findCommand(name);
  if (command === undefined || !argv.some((arg) => (HELP_FLAGS as readonly string[]).includes(arg))) return false;
  process.stdout.write(`${commandHelp(command)}\n`);
  return true;
}
