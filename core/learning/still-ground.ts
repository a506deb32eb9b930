// Ground that cannot move. A comparison of answers taken at different moments fails on a living
// target exactly when reads are slow next to the movement, so where the target allows it, the suite
// compares lists pinned to history the deployment can no longer change: calls that ended at or
// before a moment SETTLE_SECONDS older than the newest moment its data shows (checks/settling.ts).
// New calls have not ended that early, and calls that did have settled. The pin needs the endedAt
// filter to act as an upper bound, which the suite learns (learning/dates.ts); where it does not (it
// matches exactly, is a lower bound, or selects by no meaning), there is no pin, and the comparisons
// fall back to movement detection (moving-data.ts), and say so.
import type { DateDetection } from './dates.ts';
import type { DateField, DateReading } from '../checks/dates.ts';
import type { Query } from '../transport/api.ts';

/** The endedAt readings under which `endedAt=T` holds only calls that ended by T. */
const UPPER_BOUNDS: ReadonlySet<DateReading> = new Set(['at-or-before', 'before']);

export type Ground = { kind: 'pinned'; query: Query; describe: string } | { kind: 'moving'; query: Query; describe: string };

export function stillGround(dates: Readonly<Record<DateField, DateDetection>>, clock: number | undefined, settleSeconds: number): Ground {
  const accepted = dates.endedAt.accepted;
  const bounded = accepted.length > 0 && accepted.every((reading) => UPPER_BOUNDS.has(reading));
  if (!bounded || clock === undefined) {
    const why =
      clock === undefined
        ? 'the sampled calls show no moment to pin to'
        : accepted.length === 0
          ? 'the endedAt filter selects by no meaning the suite could learn'
          : `the endedAt filter reads as ${accepted.join(' or ')}, not as an upper bound`;
    return { kind: 'moving', query: {}, describe: `no pinned ground (${why}): compared by movement detection` };
  }
  const pin = clock - settleSeconds;
  return {
    kind: 'pinned',
    query: { endedAt: pin },
    describe: `pinned ground: lists bounded by endedAt=${pin} (calls that ended ${settleSeconds} s or more before the newest moment the data showed, read as ${accepted.join(' or ')}), which can no longer change`,
  };
}
