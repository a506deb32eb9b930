// The living reference's second setting: over how many seconds after a call ends its late fields
// settle (its recording, its final minutes), as a deployment's recording pipeline and billing tally
// finish some seconds after the call. How a command line or a variable spells it, apart from the
// server so that the suite's configuration can import it.

/** The least and the most seconds after a call's end its late fields settle; each call draws its own delays in it. */
export type SettleDelay = readonly [number, number];

/** A living reference settles late by default: a suite that only ever saw calls final at their end was never tested against one that does not. */
export const DEFAULT_SETTLE_DELAY: SettleDelay = Object.freeze([2, 15] as const);

/** Every late field final the moment the call ends, as the living reference was before it settled late. */
export const NO_SETTLE_DELAY: SettleDelay = Object.freeze([0, 0] as const);

/**
 * The suite judges a call settled, on the evidence of the target's own clock, 300 seconds after its
 * last moment (core/checks/settling.ts, DEFAULT_SETTLE_SECONDS): a reference still settling past
 * that would be a faulty target, not a late one.
 */
const MAX_SETTLE_DELAY_SECONDS = 300;

/** What `--settle-delay` and REFERENCE_SETTLE_DELAY accept. */
export const SETTLE_DELAY_RULE = `whole seconds MIN-MAX (such as 2-15), or N for N-N, from 0 to ${MAX_SETTLE_DELAY_SECONDS} with MIN not above MAX (0: every call settles the moment it ends)`;

/** Whether `delay` is one the living reference can follow: whole seconds, in order, within the bound. */
export const isSettleDelay = (delay: readonly number[]): delay is SettleDelay =>
  delay.length === 2 &&
  delay.every((seconds) => Number.isInteger(seconds) && seconds >= 0 && seconds <= MAX_SETTLE_DELAY_SECONDS) &&
  delay[0]! <= delay[1]!;

/** The delay `raw` spells (`2-15`, or `4` for 4-4), or undefined when it spells none. */
export function parseSettleDelay(raw: string): SettleDelay | undefined {
  const match = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(raw);
  if (!match) return undefined;
  const delay = [Number(match[1]), Number(match[2] ?? match[1])];
  return isSettleDelay(delay) ? delay : undefined;
}

/** The delay as the start-up line and the reports word it. */
export const describeSettleDelay = ([min, max]: SettleDelay): string =>
  max === 0 ? 'each call settled the moment it ends' : `each call settling ${min === max ? `${max}` : `${min} to ${max}`} s after it ends`;
