// What the documentation shows, read from README.md and docs/*.md: its ```sh blocks (the commands a
// reader will type) and its relative links. The docs self-test runs each block, or checks the
// self-test a block names, so that no documented command can go stale (issue 30).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The placeholders a command may use for the reader's own deployment. Each documented block that uses
 * one says what it stands for; the docs test gives each a value of its own reference server.
 */
export const PLACEHOLDERS = ['CALLS_URL', 'CHAT_URL', 'STAGING_KEY', 'READONLY_KEY', 'GROUP', 'MESSAGE', 'MEMBER'] as const;

/**
 * Variables that name the target and its fixtures, or pin the seed: every self-test that runs the
 * suite sets them (referenceTargetEnv, runNode), under names of its own, so they are not what tells
 * one exercised command from another.
 */
const TARGET_VARIABLES = new Set([
  'CALLS_BASE_URL',
  'CHAT_BASE_URL',
  'APP_ID',
  'REGION',
  'API_KEY',
  'RESTRICTED_API_KEY',
  'ALLOW_WRITES',
  'GROUP_GUID',
  'MESSAGE_ID',
  'ACTING_UID',
  'CONFORMANCE_SEED',
]);

export interface ShellBlock {
  /** Where it is, as `docs/x.md:12` (the line of its opening fence). */
  where: string;
  /** The block's text, as the reader copies it. */
  code: string;
  /** The paths named by `<!-- exercised-by: PATH [PATH…] -->` on the line before the fence; undefined when it is to be run. */
  exercisedBy?: string[];
  /** The exit status its last command's comment states (`# exits N`), else 0. */
  expectedExit: number;
  /** What that comment says it prints, after the status (`# exits 2: Configuration error: …`). */
  expectedOutput?: string;
}

export interface DocLink {
  where: string;
  /** The target as written, without its #fragment. */
  target: string;
  /** The path it resolves to, relative to the project. */
  resolved: string;
}

/** README.md and every docs/*.md, as paths relative to the project. */
export function docFiles(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs];
}

const FENCE = /^```(\S*)\s*$/;
const EXERCISED_BY = /^<!--\s*exercised-by:\s*(.+?)\s*-->\s*$/;
const EXITS = /#\s*exits\s+(\d+)\b(?::\s*(.*\S))?[^\n]*$/;

export function shellBlocks(path: string, text: string): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE.exec(lines[index]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && /^```\s*$/.test(line));
    const closing = end === -1 ? lines.length : end;
    if (open[1] === 'sh') {
      const code = lines.slice(index + 1, closing).join('\n');
      const previous = index > 0 ? EXERCISED_BY.exec(lines[index - 1]!) : null;
      const lastCommand = code.trimEnd().split('\n').at(-1) ?? '';
      const exits = EXITS.exec(lastCommand);
      blocks.push({
        where: `${path}:${index + 1}`,
        code,
        exercisedBy: previous ? previous[1]!.split(/\s+/) : undefined,
        expectedExit: exits ? Number(exits[1]) : 0,
        ...(exits?.[2] !== undefined && { expectedOutput: exits[2] }),
      });
    }
    index = closing;
  }
  return blocks;
}

/** The block's commands: continuation lines joined, comments and blank lines dropped, split at `&&`, `||`, `;` and `|`. */
export function commandsOf(code: string): string[][] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .flatMap((line) => line.split(/&&|\|\||;|\|/))
    .map((command) => command.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

/**
 * The words a self-test that runs these commands must contain: the variables set in front (other
 * than the target's), the npm script or npx program and its subcommand, and every option's name;
 * for any other program, its name.
 */
export function distinctiveWords(code: string): string[] {
  const words = new Set<string>();
  for (const command of commandsOf(code)) {
    let at = 0;
    for (; at < command.length && /^[A-Z_][A-Z0-9_]*=/.test(command[at]!); at += 1) {
      const name = command[at]!.split('=')[0]!;
      if (!TARGET_VARIABLES.has(name)) words.add(name);
    }
    const [program, ...rest] = command.slice(at);
    if (program === undefined) continue;
    if (program !== 'npm' && program !== 'npx') {
      words.add(program);
      continue;
    }
    const args = program === 'npm' && rest[0] === 'run' ? rest.slice(1) : rest;
    if (args[0]) words.add(args[0]);
    let subcommandNext = program === 'npx';
    for (const arg of args.slice(1)) {
      if (arg === '--') subcommandNext = true;
      else if (arg.startsWith('-')) words.add(arg.split('=')[0]!);
      else if (subcommandNext && /^[a-z][a-z-]*$/.test(arg)) words.add(arg);
      if (arg !== '--') subcommandNext = false;
    }
  }
  return [...words];
}

const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

/** Every Markdown link to a file of the project (not http(s), mailto or a fragment alone). */
export function relativeLinks(path: string, text: string): DocLink[] {
  const links: DocLink[] = [];
  let inFence = false;
  text.split('\n').forEach((line, index) => {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) return;
    for (const match of line.matchAll(LINK)) {
      const target = match[1]!.split('#')[0]!;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      links.push({ where: `${path}:${index + 1}`, target, resolved: normalize(join(dirname(path), target)) });
    }
  });
  return links;
}

export const readDoc = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');
