import { test, expect, requirement } from '../../fixtures/index.ts';
import { describeExchange } from '../../fixtures/exchange.ts';

test('CHAT-UNREAD-OK DELETE /groups/{guid}/conversation/read answers 200 with data.success and data.message', requirement('CHAT-UNREAD-OK'), async ({ api, contract, suiteConfig }) => {
  test.skip(!suiteConfig.allowWrites, 'Writes are not allowed against this target (set ALLOW_WRITES=true and the UNREAD_* fixtures).');
  const { groupGuid, messageId, actingUid } = suiteConfig.unread!;

  const exchange = await api.markGroupConversationAsUnread(groupGuid, { messageId }, { onBehalfOf: actingUid });

  expect(exchange.response.status, describeExchange(exchange)).toBe(200);
  expect(exchange.response.headers['content-type'] ?? '', describeExchange(exchange)).toMatch(/^application\/json\b/);
  expect(contract.validateResponse('markGroupConversationAsUnread', 200, exchange.response.body), describeExchange(exchange)).toEqual([]);
});
