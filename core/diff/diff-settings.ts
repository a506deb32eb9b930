// The diff's own settings (docs/diff.md): how far the candidate's difference rate must beat the
// primary's own (A/A) rate before a field path is reported, how many comparisons an operation needs
// before it is judged at all, and the declared noise (DIFF_IGNORE). Read by core/run/config.ts's
// loadDiffConfig, at the diff command's entry, never elsewhere.
import { ConfigError } from '../run/config-error.ts';

/** The operations the diff compares: the two reads, and mark-unread where ALLOW_WRITES=true (write-plan.ts). */
const DIFF_OPERATIONS = ['listCalls', 'getCall', 'markGroupConversationAsUnread'] as const;
export type DiffOperation = (typeof DIFF_OPERATIONS)[number];

export interface NoiseThresholds {
  /** Percent: the candidate's rate must exceed the A/A rate by this share of it (Diffy's relative threshold). */
  relativePercent: number;
  /** Percentage points: and by at least this much in absolute terms. */
  absolutePercent: number;
  /** An operation whose own A/A noise reaches this share (percent) on a whole answer cannot be judged: inconclusive. */
  inconclusivePercent: number;
}

export interface DiffSettings {
  noise: NoiseThresholds;
  /** Fewer compared requests than this in an operation, and the run says it cannot judge it (exit 3). */
  minComparisons: number;
  /** Declared noise: field paths (generalised, `data[].mid`) ignored per operation. */
  ignore: ReadonlyArray<IgnoreRule>;
}

export interface IgnoreRule {
  operation: DiffOperation;
  path: string;
}

export const DEFAULT_NOISE: NoiseThresholds = Object.freeze({ relativePercent: 20, absolutePercent: 3, inconclusivePercent: 50 });
export const DEFAULT_MIN_COMPARISONS = 10;

/**
 * The paths a rule may never name: each is a whole answer or all of its calls. Keploy's noise rules
 * that silenced half the assertions while the run said PASSED are what this refuses.
 */
const WHOLE_ANSWER_PATHS = new Set(['', '$', 'data', 'data[]', 'error', 'status', 'pagination', 'meta', 'body', 'error.code', '(status)']);

type Read = (name: string) => string | undefined;

export function readDiffSettings(read: Read): DiffSettings {
  return Object.freeze({
    noise: Object.freeze({
      relativePercent: readPercent('DIFF_NOISE_RELATIVE', read('DIFF_NOISE_RELATIVE'), 10_000) ?? DEFAULT_NOISE.relativePercent,
      absolutePercent: readPercent('DIFF_NOISE_ABSOLUTE', read('DIFF_NOISE_ABSOLUTE'), 100) ?? DEFAULT_NOISE.absolutePercent,
      inconclusivePercent:
        readPercent('DIFF_NOISE_INCONCLUSIVE', read('DIFF_NOISE_INCONCLUSIVE'), 100) ?? DEFAULT_NOISE.inconclusivePercent,
    }),
    minComparisons: readCount('DIFF_MIN_COMPARISONS', read('DIFF_MIN_COMPARISONS')) ?? DEFAULT_MIN_COMPARISONS,
    ignore: Object.freeze(readIgnoreRules(read('DIFF_IGNORE'))),
  });
}

function readPercent(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > max)
    throw new ConfigError(name, `must be a number of percent from 0 to ${max} (got "${value}")`);
  return Number(value);
}

function readCount(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000)
    throw new ConfigError(name, `must be an integer from 1 to 100000 (got "${value}")`);
  return Number(value);
}

/**
 * DIFF_IGNORE: `operation:path,path;operation:path`, e.g. `listCalls:data[].mid;getCall:data.mid`.
 * Paths are written as the report shows them (array positions as `[]`).
 */
export function readIgnoreRules(value: string | undefined): IgnoreRule[] {
  if (value === undefined) return [];
  const rules: IgnoreRule[] = [];
  for (const group of value.split(';').filter((part) => part.trim() !== '')) {
    const colon = group.indexOf(':');
    const operation = group.slice(0, colon).trim();
    if (colon === -1 || !(DIFF_OPERATIONS as readonly string[]).includes(operation))
      throw new ConfigError(
        'DIFF_IGNORE',
        `must be operation:path,path;… with an operation of ${DIFF_OPERATIONS.join(', ')} (got "${group}")`,
      );
    for (const raw of group.slice(colon + 1).split(','))
      rules.push({ operation: operation as DiffOperation, path: checkedPath(raw.trim()) });
  }
  return rules;
}

function checkedPath(path: string): string {
  if (WHOLE_ANSWER_PATHS.has(path))
    throw new ConfigError('DIFF_IGNORE', `refuses "${path}": it would silence a whole answer, not one field of it`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\[\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[\])?)*$/.test(path))
    throw new ConfigError(
      'DIFF_IGNORE',
      `paths are fields separated by dots, arrays as [], no wildcards, such as data[].mid (got "${path}")`,
    );
  return path;
}
