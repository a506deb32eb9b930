// What a check reports. A violation names the requirement it breaks, so the outcome (fail, warn or
// observe) follows from that requirement's level under the active profile, not from the check.
import type { Exchange } from '../transport/exchange.ts';
import { visible } from '../results/visible.ts';

export interface Violation {
  /** The check that found it; also its label in reports (`response_schema_conformance`). */
  check: string;
  requirement: string;
  /** One line saying what is wrong. */
  title: string;
  expected: string;
  received: string;
  /** The exchange that shows it, already redacted. */
  exchange?: Exchange;
}

/** A check is a small pure function of what was exchanged. */
export type Check<Input, Context = void> = (input: Input, context: Context) => Violation[];

/** JSON for messages: short, one line, never undefined; a string as shownString shows it. */
export function shown(value: unknown, limit = 200): string {
  if (typeof value === 'string') return shownString(value, limit);
  // JSON.stringify gives undefined only for a function or a symbol, which String shows by its source or name.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  // JSON escapes C0 controls; C1, the bidirectional overrides and lone surrogates it leaves as they are.
  return visible(text.length > limit ? `${text.slice(0, limit)}…` : text);
}

/** A run of one character at least this long is named by its count instead of written out. */
const RUN_NAMED_FROM = 16;

/**
 * A string as a reader can see what it holds, whatever a generator or a shrinker made of it:
 * JSON-escaped (control characters, quotes); one character repeated, named with its count
 * (`"␠␠␠…" (256 spaces)`, `"xxx…" (300 × "x")`), since a reader cannot count 256 blanks; a
 * long one cut at `limit`, with its length.
 */
export function shownString(text: string, limit = 200): string {
  const characters = [...text];
  const first = characters[0];
  if (first !== undefined && characters.length >= RUN_NAMED_FROM && characters.every((character) => character === first)) {
    return first === ' '
      ? `"␠␠␠…" (${characters.length} spaces)`
      : visible(`${JSON.stringify(first.repeat(3)).slice(0, -1)}…" (${characters.length} × ${JSON.stringify(first)})`);
  }
  // JSON escapes C0 controls; C1, the bidirectional overrides and lone surrogates it leaves as they are.
  const json = visible(JSON.stringify(text));
  return json.length > limit ? `${json.slice(0, limit)}…" (${characters.length} characters)` : json;
}
