// The living reference's one setting, the rate at which it logs new calls, and how a command line
// or a variable spells it. Apart from the server so that the suite's configuration can import it.

/** More than this would make the per-moment scan of the live calls the cost of every answer. */
const MAX_LIVE_RATE = 50;

/** What `--live RATE` and REFERENCE_LIVE accept: a positive decimal number of new calls a second. */
export const LIVE_RATE_RULE = `a positive decimal number of new calls a second, at most ${MAX_LIVE_RATE} (0.2 logs one every five seconds)`;

/** The rate `raw` spells, or undefined when it spells none. */
export function parseLiveRate(raw: string): number | undefined {
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(raw)) return undefined;
  const rate = Number(raw);
  return rate > 0 && rate <= MAX_LIVE_RATE ? rate : undefined;
}
