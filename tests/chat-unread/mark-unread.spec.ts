import { test, requirement, requirementOn } from '../../fixtures/index.ts';
import { succeeds } from '../../fixtures/checks/errors.ts';
import { shown } from '../../fixtures/checks/violation.ts';

test('CHAT-UNREAD-OK DELETE /groups/{guid}/conversation/read with a fullAccess key answers 200, application/json, with the result', requirement('CHAT-UNREAD-OK'), async ({ api, verdict, unread }) => {
  const exchange = await api.markGroupConversationAsUnread(unread.groupGuid, { messageId: unread.messageId }, { onBehalfOf: unread.actingUid });

  const contentType = exchange.response.headers['content-type'] ?? '';
  verdict.enforce([
    ...succeeds(exchange, 'CHAT-UNREAD-OK', 'mark-unread with a fullAccess key', 200),
    ...(/^application\/json\b/i.test(contentType) ? [] : [{ check: 'content_type', requirement: 'CHAT-UNREAD-OK', title: 'mark-unread did not answer application/json', expected: 'content-type application/json', received: `content-type ${shown(contentType)}`, exchange }]),
  ]);
});

test('CHAT-UNREAD-RESULT-SHAPE the result holds data.success (boolean) and data.message (string)', requirementOn('markGroupConversationAsUnread', 'CHAT-UNREAD-RESULT-SHAPE'), async ({ api, verdict, checks, unread }) => {
  const exchange = await api.markGroupConversationAsUnread(unread.groupGuid, { messageId: unread.messageId }, { onBehalfOf: unread.actingUid });
  test.skip(exchange.response.text === '', `Not judged: mark-unread answered ${exchange.response.status} with no body, so there is no result to judge (CHAT-UNREAD-OK says why).`);

  verdict.enforce([
    // The status is CHAT-UNREAD-OK's to judge; this test judges the body it came with.
    ...succeeds(exchange, 'CHAT-UNREAD-OK', 'mark-unread with a fullAccess key', 200),
    ...checks.contract.validateResponse('markGroupConversationAsUnread', 200, exchange.response.body).map((violation) => ({
      check: 'response_schema_conformance', requirement: 'CHAT-UNREAD-RESULT-SHAPE', title: `${violation.valuePath || '/'} ${violation.message}`,
      expected: `${violation.message} (${violation.schemaPath})`, received: shown(exchange.response.body), exchange,
    })),
  ]);
});

test('CHAT-UNREAD-ACTING-USER reports what mark-unread answers with and without onBehalfOf', requirement('CHAT-UNREAD-ACTING-USER'), async ({ api, verdict, unread }) => {
  const withUser = await api.markGroupConversationAsUnread(unread.groupGuid, { messageId: unread.messageId }, { onBehalfOf: unread.actingUid });
  const withoutUser = await api.markGroupConversationAsUnread(unread.groupGuid, { messageId: unread.messageId });

  verdict.observe('CHAT-UNREAD-ACTING-USER', `with onBehalfOf: status ${withUser.response.status}; without it: status ${withoutUser.response.status} ${shown(withoutUser.response.body, 120)}`);
});
