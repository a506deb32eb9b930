// What the passive judge keeps across exchanges (passive/judge.ts), each store bounded: the answers
// that showed session ids, the answers about calls in each view, the keys the target called unknown,
// and the target's clock. Each keeps the earliest answer that showed an id or called a key unknown,
// and the latest answer about a call in each view, by the recording's times (passive/over-time.ts).
import type { Exchange } from '../core/transport/exchange.ts';
import { TargetClock, type KeptAnswer, type Span } from './over-time.ts';

/** An answer that showed a session id, or called a key unknown: where, and when it happened. */
export interface Sighting {
  source: string;
  span?: Span;
}

/** An answer kept for a merge to judge against other judges' sightings: the sighting, and its exchange (slim) to cite. */
export interface CitedSighting extends Sighting {
  exchange: Exchange;
}

/** Whether `candidate` surely started after `kept` did, so that more earlier answers are surely before it. */
export const later = (candidate: Sighting, kept: Sighting | undefined): boolean =>
  kept === undefined || (candidate.span !== undefined && (kept.span === undefined || candidate.span.start > kept.span.start));

/** Whether `candidate` surely ended before `kept` did, so that more later answers are surely after it. */
export const sooner = (candidate: Sighting, kept: Sighting | undefined): boolean =>
  kept === undefined || (candidate.span !== undefined && (kept.span === undefined || candidate.span.end < kept.span.end));

const RESPONSE_TEXT_KEPT = 2_000;

/**
 * A string of its own. V8 makes a slice of a long string a view that keeps the whole string alive
 * (and a concatenation keeps its parts), so a body cut to its first 2,000 characters still held all
 * of a page of megabytes: the 5,000 calls kept, each with its page, held most of the judge's live
 * heap. Copied through UTF-16 code units, which keep any lone surrogate the cut left as it was.
 */
const detached = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');

/** Each exchange's slim copy, made once: every call of a page is kept with its page, and they share one copy. */
const slimmed = new WeakMap<Exchange, Exchange>();

/** A kept copy of an exchange: bodies cut, so that a kept violation or call costs little. */
export function slim(exchange: Exchange): Exchange {
  const made = slimmed.get(exchange);
  if (made !== undefined) return made;
  const text =
    exchange.response.text.length > RESPONSE_TEXT_KEPT
      ? detached(`${exchange.response.text.slice(0, RESPONSE_TEXT_KEPT)}… (${exchange.response.text.length} characters)`)
      : exchange.response.text;
  const copy = { ...exchange, response: { ...exchange.response, text, body: undefined } };
  slimmed.set(exchange, copy);
  return copy;
}

/** A capped map: the oldest entry goes first when it is full. */
class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }
  entries(): Array<[K, V]> {
    return [...this.map];
  }
}

/** How much each store keeps (passive/judge.ts's PassiveLimits). */
export interface SightingLimits {
  shownSessionIds: number;
  settledCalls: number;
  unknownKeys: number;
  clockReadings: number;
}

/** What cross-exchange checks keep, each bounded; keys are `host id` (a session id, or a key's hash). */
export class Sightings {
  readonly shownIds: Bounded<string, Sighting>;
  readonly listedCalls: Bounded<string, KeptAnswer>;
  readonly fetchedCalls: Bounded<string, KeptAnswer>;
  readonly unknownKeys: Bounded<string, Sighting>;
  // For a merge only (judge-state.ts): the latest answer to each key that was not a refusal, and the
  // latest Get Call that called each id unknown. Another judge's refusal or sighting may come before them.
  readonly keyAnswers: Bounded<string, CitedSighting>;
  readonly notFound: Bounded<string, CitedSighting>;
  readonly clock: TargetClock;

  constructor(limits: SightingLimits) {
    this.shownIds = new Bounded(limits.shownSessionIds);
    this.listedCalls = new Bounded(limits.settledCalls);
    this.fetchedCalls = new Bounded(limits.settledCalls);
    this.unknownKeys = new Bounded(limits.unknownKeys);
    this.keyAnswers = new Bounded(limits.unknownKeys);
    this.notFound = new Bounded(limits.unknownKeys);
    this.clock = new TargetClock(limits.clockReadings);
  }
}
