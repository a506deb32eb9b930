// Some of a call settles after it ends: a deployment's recording pipeline sets hasRecording and adds
// the recording seconds later, and totals and a participant's leftAt may be finalised late. Two
// answers about one call, taken at two moments, may then differ without either being wrong. The rule
// is one way:
// - a call is settled only on evidence: it ended (or was last touched) SETTLE_SECONDS or more before
//   the target's own clock at the earlier answer; its status saying `ended` is not evidence;
// - between the answers of a call not yet settled, a later answer may have gained a late field
//   (hasRecording false → true, a recording appearing, minutes growing, leftAt appearing): movement;
// - losing one (a recording gone, minutes shrinking), any other difference, or any difference on a
//   settled call is a violation. Movement never excuses a wrong answer.
// The target's clock is read from its own data (the newest moment any answer shows), never from the
// suite's machine: a deployment's clock and ours may disagree, and a test target may run on its own.
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../transport/exchange.ts';
import { callsIn, isObject, numberOrUndefined, participantsOf, type CallObject } from './calls-in.ts';

/** How long after a call's last moment late fields may still settle, by default: generous next to the seconds a recording takes. */
export const DEFAULT_SETTLE_SECONDS = 300;

/** The call's and its participants' moments (UNIX seconds) that say how recent it is. */
const CALL_MOMENTS = ['initiatedAt', 'startedAt', 'endedAt'] as const;
const PARTICIPANT_MOMENTS = ['joinedAt', 'leftAt'] as const;

/** The latest moment a call shows (those before `before` only), or undefined when it shows none. */
export function lastMomentOf(call: CallObject, before = 1e11): number | undefined {
  // Loops with no function made per call: the passive judge reads this for every call it sees.
  let latest: number | undefined;
  for (const field of CALL_MOMENTS) latest = later(latest, numberOrUndefined(call[field]), before);
  for (const entry of participantsOf(call))
    for (const field of PARTICIPANT_MOMENTS) latest = later(latest, numberOrUndefined(entry[field]), before);
  return latest;
}

/** The later of `latest` and `moment`, where the moment is before `before`. */
const later = (latest: number | undefined, moment: number | undefined, before: number) =>
  moment !== undefined && moment < before && (latest === undefined || moment > latest) ? moment : latest;

/** Every moment a call shows (UNIX seconds), its participants' too: when it was logged, started, ended, and each join and leave. */
export function momentsOf(call: CallObject): number[] {
  const moments: number[] = [];
  for (const field of CALL_MOMENTS) {
    const moment = numberOrUndefined(call[field]);
    if (moment !== undefined) moments.push(moment);
  }
  for (const entry of participantsOf(call))
    for (const field of PARTICIPANT_MOMENTS) {
      const moment = numberOrUndefined(entry[field]);
      if (moment !== undefined) moments.push(moment);
    }
  return moments;
}

/** A moment later than the suite's own clock by more than this is no moment the target has seen yet: it is left out. */
const FUTURE_SKEW_SECONDS = 3_600;

/**
 * The target's own clock as its answers show it: the newest moment of any call they hold. It is a
 * lower bound of the target's now when they were answered (a call cannot have happened later), so a
 * call judged settled by it has been settled at least that long. A moment in the future of the
 * suite's machine by more than an hour of clock skew cannot have happened: a call dated there would
 * make every other call look settled, so it is left out (the clock is then only lower, never wrong).
 */
export function targetClock(answers: readonly Exchange[], nowSeconds = Date.now() / 1000): number | undefined {
  let newest: number | undefined;
  for (const exchange of answers) {
    for (const { call } of callsIn(exchange)) {
      const moment = lastMomentOf(call, nowSeconds + FUTURE_SKEW_SECONDS);
      if (moment !== undefined && (newest === undefined || moment > newest)) newest = moment;
    }
  }
  return newest;
}

/** Each answer's own clock, read once: the passive judge asks it for every call of a page. */
const answerClocks = new WeakMap<Exchange, number | undefined>();

/** The target's clock as one answer shows it: a lower bound of the target's now when it answered. */
export function answerClock(exchange: Exchange): number | undefined {
  if (!answerClocks.has(exchange)) answerClocks.set(exchange, targetClock([exchange]));
  return answerClocks.get(exchange);
}

/**
 * The lowest of the answers' own clocks: a lower bound of the target's now at each of them, whatever
 * order they were answered in, and at any answer after them. (The newest moment of them all is not:
 * answers taken together may have been answered before the one that shows it.)
 */
export function earliestClock(answers: readonly Exchange[]): number | undefined {
  let earliest: number | undefined;
  for (const answer of answers) {
    const clock = answerClock(answer);
    if (clock !== undefined && (earliest === undefined || clock < earliest)) earliest = clock;
  }
  return earliest;
}

/** Statuses of a call that has not ended: it may still be joined, end, and change its entries. */
export const UNENDED_STATUSES: ReadonlySet<string> = new Set(['initiated', 'ongoing']);

/** Terminal statuses: a call in one of them moves no more, but for the fields that settle late. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['ended', 'unanswered', 'rejected', 'canceled']);

/**
 * Whether the call had settled, on evidence, by `clock` (the target's clock, targetClock): it is in
 * a terminal status and its last moment is at least `settleSeconds` before the clock.
 */
export function settledBy(call: CallObject, clock: number | undefined, settleSeconds: number): boolean {
  if (clock === undefined || !TERMINAL_STATUSES.has(String(call.status))) return false;
  const last = lastMomentOf(call);
  return last !== undefined && clock - last >= settleSeconds;
}

export interface Difference {
  path: string;
  earlier: unknown;
  later: unknown;
  /** An entry of an array that only one of the answers has (not a field only one view carries). */
  entry?: boolean;
}

/** The fields that may arrive or grow after a call ends, by their last path segment. */
const GROWING_NUMBERS = new Set(['totalAudioMinutes', 'totalVideoMinutes', 'totalDurationInMinutes', 'totalDuration']);

/** Whether going from `earlier` to `later` at `path` is a late field settling (a gain), not a change. */
export function isLateGain({ path, earlier, later }: Difference): boolean {
  const field = path.split('/').at(-1) ?? '';
  if (field === 'hasRecording') return earlier !== true && later === true;
  if (field === 'leftAt') return earlier === undefined && typeof later === 'number';
  if (GROWING_NUMBERS.has(field)) {
    const before = field === 'totalDuration' ? timerOrNumber(earlier) : numberOrUndefined(earlier);
    const after = field === 'totalDuration' ? timerOrNumber(later) : numberOrUndefined(later);
    return after !== undefined && (earlier === undefined || (before !== undefined && after > before));
  }
  // A recording appearing: where recordings are is not shown, so any new value that holds one.
  return earlier === undefined && holdsRecording(later);
}

/** A timer (HH:MM:SS) in seconds, or a number as it is. */
function timerOrNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return numberOrUndefined(value);
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : undefined;
}

function holdsRecording(value: unknown, depth = 0): boolean {
  if (depth > 3 || value === null || typeof value !== 'object') return false;
  if (isObject(value) && 'rid' in value) return true;
  return Object.values(value).some((child) => holdsRecording(child, depth + 1));
}

/** What identifies a participant entry across answers: who, on which device, joined when. */
function entryKey(entry: unknown): string | undefined {
  if (!isObject(entry)) return undefined;
  return JSON.stringify([entry.uid, entry.deviceId, entry.joinedAt, entry.isJoined]);
}

/**
 * Every place the two answers about one call differ, earlier first. Participant entries are paired
 * by who they are (uid, device, joined when), since their order is not shown and their minutes may
 * grow; recordings by rid. A field only the later answer carries is a difference too (it may be a
 * late field arriving); one only the earlier carries is one (something lost).
 */
export function differencesOverTime(earlier: unknown, later: unknown, path = ''): Difference[] {
  // Two views alike, the usual case, are told so at once: the walk below would find nothing either.
  if (isDeepStrictEqual(earlier, later)) return [];
  if (isObject(earlier) && isObject(later)) {
    const keys = new Set([...Object.keys(earlier), ...Object.keys(later)]);
    return [...keys].flatMap((key) => differencesOverTime(earlier[key], later[key], `${path}/${key}`));
  }
  if (Array.isArray(earlier) && Array.isArray(later)) return arrayDifferences(earlier, later, path);
  return [{ path, earlier, later }];
}

/**
 * Pairs the entries of two arrays before comparing them: first those equal in everything, then by
 * who they are (participants) or their rid (recordings), then the rest by position when as many are
 * left on each side. What stays unpaired was lost (earlier only) or is new (later only).
 *
 * Each earlier entry takes the first later entry still unpaired that is equal to it (then, failing
 * that, of its key). The candidates are found through an index of the later entries, by a shape
 * that equal entries share (shapeOf) and then by key, not by a search of every later entry: two
 * calls of 100,000 participants each are paired in time that grows with their size.
 */
function arrayDifferences(earlier: readonly unknown[], later: readonly unknown[], path: string): Difference[] {
  const keyOf = (item: unknown) => (isObject(item) && 'rid' in item ? `rid:${JSON.stringify(item.rid)}` : entryKey(item));
  const paired = new Array<boolean>(later.length).fill(false);
  const byShape = indexOf(later, shapeOf);
  const rest: Array<{ item: unknown; index: number }> = [];
  const found: Difference[] = [];
  earlier.forEach((item, index) => {
    const match = takeFirst(byShape.get(shapeOf(item)), paired, (candidate) => isDeepStrictEqual(later[candidate], item));
    if (match === undefined) rest.push({ item, index });
  });
  const byKey = indexOf(later, keyOf, paired);
  const left: typeof rest = [];
  for (const entry of rest) {
    const key = keyOf(entry.item);
    const match = key === undefined ? undefined : takeFirst(byKey.get(key), paired, () => true);
    if (match !== undefined) found.push(...differencesOverTime(entry.item, later[match], `${path}/${entry.index}`));
    else left.push(entry);
  }
  const unpaired = later.flatMap((item, index) => (paired[index] ? [] : [{ item, index }]));
  if (left.length === unpaired.length) {
    left.forEach((entry, position) => found.push(...differencesOverTime(entry.item, unpaired[position]!.item, `${path}/${entry.index}`)));
    return found;
  }
  for (const entry of left) found.push({ path: `${path}/${entry.index}`, earlier: entry.item, later: undefined, entry: true });
  // Entries only the later answer has: a recording appearing is a gain; anything else is a difference.
  for (const entry of unpaired) found.push({ path: `${path}/+${entry.index}`, earlier: undefined, later: entry.item, entry: true });
  return found;
}

/** A bucket of candidates: their indices in order, and how many at its head are known to be paired already. */
interface Bucket {
  indices: number[];
  start: number;
}

/** The indices of `items` (those not yet paired) by `key`, each bucket in the order of the items. */
function indexOf(items: readonly unknown[], key: (item: unknown) => string | undefined, paired?: readonly boolean[]): Map<string, Bucket> {
  const buckets = new Map<string, Bucket>();
  items.forEach((item, index) => {
    if (paired?.[index]) return;
    const name = key(item);
    if (name === undefined) return;
    const bucket = buckets.get(name);
    if (bucket) bucket.indices.push(index);
    else buckets.set(name, { indices: [index], start: 0 });
  });
  return buckets;
}

/** Pairs and returns the first index of the bucket not yet paired that `fits`; undefined when none does. */
function takeFirst(bucket: Bucket | undefined, paired: boolean[], fits: (index: number) => boolean): number | undefined {
  if (!bucket) return undefined;
  // The paired ones at the head are passed once, not at every look.
  while (bucket.start < bucket.indices.length && paired[bucket.indices[bucket.start]!]) bucket.start += 1;
  for (let position = bucket.start; position < bucket.indices.length; position += 1) {
    const index = bucket.indices[position]!;
    if (paired[index] || !fits(index)) continue;
    paired[index] = true;
    return index;
  }
  return undefined;
}

/**
 * A text that any two values isDeepStrictEqual calls equal share: their JSON with the keys of each
 * object sorted (every number by its value, so 0 and -0 share it; what JSON cannot show by its type).
 * Two values of one shape are still compared in full before they are paired.
 */
function shapeOf(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
    if (typeof value === 'string') return JSON.stringify(value);
    return typeof value === 'bigint' ? `${String(value)}n` : `(${typeof value}:${String(value)})`;
  }
  if (Array.isArray(value)) return `[${value.map(shapeOf).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${shapeOf((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

export interface OverTime {
  /** Late fields that settled between the two answers: movement, not a fault. */
  gains: Difference[];
  /** Every other difference: the two answers cannot both be right. */
  breaks: Difference[];
}

/**
 * The one-way comparison of two answers about one call taken at two moments, `earlier` first.
 * `settled`: the call had settled by the earlier answer (settledBy), so nothing may change at all.
 * `compared` limits it to the fields both views carry (Get Call and List Calls may each carry fields
 * the other lacks): a field only one of them has is then not compared, unless it is a late field
 * the later one gained.
 */
export function overTime(earlier: CallObject, later: CallObject, settled: boolean, compared: 'all' | 'shared' = 'all'): OverTime {
  const all = differencesOverTime(earlier, later);
  const considered =
    compared === 'all'
      ? all
      : all.filter((difference) => difference.entry === true || (difference.earlier !== undefined && difference.later !== undefined));
  if (settled) return { gains: [], breaks: considered };
  // Only what is compared can be gained: a field one view never carries (Get Call's recordings, which
  // the list does not show) is neither a break nor a gain there, and must not send the suite to look again.
  const gains = considered.filter(isLateGain);
  return { gains, breaks: considered.filter((difference) => !isLateGain(difference)) };
}
