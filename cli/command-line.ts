// Reads the command line into a command and its arguments, a help text to print, or a refusal.
// The first word is a command of usage.ts (run when it is an option or absent); an option a command
// does not declare is refused with that command's usage, exit 2, before anything runs. The run's
// options are Playwright's, checked against playwright-options.ts; after `--` they pass unchecked.
import { commandHelp, commandList, findCommand, HELP_FLAGS, mainHelp, PROGRAM, type CommandHelp } from './usage.ts';
import { PLAYWRIGHT_TEST_OPTIONS, REFUSED_PLAYWRIGHT_OPTIONS, type Arity } from '../core/run/playwright-options.ts';

export type CommandLine =
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'help'; text: string }
  | { kind: 'playwright-help' }
  | { kind: 'refused'; text: string };

export function readCommandLine(argv: readonly string[]): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'command', command: 'run', args: [] };
  if ((HELP_FLAGS as readonly string[]).includes(first)) return { kind: 'help', text: mainHelp() };
  if (first === 'help') return helpFor(rest);
  if (first.startsWith('-')) return readArguments(findCommand('run')!, argv);
  const command = findCommand(first);
  if (command === undefined) return refuse(`unknown command "${first}"`, commandList());
  return readArguments(command, rest);
}

function helpFor(args: readonly string[]): CommandLine {
  if (args.length === 0 || (args.length === 1 && (HELP_FLAGS as readonly string[]).includes(args[0]!)))
    return { kind: 'help', text: mainHelp() };
  const command = args.length === 1 ? findCommand(args[0]!) : undefined;
  if (command === undefined) return refuse(`help takes one command name (got "${args.join(' ')}")`, commandList());
  return { kind: 'help', text: commandHelp(command) };
}

function readArguments(command: CommandHelp, args: readonly string[]): CommandLine {
  const end = args.indexOf('--');
  const checked = end === -1 ? args : args.slice(0, end);
  if (checked.some((arg) => (HELP_FLAGS as readonly string[]).includes(arg))) return { kind: 'help', text: commandHelp(command) };
  if (command.name === 'run' && checked.includes('--playwright-help')) return { kind: 'playwright-help' };
  const arities = command.name === 'run' ? PLAYWRIGHT_TEST_OPTIONS : declaredOptions(command);
  for (let index = 0; index < checked.length; index += 1) {
    const arg = checked[index]!;
    if (!arg.startsWith('-') || arg === '-') continue;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const arity = arities[name];
    if (arity === undefined) {
      const why = command.name === 'run' ? REFUSED_PLAYWRIGHT_OPTIONS[name] : undefined;
      return refuse(`${why ? 'refused' : 'unknown'} option ${name} for ${command.name}${why ? `: ${why}` : ''}`, commandHelp(command));
    }
    if (arity === 'flag' && name !== arg) return refuse(`option ${name} of ${command.name} takes no value`, commandHelp(command));
    if (arity === 'value' && name === arg) {
      if (index + 1 >= checked.length) return refuse(`option ${name} of ${command.name} needs a value`, commandHelp(command));
      index += 1;
    }
  }
  if (command.synopsis === '' && checked.length > 0)
    return refuse(`${command.name} takes no arguments (got "${checked.join(' ')}")`, commandHelp(command));
  // `--` only separates the checked options from the unchecked ones; Playwright would take what follows it as test filters.
  const passed = end === -1 ? [...args] : [...args.slice(0, end), ...args.slice(end + 1)];
  return { kind: 'command', command: command.name, args: passed };
}

/** The options a command's help declares, with their arity: a placeholder means a value. */
function declaredOptions(command: CommandHelp): Record<string, Arity> {
  const arities: Record<string, Arity> = {};
  for (const option of command.options) {
    for (const flag of option.flag.split(',').map((part) => part.trim())) arities[flag] = option.value ? 'value' : 'flag';
  }
  return arities;
}

function refuse(problem: string, usage: string): CommandLine {
  return { kind: 'refused', text: `${PROGRAM}: ${problem}\n\n${usage}\n` };
}
