// Users, groups with members, and messages per group. The fixture group and user of
// ../fixtures.ts are built first, by construction, so every seed and size has them.
import type { Group, Message, User } from '../model.ts';
import { OUTSIDER_UID, UNREAD_FIXTURE } from '../fixtures.ts';
import type { Random } from './random.ts';

export interface Directory {
  users: User[];
  groups: Group[];
  messages: Message[];
}

export const DATA_EPOCH = 1_735_689_600; // 2025-01-01T00:00:00Z: timestamps are 10-digit and fixed
export const DATA_SPAN_SECONDS = 180 * 24 * 3600;
/** The data set's "now": ongoing calls are still running at this instant. */
export const DATA_NOW = DATA_EPOCH + DATA_SPAN_SECONDS;

export function generateDirectory(random: Random, callCount: number): Directory {
  const userCount = Math.max(12, Math.min(10_000, Math.ceil(callCount / 20)));
  const users = Array.from({ length: userCount }, (_, i) => ({
    uid: `user-${String(i + 1).padStart(5, '0')}`,
    name: `User ${i + 1}`,
  }));
  const uids = users.map((user) => user.uid);

  const groupCount = Math.max(3, Math.ceil(userCount / 10));
  const groups: Group[] = [];
  for (let i = 0; i < groupCount; i += 1) {
    const guid = `group-${String(i + 1).padStart(4, '0')}`;
    const size = random.int(3, Math.min(60, uids.length));
    let members = random.sample(uids, size);
    if (guid === UNREAD_FIXTURE.groupGuid) {
      members = [UNREAD_FIXTURE.actingUid, ...members.filter((uid) => uid !== UNREAD_FIXTURE.actingUid && uid !== OUTSIDER_UID)];
    }
    groups.push({ guid, name: `Group ${i + 1}`, members });
  }

  const messages: Message[] = [];
  for (const group of groups) {
    const count = group.guid === UNREAD_FIXTURE.groupGuid ? 20 : random.int(5, 30);
    let sentAt = DATA_EPOCH + random.int(0, DATA_SPAN_SECONDS / 2);
    for (let i = 0; i < count; i += 1) {
      sentAt += random.int(5, 3600);
      messages.push({ id: messages.length + 1, guid: group.guid, sender: random.pick(group.members), sentAt });
    }
  }
  return { users, groups, messages };
}
