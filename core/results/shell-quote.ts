// One shell word for the lines the suite prints to be pasted (curl lines, rerun commands). What
// goes in them comes from traffic the suite did not choose (a recorded header
// `x-trace: $(touch pwned)`, a session id a target made up), so a POSIX shell (sh, bash, zsh) must
// read each word back as exactly that text, and run nothing.
//
// Why this form:
// - Text goes in single quotes, inside which no shell gives any character a meaning.
// - A single quote is written "'" between the quoted runs: `'it'"'"'s'`. The usual `'it'\''s'` is
//   as good to a shell, but the redactor every failure message passes last (reports/redact.ts)
//   rewrites the run after an `apikey:` that stops only at quotes, spaces and `,;}`: such a run can
//   take a backslash that stands outside the quotes, and every quote after it changes sides (a
//   header `x-note: apikey: 'X $(touch pwned) #` then ran `touch`). "'" leaves nothing outside.
// - Characters that would break the line or act on the terminal that shows it (newline, CR, tab,
//   ESC, every other control character, the Unicode line and paragraph separators) and the
//   invisible format characters (bidirectional overrides that make a line read otherwise than it
//   runs, zero-width characters) are written in ANSI-C quotes, each byte of their UTF-8 in octal
//   ($'\n', $'\033', $'\342\200\256'). bash and zsh read these back exactly (the self-test
//   tests/reports/reproduce-lines.spec.ts pastes lines into both), as do ksh, busybox sh and
//   POSIX.1-2024 sh. A sh without them (dash 0.5.12, Debian's /bin/sh) reads the `$` and the escape
//   as plain text: a wrong value, never a command. The other ways are worse: a newline inside
//   single quotes is exact everywhere but splits the line, so whoever copies one line pastes an
//   open quote; "$(printf '\n')" drops trailing newlines and is itself a command.
// - NUL cannot be in a command-line argument at all: text holding one is refused (RangeError),
//   never cut short.
// - A word of letters, digits and `_@%+,./-` alone is left bare, as shlex.quote leaves its safe
//   words, less `:` and `=`: no bare word can then hold `apikey:` or `apikey=`, after which the
//   redactor writes `[redacted]` (a pattern, outside quotes), and zsh expands a word that starts
//   with `=`.
// - The suite's own variables ($API_KEY) are parts given as { variable }, never found in text: a
//   value that happens to read `$API_KEY` stays text. A variable is expanded in double quotes, so
//   that its value stays one word.

/** A part of a shell word: text, taken literally, or a variable of the suite's, which the shell expands. */
export type WordPart = string | { variable: string };

const BARE = /^[A-Za-z0-9_@%+,./-]+$/;
/** Text that is literal inside double quotes too, and reads plainly there: `"apikey: $API_KEY"`. */
const PLAIN_IN_DOUBLE_QUOTES = /^[A-Za-z0-9_@%+,./:= -]*$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const PIECES = /'+|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+|[^'\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const utf8 = new TextEncoder();

/** The parts as one shell word: the text exactly as given, each variable expanded. */
export function shellWord(...parts: readonly WordPart[]): string {
  const merged: WordPart[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.includes('\0')) throw new RangeError('a NUL character cannot be part of a command-line argument');
      const last = merged.at(-1);
      if (typeof last === 'string') merged[merged.length - 1] = last + part;
      else merged.push(part);
    } else {
      if (!VARIABLE_NAME.test(part.variable)) throw new RangeError(`not a shell variable name: ${JSON.stringify(part.variable)}`);
      merged.push(part);
    }
  }
  const texts = merged.filter((part): part is string => typeof part === 'string');
  if (texts.length === merged.length) {
    const text = texts.join('');
    return BARE.test(text) ? text : singleQuoted(text);
  }
  if (texts.every((text) => PLAIN_IN_DOUBLE_QUOTES.test(text))) {
    const inner = merged.map((part, index) => {
      if (typeof part === 'string') return part;
      const next = merged[index + 1];
      return typeof next === 'string' && /^[A-Za-z0-9_]/.test(next) ? `\${${part.variable}}` : `$${part.variable}`;
    });
    return `"${inner.join('')}"`;
  }
  return merged.map((part) => (typeof part === 'string' ? (part === '' ? '' : singleQuoted(part)) : `"\${${part.variable}}"`)).join('');
}

function singleQuoted(text: string): string {
  if (text === '') return "''";
  return text
    .match(PIECES)!
    .map((piece) => {
      if (piece.startsWith("'")) return `"${piece}"`;
      if (ESCAPED.test(piece)) return `$'${[...piece].map(escaped).join('')}'`;
      return `'${piece}'`;
    })
    .join('');
}

function escaped(character: string): string {
  return NAMED_ESCAPES[character] ?? [...utf8.encode(character)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}
