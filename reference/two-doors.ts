// One store served through two doors: a clean reference, and beside it a second server over the very
// same calls (moving alike, when they live) with a fault of the catalog or alternative readings of
// its own. The diff's self-tests and the benchmark compare a candidate with its primary this way, on
// the same data, as a canary beside production reads the same database.
import { createServer, type ReferenceOptions } from './server.ts';
import type { ReferenceAlternative } from './alternatives.ts';

/** What the second door may serve differently: what it answers, not which calls there are. */
export type SecondDoor = Pick<ReferenceOptions, 'fault' | 'alternatives' | 'getEnvelope' | 'keys' | 'answerAge'>;

/** Alternatives the store itself is built under (store.ts): one store cannot serve them through one door only. */
const STORE_ALTERNATIVES: readonly ReferenceAlternative[] = ['participants-count-people', 'on-behalf-of-groups', 'dates-exact'];

export interface TwoDoors {
  /** Each door's base address, ending in /v3. */
  primary: string;
  candidate: string;
  close(): Promise<void>;
}

export async function openTwoDoors(options: ReferenceOptions, second: SecondDoor, host = '127.0.0.1'): Promise<TwoDoors> {
  const fromStore = (second.alternatives ?? []).filter((alternative) => STORE_ALTERNATIVES.includes(alternative));
  if (fromStore.length > 0) throw new Error(`two doors share one store: ${fromStore.join(', ')} changes the store, not one door's answers`);
  const first = createServer(options);
  const other = createServer({ ...options, ...second, store: first.store });
  const [primary, candidate] = [await first.listen(0, host), await other.listen(0, host)];
  return { primary, candidate, close: async () => void (await Promise.all([first.close(), other.close()])) };
}
