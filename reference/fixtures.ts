// Documented fixtures of the reference implementation: they exist for every seed and size, so the
// suite's defaults work without looking anything up. docs/reference.md lists them.

/** Demo keys; API_KEY and RESTRICTED_API_KEY override them (the same variables configure the suite). */
export const DEMO_KEYS = Object.freeze({
  fullAccess: 'reference-demo-fullaccess-key',
  readOnly: 'reference-demo-readonly-key',
});

/** What Mark Group Conversation As Unread uses by default: a group, one of its members, one of its messages. */
export const UNREAD_FIXTURE = Object.freeze({
  groupGuid: 'group-0001',
  actingUid: 'user-00001',
  messageId: 5,
});

/** A member of the application who is not a member of the fixture group. */
export const OUTSIDER_UID = 'user-00002';

export const DEFAULT_SEED = 1;
export const DEFAULT_CALLS = 1000;
export const MAX_CALLS = 1_000_000;
