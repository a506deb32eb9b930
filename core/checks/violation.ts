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
  /**
   * How many more violations of the same requirement the same answer showed, found and counted but
   * not described one by one (describedPerRequirement): this violation stands for 1 + alike of them.
   */
  alike?: number;
}

/**
 * How many violations of one requirement the checks of one answer describe in full. The rest are
 * counted on the last one described (`alike`): a call of 100,000 participants each missing a field
 * is judged entry by entry, and reported as 20 described and 99,980 more, not as 100,000 messages
 * that every test meeting the answer would build, keep and sift again. No report shows more: a test
 * annotates at most 20 violations of a requirement, a failure message describes 5, a passive report 10.
 */
export const DESCRIBED_PER_REQUIREMENT = 20;

/**
 * The violations with at most `limit` of each requirement kept, in their order; each requirement's
 * last one kept counts those left out (and those they stood for) in `alike`.
 */
export function describedPerRequirement(violations: readonly Violation[], limit = DESCRIBED_PER_REQUIREMENT): Violation[] {
  const kept: Violation[] = [];
  const last = new Map<string, { index: number; kept: number; left: number }>();
  for (const violation of violations) {
    const seen = last.get(violation.requirement);
    if (seen === undefined || seen.kept < limit) {
      last.set(violation.requirement, { index: kept.length, kept: (seen?.kept ?? 0) + 1, left: seen?.left ?? 0 });
      kept.push(violation);
    } else seen.left += 1 + (violation.alike ?? 0);
  }
  for (const { index, left } of last.values()) {
    if (left === 0) continue;
    const violation = kept[index]!;
    kept[index] = { ...violation, alike: (violation.alike ?? 0) + left };
  }
  return kept;
}

/**
 * One check's violations of one requirement, from what it found (`found`: cheap records of each
 * failing entry): the first `limit` described, the rest counted on the last (`alike`). A check of
 * every participant of a call builds the words of a few violations, whatever the call's size.
 */
export function describedUpTo<T>(found: readonly T[], describe: (item: T) => Violation, limit = DESCRIBED_PER_REQUIREMENT): Violation[] {
  const violations = found.slice(0, limit).map(describe);
  if (found.length > limit) violations[limit - 1] = { ...violations[limit - 1]!, alike: found.length - limit };
  return violations;
}

/** How many violations these stand for, those counted in `alike` included. */
export const violationCount = (violations: readonly Violation[]): number =>
  violations.reduce((count, violation) => count + 1 + (violation.alike ?? 0), 0);

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
  if (text.length <= LONG_STRING) return shownStringNow(text, limit);
  // A long string is shown once per limit: a check names a call by its sessionId in each violation
  // it finds there, and a call of 100,000 participants with a sessionId of megabytes would otherwise
  // have its id read whole once per participant.
  let shownByLimit = shownLong.get(text);
  if (shownByLimit === undefined) {
    if (shownLong.size >= LONG_STRINGS_KEPT) shownLong.delete(shownLong.keys().next().value!);
    shownByLimit = new Map<number, string>();
    shownLong.set(text, shownByLimit);
  }
  let result = shownByLimit.get(limit);
  if (result === undefined) shownByLimit.set(limit, (result = shownStringNow(text, limit)));
  return result;
}

/** Strings longer than this are shown through shownLong. */
const LONG_STRING = 4_096;
/** How many long strings shownLong keeps: the few a check is naming at once. */
const LONG_STRINGS_KEPT = 8;
/** The long strings shown lately, each with what it was shown as, by limit. */
const shownLong = new Map<string, Map<number, string>>();

function shownStringNow(text: string, limit: number): string {
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
