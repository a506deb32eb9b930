// Mark Group Conversation As Unread moves the acting user's read pointer to the message and answers
// {data: {success: true, message}}; every refused request answers its error and changes nothing.
import fc from 'fast-check';
import { test, expect, expectContractValid, type RawRequest } from '../reference-fixtures.ts';
import { OUTSIDER_UID, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import type { Store } from '../../reference/store.ts';
import { readPointers } from './store-state.ts';

const { groupGuid, actingUid, messageId } = UNREAD_FIXTURE;
const readPath = (guid: string) => `/groups/${encodeURIComponent(guid)}/conversation/read`;

/**
 * A well-formed request, with the given changes. The body goes as a Buffer: Playwright would send a
 * string that is not valid JSON under a JSON content-type re-encoded as a JSON string.
 */
function markRequest({
  headers = {},
  data = JSON.stringify({ messageId }),
}: { headers?: Record<string, string>; data?: string } = {}): RawRequest {
  return { method: 'DELETE', headers: { 'content-type': 'application/json', onBehalfOf: actingUid, ...headers }, data: Buffer.from(data) };
}

test.beforeEach(({ reference }) => reference.store.reset());

test('marking the fixture conversation unread answers success naming the message, and moves the read pointer there', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const { store } = reference;
  const groupMessages = store.data.messages.filter((message) => message.guid === groupGuid);
  expect(store.unreadCount(groupGuid, actingUid)).toBe(groupMessages.length);

  const answer = await sendAuthorized(readPath(groupGuid), markRequest());
  expectContractValid(contract, 'markGroupConversationAsUnread', answer);
  expect(answer.status).toBe(200);
  expect(answer.body.data.success).toBe(true);
  expect(answer.body.data.message).toMatch(new RegExp(`\\b${messageId}\\b`));
  expect(store.readPointer(groupGuid, actingUid)).toBe(messageId);
  expect(store.unreadCount(groupGuid, actingUid)).toBe(groupMessages.filter((message) => message.id > messageId).length);
});

test("for any member of any group and any message of that group, marking unread moves only that member's pointer there", async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const { store } = reference;
  const marks = fc.constantFrom(...store.data.groups).chain((group) =>
    fc.record({
      guid: fc.constant(group.guid),
      uid: fc.constantFrom(...group.members),
      id: fc.constantFrom(...store.data.messages.filter((message) => message.guid === group.guid).map((message) => message.id)),
    }),
  );

  await fc.assert(
    fc.asyncProperty(marks, async ({ guid, uid, id }) => {
      const before = readPointers(store);
      const answer = await sendAuthorized(
        readPath(guid),
        markRequest({ headers: { onBehalfOf: uid }, data: JSON.stringify({ messageId: id }) }),
      );
      expectContractValid(contract, 'markGroupConversationAsUnread', answer);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ success: true, message: expect.stringMatching(new RegExp(`\\b${id}\\b`)) });
      expect(readPointers(store)).toEqual({ ...before, [`${guid} ${uid}`]: id });
      expect(store.unreadCount(guid, uid)).toBe(store.data.messages.filter((message) => message.guid === guid && message.id > id).length);
    }),
    { numRuns: 50 },
  );
});

interface Refusal {
  title: string;
  guid?: string;
  /** The request, from the data set where it needs a message of it. */
  request: (store: Store) => RawRequest;
  status: number;
  code: string;
  /** The request parts error.details names, for a 400. */
  details?: string[];
}

const withMessageId = (id: number | string) => markRequest({ data: JSON.stringify({ messageId: id }) });
const badRequest = (title: string, request: RawRequest, details: string[]): Refusal => ({
  title,
  request: () => request,
  status: 400,
  code: 'ERR_BAD_REQUEST',
  details,
});

const REFUSALS: Refusal[] = [
  { title: 'an unknown group', guid: 'group-9999', request: () => markRequest(), status: 404, code: 'ERR_GUID_NOT_FOUND' },
  {
    title: 'a message of another group',
    request: (store) => withMessageId(store.data.messages.find((message) => message.guid !== groupGuid)!.id),
    status: 404,
    code: 'ERR_MESSAGE_ID_NOT_FOUND',
  },
  {
    title: 'an unknown message',
    request: (store) => withMessageId(Math.max(...store.data.messages.map((message) => message.id)) + 1),
    status: 404,
    code: 'ERR_MESSAGE_ID_NOT_FOUND',
  },
  {
    title: 'an acting user outside the group',
    request: () => markRequest({ headers: { onBehalfOf: OUTSIDER_UID } }),
    status: 403,
    code: 'ERR_NOT_A_MEMBER',
  },
  {
    title: 'an acting user who does not exist',
    request: () => markRequest({ headers: { onBehalfOf: 'user-99999' } }),
    status: 404,
    code: 'ERR_UID_NOT_FOUND',
  },
  badRequest('no acting user', { ...markRequest(), headers: { 'content-type': 'application/json' } }, ['onBehalfOf']),
  badRequest('malformed JSON', markRequest({ data: '{"messageId": 5' }), ['body']),
  badRequest('a JSON array', markRequest({ data: '[5]' }), ['messageId']),
  badRequest('messageId as a string', withMessageId('5'), ['messageId']),
  badRequest('messageId as a fraction', withMessageId(5.5), ['messageId']),
  badRequest('messageId 0', withMessageId(0), ['messageId']),
  badRequest('a negative messageId', withMessageId(-5), ['messageId']),
  badRequest('no messageId', markRequest({ data: '{}' }), ['messageId']),
  badRequest('no body', { method: 'DELETE', headers: { 'content-type': 'application/json', onBehalfOf: actingUid } }, ['body']),
  badRequest('a text/plain body', markRequest({ headers: { 'content-type': 'text/plain' } }), ['content-type']),
  {
    title: 'a body over 64 KiB',
    request: () => markRequest({ data: JSON.stringify({ messageId, padding: 'x'.repeat(64 * 1024) }) }),
    status: 413,
    code: 'ERR_BAD_REQUEST',
  },
];

for (const refusal of REFUSALS) {
  test(`marking unread with ${refusal.title} is refused and changes nothing`, async ({ sendAuthorized, contract, reference }) => {
    const before = readPointers(reference.store);
    const answer = await sendAuthorized(readPath(refusal.guid ?? groupGuid), refusal.request(reference.store));
    expectContractValid(contract, 'markGroupConversationAsUnread', answer);
    expect(answer.status).toBe(refusal.status);
    expect(answer.body.error.code).toBe(refusal.code);
    if (refusal.details) expect(Object.keys(answer.body.error.details).sort()).toEqual(refusal.details);
    expect(readPointers(reference.store)).toEqual(before);
  });
}
