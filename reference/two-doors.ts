// One store served through two doors: a clean reference, and beside it a second server over the very
// same calls (moving alike, when they live) with a fault of the catalog or alternative readings of
// its own. The diff's self-tests and the benchmark compare a candidate with its primary this way, on
// the same data, as a canary beside production reads the same database.
import { createServer, type ReferenceOptions } from './server.ts';
import type { ReferenceAlternative } from './alternatives.ts';

/** What the second door may serve differently: what it answers, and how its own index reads the words. */
export type SecondDoor = Pick<
  ReferenceOptions,
  'fault' | 'alternatives' | 'getEnvelope' | 'keys' | 'answerAge' | 'readings' | 'startedAtFilter'
>;

/** Alternatives the store itself is built under (store.ts): the second door then needs a store of its own. */
const STORE_ALTERNATIVES: readonly ReferenceAlternative[] = ['participants-count-people', 'on-behalf-of-groups', 'dates-exact'];

export interface TwoDoors {
  /** Each door's base address, ending in /v3. */
  primary: string;
  candidate: string;
  close(): Promise<void>;
}

/**
 * Whether the second door must build its own store: a reading of the store (its totals, which calls a
 * filter keeps) differs. Built from the same seed and size it holds the same calls; standing still, it
 * stays the same as the first, so only a reference standing still can be served so.
 */
function needsOwnStore(options: ReferenceOptions, second: SecondDoor): boolean {
  const fromStore = (second.alternatives ?? []).filter((alternative) => STORE_ALTERNATIVES.includes(alternative));
  const own =
    fromStore.length > 0 ||
    (second.readings !== undefined && second.readings !== options.readings) ||
    (second.startedAtFilter !== undefined && second.startedAtFilter !== options.startedAtFilter);
  if (own && options.live !== undefined)
    throw new Error('two doors on a living store cannot read it two ways: a reading of the store is served standing still only');
  return own;
}

export async function openTwoDoors(options: ReferenceOptions, second: SecondDoor, host = '127.0.0.1'): Promise<TwoDoors> {
  const first = createServer(options);
  const other = createServer({ ...options, ...second, ...(!needsOwnStore(options, second) && { store: first.store }) });
  const [primary, candidate] = [await first.listen(0, host), await other.listen(0, host)];
  return { primary, candidate, close: async () => void (await Promise.all([first.close(), other.close()])) };
}
