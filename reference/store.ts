// The reference implementation's one store: the generated data set, its call index, and the only
// mutable state, the per-user read pointers of group conversations. `reset()` forgets the latter.
import { generateDataSet, type CallRow, type DataSet } from './data/generate.ts';
import { buildCallIndex, type CallIndex, type StartedAtFilterField } from './call-index.ts';
import type { Group, Message, StoredCall, User } from './model.ts';
import { DEFAULT_READINGS, type ReferenceReadings } from './readings.ts';

export interface Store {
  readonly data: DataSet;
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
}

export function createStore(seed: number, callCount: number, readings: ReferenceReadings = DEFAULT_READINGS, startedAtField?: StartedAtFilterField): Store {
  const data = generateDataSet(seed, callCount, readings);
  const calls = buildCallIndex(data.rows, startedAtField);
  const users = new Map(data.users.map((user) => [user.uid, user]));
  const groups = new Map(data.groups.map((group) => [group.guid, group]));
  const messages = new Map(data.messages.map((message) => [message.id, message]));
  const readPointers = new Map<string, number>();
  const pointerKey = (guid: string, uid: string) => `${guid}\u0000${uid}`;

  return {
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
  };
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
