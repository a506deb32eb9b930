// The reference implementation's one store: the generated data set, its call index, and the only
// mutable state, the per-user read pointers of group conversations. `reset()` forgets the latter.
// A living store (live/) also logs calls as time passes: its calls are read at one moment at a time.
import { generateDataSet, type CallRow, type DataSet } from './data/generate.ts';
import { buildCallIndex, type CallIndex, type IndexReadings, type StartedAtFilterField } from './call-index.ts';
import type { ReferenceAlternative } from './alternatives.ts';
import type { Group, Message, StoredCall, User } from './model.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from './readings.ts';
import { callSource } from './data/calls.ts';
import { createLivingCalls, type LiveOptions } from './live/living-calls.ts';

export interface Store {
  /** The data set; a living store's live calls are not in it. */
  readonly data: DataSet;
  /** Every call; in a living store, as they are at this reading of its clock. */
  readonly calls: CallIndex;
  user(uid: string): User | undefined;
  group(guid: string): Group | undefined;
  message(id: number): Message | undefined;
  materialize(row: CallRow): StoredCall;
  /** Marks the messages after `messageId` as unread for the user: its read pointer moves there. */
  markUnread(guid: string, uid: string, messageId: number): void;
  /** The id of the last message the user has read in the group, if any was recorded. */
  readPointer(guid: string, uid: string): number | undefined;
  /** How many messages of the group are after the user's read pointer (all of them without one). */
  unreadCount(guid: string, uid: string): number;
  reset(): void;
  /**
   * The store as one answer sees it: its calls at one reading of the clock, so that a list, its
   * total and Get Call agree; or, for an answer a lagging replica gives, at the moment `behind`
   * seconds before it (never before the living's beginning). A store that stands still is the same
   * at every moment: itself.
   */
  atOneMoment(behind?: number): Store;
}

/** How the reference serves what is not its data: living or standing still, which time the startedAt filter compares, and the alternative readings it follows. */
export interface StoreOptions {
  live?: LiveOptions;
  startedAtField?: StartedAtFilterField;
  alternatives?: readonly ReferenceAlternative[];
}

export function createStore(
  seed: number,
  callCount: number,
  readings: ReferenceReadings = DEFAULT_READINGS,
  { live, startedAtField, alternatives = [] }: StoreOptions = {},
): Store {
  const still = createStillStore(seed, callCount, readings, (data) => indexReadingsOf(data, startedAtField, alternatives));
  if (!live) return still;
  const living = createLivingCalls(
    callSource(seed, still.data, readings),
    still.calls,
    live,
    indexReadingsOf(still.data, startedAtField, alternatives),
  );
  // A live call's row shows it at one moment: it is materialised afresh from the row, never kept.
  const materialize = (row: CallRow) => (row.live ? living.materialize(row) : still.materialize(row));
  const atOneMoment = (behind = 0): Store => at(living.now(behind));
  const at = (now: number): Store => ({ ...still, calls: living.indexAt(now), materialize, atOneMoment });
  return {
    ...still,
    // Each time it is asked, a reading of the clock; a request asks `atOneMoment()` once instead.
    get calls() {
      return living.indexAt(living.now());
    },
    materialize,
    atOneMoment,
  };
}

/** How the call index reads the words for these options: the reference's own readings, or the alternatives it serves. */
function indexReadingsOf(
  data: DataSet,
  startedAtField: StartedAtFilterField | undefined,
  alternatives: readonly ReferenceAlternative[],
): IndexReadings {
  const groups = new Map(data.groups.map((group) => [group.guid, group.members]));
  return {
    ...(startedAtField && { startedAtField }),
    participantsCountPeople: alternatives.includes('participants-count-people'),
    ...(alternatives.includes('on-behalf-of-groups') && { membersOf: (guid: string) => groups.get(guid) }),
    exactDates: alternatives.includes('dates-exact'),
  };
}

function createStillStore(
  seed: number,
  callCount: number,
  readings: ReferenceReadings,
  indexReadings: (data: DataSet) => IndexReadings,
): Store {
  const data = generateDataSet(seed, callCount, readings);
  const calls = buildCallIndex(data.rows, indexReadings(data));
  const users = new Map(data.users.map((user) => [user.uid, user]));
  const groups = new Map(data.groups.map((group) => [group.guid, group]));
  const messages = new Map(data.messages.map((message) => [message.id, message]));
  const readPointers = new Map<string, number>();
  const pointerKey = (guid: string, uid: string) => `${guid}\u0000${uid}`;

  const store: Store = {
    data,
    calls,
    user: (uid) => users.get(uid),
    group: (guid) => groups.get(guid),
    message: (id) => messages.get(id),
    materialize: remembered(data.materialize, MATERIALIZED_CALLS_KEPT),
    markUnread: (guid, uid, messageId) => void readPointers.set(pointerKey(guid, uid), messageId),
    readPointer: (guid, uid) => readPointers.get(pointerKey(guid, uid)),
    unreadCount(guid, uid) {
      const pointer = readPointers.get(pointerKey(guid, uid)) ?? 0;
      return data.messages.filter((message) => message.guid === guid && message.id > pointer).length;
    },
    reset: () => readPointers.clear(),
    atOneMoment: () => store,
  };
  return store;
}

/**
 * Calls are generated from their compact rows on demand, so that a data set of a million calls fits
 * in memory; the most recently shown are kept, since generating a call costs more than sending it.
 * Kept calls are frozen: a fault or a route that changed one in place would change every later
 * answer, and fails loudly instead.
 */
const MATERIALIZED_CALLS_KEPT = 20_000;

function remembered(materialize: (row: CallRow) => StoredCall, capacity: number): (row: CallRow) => StoredCall {
  const kept = new Map<number, StoredCall>();
  return (row) => {
    const found = kept.get(row.index);
    if (found) {
      // Most recently used last: a Map iterates in insertion order, so the first key is the oldest.
      kept.delete(row.index);
      kept.set(row.index, found);
      return found;
    }
    const call = deepFreeze(materialize(row));
    kept.set(row.index, call);
    if (kept.size > capacity) kept.delete(kept.keys().next().value!);
    return call;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
