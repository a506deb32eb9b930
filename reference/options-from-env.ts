// The embedded reference's own options as the suite's environment spells them (REFERENCE_SEED,
// REFERENCE_CALLS, REFERENCE_READINGS, REFERENCE_LIVE, REFERENCE_SETTLE_DELAY, REFERENCE_ANSWER_AGE,
// REFERENCE_GET_ENVELOPE, REFERENCE_ALTERNATIVES), read beside the reference whose options they are:
// a new option of the reference is added here, next to its flag (main.ts), not in the suite's
// configuration. The configuration (core/run/config.ts) reads them when no remote target is
// configured. The reference imports no other part, so a bad value is thrown as the variable and what
// it allows, and the configuration turns that into its one-line error.
import { DEFAULT_CALLS, DEFAULT_SEED, MAX_CALLS } from './fixtures.ts';
import { DEFAULT_READINGS, isReferenceReadings, REFERENCE_READINGS, type ReferenceReadings } from './readings.ts';
import { LIVE_RATE_RULE, parseLiveRate } from './live/rate.ts';
import { parseSettleDelay, SETTLE_DELAY_RULE } from './live/settle-delay.ts';
import { ANSWER_AGE_RULE, formatAnswerAge, parseAnswerAge } from './answer-age.ts';
import { DEFAULT_GET_ENVELOPE, GET_ENVELOPES, isGetEnvelope, type GetEnvelope } from './get-envelope.ts';
import { parseAlternatives, REFERENCE_ALTERNATIVES, type ReferenceAlternative } from './alternatives.ts';

/** The embedded reference's options, as the runner hands them to its command line (playwright.config.ts). */
export interface EmbeddedReferenceOptions {
  seed: number;
  calls: number;
  readings: ReferenceReadings;
  /** New calls a second when the reference lives (REFERENCE_LIVE); absent: it stands still. */
  live?: number;
  /** Seconds after a live call's end over which its late fields settle, `MIN-MAX` (REFERENCE_SETTLE_DELAY); absent: the reference's default. */
  settleDelay?: string;
  /** How old List Calls' and Get Call's answers are, `list=cache:10,get=replica:5` (REFERENCE_ANSWER_AGE); absent: every answer fresh. */
  answerAge?: string;
  getEnvelope: GetEnvelope;
  /** Readings the words allow that the reference serves instead of its own (REFERENCE_ALTERNATIVES); none by default. */
  alternatives: readonly ReferenceAlternative[];
}

/** A variable of the reference's options the configuration cannot run with: which, and what it allows. */
export class ReferenceOptionError extends Error {
  constructor(
    readonly variable: string,
    readonly detail: string,
  ) {
    super(`${variable} ${detail}`);
  }
}

/**
 * The reference's options from `read` (a variable's value, undefined when it is unset or empty), in
 * the order the variables are checked and the configuration shows them.
 */
export function referenceOptionsFromEnv(read: (name: string) => string | undefined): EmbeddedReferenceOptions {
  return {
    seed: readInteger('REFERENCE_SEED', read('REFERENCE_SEED'), 0, 2 ** 32 - 1) ?? DEFAULT_SEED,
    calls: readInteger('REFERENCE_CALLS', read('REFERENCE_CALLS'), 1, MAX_CALLS) ?? DEFAULT_CALLS,
    readings: readReadings(read('REFERENCE_READINGS')),
    ...readLiveRate(read('REFERENCE_LIVE')),
    ...readSettleDelay(read('REFERENCE_SETTLE_DELAY')),
    ...readAnswerAge(read('REFERENCE_ANSWER_AGE')),
    getEnvelope: readGetEnvelope(read('REFERENCE_GET_ENVELOPE')),
    alternatives: readAlternatives(read('REFERENCE_ALTERNATIVES')),
  };
}

function readInteger(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ReferenceOptionError(name, `must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

function readReadings(value: string | undefined): ReferenceReadings {
  if (value === undefined) return DEFAULT_READINGS;
  if (!isReferenceReadings(value))
    throw new ReferenceOptionError('REFERENCE_READINGS', `must be one of ${REFERENCE_READINGS.join(', ')} (got "${value}")`);
  return value;
}

function readLiveRate(value: string | undefined): { live?: number } {
  if (value === undefined) return {};
  const live = parseLiveRate(value);
  if (live === undefined) throw new ReferenceOptionError('REFERENCE_LIVE', `must be ${LIVE_RATE_RULE} (got "${value}")`);
  return { live };
}

/** The living reference's settle delay, as its --settle-delay takes it (live/settle-delay.ts). */
function readSettleDelay(value: string | undefined): { settleDelay?: string } {
  if (value === undefined) return {};
  const delay = parseSettleDelay(value.trim());
  if (delay === undefined) throw new ReferenceOptionError('REFERENCE_SETTLE_DELAY', `must be ${SETTLE_DELAY_RULE} (got "${value}")`);
  return { settleDelay: `${delay[0]}-${delay[1]}` };
}

/** How old the reference's answers are, as its --answer-age takes them (answer-age.ts). */
function readAnswerAge(value: string | undefined): { answerAge?: string } {
  if (value === undefined) return {};
  const ages = parseAnswerAge(value.trim());
  if (ages === undefined) throw new ReferenceOptionError('REFERENCE_ANSWER_AGE', `must be ${ANSWER_AGE_RULE} (got "${value}")`);
  return { answerAge: formatAnswerAge(ages) };
}

function readGetEnvelope(value: string | undefined): GetEnvelope {
  if (value === undefined) return DEFAULT_GET_ENVELOPE;
  if (!isGetEnvelope(value))
    throw new ReferenceOptionError('REFERENCE_GET_ENVELOPE', `must be one of ${GET_ENVELOPES.join(', ')} (got "${value}")`);
  return value;
}

function readAlternatives(value: string | undefined): ReferenceAlternative[] {
  const read = parseAlternatives(value ?? '');
  if ('unknown' in read)
    throw new ReferenceOptionError(
      'REFERENCE_ALTERNATIVES',
      `must be a comma-separated list of ${REFERENCE_ALTERNATIVES.join(', ')} (got "${read.unknown}")`,
    );
  return read.alternatives;
}
