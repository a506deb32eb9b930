// What the store holds that a request may change: every user's read pointer in every group.
import type { Store } from '../../reference/store.ts';

export function readPointers(store: Store): Record<string, number | undefined> {
  const pointers: Record<string, number | undefined> = {};
  for (const group of store.data.groups) {
    for (const user of store.data.users) pointers[`${group.guid} ${user.uid}`] = store.readPointer(group.guid, user.uid);
  }
  return pointers;
}
