import { test, requirement, requirementOn } from '../../fixtures/index.ts';
import { successStatus } from '../../core/checks/errors.ts';
import { contentType } from '../../core/checks/content-type.ts';
import { shown } from '../../core/checks/violation.ts';
import { skipBlocked } from '../../core/results/blocked.ts';

test(
  'CHAT-UNREAD-OK DELETE /groups/{guid}/conversation/read with a fullAccess key answers 200, application/json, with the result',
  requirement('CHAT-UNREAD-OK'),
  async ({ api, verdict, unread }) => {
    const exchange = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { onBehalfOf: unread.actingUid },
    );

    verdict.enforce([...successStatus(exchange, 'CHAT-UNREAD-OK', 'mark-unread with a fullAccess key', 200), ...contentType(exchange)]);
  },
);

test(
  'CHAT-UNREAD-RESULT-SHAPE the result holds data.success (boolean) and data.message (string)',
  requirementOn('markGroupConversationAsUnread', 'CHAT-UNREAD-RESULT-SHAPE'),
  async ({ api, verdict, checks, unread }) => {
    const exchange = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { onBehalfOf: unread.actingUid },
    );
    // No JSON body, no result to judge: blocked by what the answer broke, a status other than 200
    // (CHAT-UNREAD-OK) or a body that is not JSON (HTTP-JSON-BODIES), each failed by its own check.
    const { status, text, isJson, headers } = exchange.response;
    if (!isJson) {
      const saw = `mark-unread answered status ${status}${text === '' ? ' with no body' : ` ${headers['content-type'] ?? 'without a content type'} that is not JSON: ${shown(text, 80)}`}, so there is no result to judge`;
      skipBlocked(test.info(), status === 200 ? 'HTTP-JSON-BODIES' : 'CHAT-UNREAD-OK', saw);
    }

    verdict.enforce([
      // The status is CHAT-UNREAD-OK's to judge; this test judges the body it came with.
      ...successStatus(exchange, 'CHAT-UNREAD-OK', 'mark-unread with a fullAccess key', 200),
      ...checks.contract.validateResponse('markGroupConversationAsUnread', 200, exchange.response.body).map((violation) => ({
        check: 'response_schema_conformance',
        requirement: 'CHAT-UNREAD-RESULT-SHAPE',
        title: `${violation.valuePath || '/'} ${violation.message}`,
        expected: `${violation.message} (${violation.schemaPath})`,
        received: shown(exchange.response.body),
        exchange,
      })),
    ]);
  },
);

test(
  'CHAT-UNREAD-ACTING-USER reports what mark-unread answers with and without onBehalfOf',
  requirement('CHAT-UNREAD-ACTING-USER'),
  async ({ api, verdict, unread }) => {
    const withUser = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { onBehalfOf: unread.actingUid },
    );
    const withoutUser = await api.markGroupConversationAsUnread(unread.groupGuid, { messageId: unread.messageId });

    verdict.observe(
      'CHAT-UNREAD-ACTING-USER',
      `with onBehalfOf: status ${withUser.response.status}; without it: status ${withoutUser.response.status} ${shown(withoutUser.response.body, 120)}`,
    );
  },
);
