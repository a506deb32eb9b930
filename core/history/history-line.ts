// One run of the history (HISTORY_FILE, JSON Lines, one line a run): when, which target (its
// address, never its key: the line passes the run's redactor before it is written), the suite's
// version, the seed, the profile, the verdict, the duration, each requirement's outcome, the
// readings learned and coverage in brief. A run of the whole catalog stays under 2 KB: each
// outcome names its requirement by a five-character key taken from a hash of the id, as Allure
// keys its history by a hash of each test's name, and the requirements a run did not judge
// (uncovered, not testable) are left out. The `history` command and the report read the keys
// back against the catalog; a key no requirement of it has any more is shown as the key.
import { createHash } from 'node:crypto';
import type { RequirementStatus } from '../results/report-model.ts';

export const HISTORY_FORMAT = 'calls-conformance-history/1';

/** One letter per outcome a run judged; a requirement the run did not judge is not in the line. */
export const OUTCOME_CODES: Readonly<Partial<Record<RequirementStatus, string>>> = {
  pass: 'p',
  fail: 'f',
  intermittent: 'i',
  'expected-fail': 'x',
  warn: 'w',
  skip: 's',
  error: 'e',
  blocked: 'b',
};
const STATUS_OF_CODE = new Map(Object.entries(OUTCOME_CODES).map(([status, code]) => [code, status as RequirementStatus]));

const KEY_LENGTH = 5;
const KEY_SPACE = 36 ** KEY_LENGTH;
const KEYS = new RegExp(`^(?:[0-9a-z]{${KEY_LENGTH}})*$`);

/** The run as one history line holds it. */
export interface HistoryRun {
  format: typeof HISTORY_FORMAT;
  /** When the run started (ISO 8601). */
  at: string;
  /** The target as the report names it: its addresses, or the embedded reference and its options. */
  target: string;
  /** The suite's version, and its commit (12 digits, `.modified` with local changes) in a checkout. */
  suite: string;
  seed: number;
  profile: string;
  verdict: string;
  /** The run's duration in milliseconds. */
  ms: number;
  /** `run` for a run of the suite, `passive` for judged traffic (har). */
  mode: 'run' | 'passive';
  /** Per outcome letter (OUTCOME_CODES), the keys (requirementKey) of the requirements that had it, one after another. */
  outcomes: Record<string, string>;
  /** What the run learned of the target: per subject, the candidates it judged by. */
  readings: Record<string, string[]>;
  /** Coverage in brief: per dimension, the share covered in whole percent. */
  coverage: Record<string, number>;
}

/** A requirement's key in a history line: five base-36 characters of the SHA-256 of its id. */
export function requirementKey(id: string): string {
  const digest = createHash('sha256').update(id).digest();
  return (digest.readUInt32BE(0) % KEY_SPACE).toString(36).padStart(KEY_LENGTH, '0');
}

/** The outcomes of the requirements a run judged, encoded by letter. */
export function encodeOutcomes(outcomes: ReadonlyArray<{ id: string; status: RequirementStatus }>): Record<string, string> {
  const encoded: Record<string, string> = {};
  for (const { id, status } of outcomes) {
    const code = OUTCOME_CODES[status];
    if (code !== undefined) encoded[code] = `${encoded[code] ?? ''}${requirementKey(id)}`;
  }
  return encoded;
}

/**
 * The outcomes of a line by requirement id, read against the ids given (the catalog's); a key none
 * of them has is kept as `#key`, so a requirement since renamed or removed still has its row.
 */
export function decodeOutcomes(encoded: Readonly<Record<string, string>>, ids: Iterable<string>): Map<string, RequirementStatus> {
  const idOfKey = new Map<string, string>();
  for (const id of ids) idOfKey.set(requirementKey(id), id);
  const decoded = new Map<string, RequirementStatus>();
  for (const [code, keys] of Object.entries(encoded)) {
    const status = STATUS_OF_CODE.get(code);
    if (status === undefined) continue;
    for (let at = 0; at < keys.length; at += KEY_LENGTH) {
      const key = keys.slice(at, at + KEY_LENGTH);
      decoded.set(idOfKey.get(key) ?? `#${key}`, status);
    }
  }
  return decoded;
}

/** Why a parsed value is not a run line of this format; undefined when it is one. */
export function runLineProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a JSON object';
  const line = value as Record<string, unknown>;
  if (line.format !== HISTORY_FORMAT)
    return typeof line.format === 'string' && line.format.startsWith('calls-conformance-history/')
      ? `is a history line of another format (${line.format.slice(0, 40)}), from another version of the suite`
      : `is not a line of this suite's history (no "format": "${HISTORY_FORMAT}"): another tool's?`;
  const wrong = Object.entries(FIELD_CHECKS).find(([field, holds]) => !holds(line[field]));
  return wrong ? `is a history line whose "${wrong[0]}" does not read as one` : undefined;
}

const isText = (value: unknown) => typeof value === 'string';
const isCount = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const FIELD_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  at: (value) => isText(value) && !Number.isNaN(Date.parse(value)),
  target: isText,
  suite: isText,
  seed: isCount,
  profile: isText,
  verdict: isText,
  ms: isCount,
  mode: (value) => value === 'run' || value === 'passive',
  outcomes: (value) => isRecord(value) && Object.values(value).every((keys) => isText(keys) && KEYS.test(keys)),
  readings: (value) => isRecord(value) && Object.values(value).every((accepted) => Array.isArray(accepted) && accepted.every(isText)),
  coverage: (value) => isRecord(value) && Object.values(value).every(isCount),
};
