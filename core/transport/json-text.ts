// An answer's body parsed as JSON, with the one thing JSON.parse does not bound: depth. V8 parses
// a body of 100,000 nested arrays without complaint, and then every recursive walk of it (a schema
// validator, JSON.stringify in a failure message, a structured clone) overflows the stack. No answer
// of the contract nests deeper than a handful of levels (a list, its calls, their participants, an
// error's details), so a body deeper than MAX_JSON_DEPTH is the target's failure: it is reported as
// such against the body's schema (response-schema.ts), and no other check walks it.

/** Levels of arrays and objects one inside another. The contract's deepest answer has about 6. */
export const MAX_JSON_DEPTH = 64;

export interface ParsedJson {
  /** The parsed value; undefined when the text is not JSON, or is JSON nested too deep to judge. */
  parsed: unknown;
  /** The text parsed as JSON and nests no deeper than MAX_JSON_DEPTH. */
  isJson: boolean;
  /** JSON, but nested deeper than MAX_JSON_DEPTH: not handed to any check. */
  tooDeep?: true;
}

export function parseJsonText(text: string | undefined): ParsedJson {
  if (text === undefined || text.trim() === '') return { parsed: undefined, isJson: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { parsed: undefined, isJson: false };
  }
  return nestsDeeperThan(parsed, MAX_JSON_DEPTH) ? { parsed: undefined, isJson: false, tooDeep: true } : { parsed, isJson: true };
}

/**
 * Whether `value` holds arrays or objects more than `limit` levels deep. The recursion goes no deeper
 * than `limit` levels, so it never reaches the call stack's end whatever the value; it allocates
 * nothing, where a walk with a stack of its own made a pair for every object of every answer.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestsDeeperThan(child, limit - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}
