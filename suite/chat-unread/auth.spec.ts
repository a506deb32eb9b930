import { test, requirementOn } from '../../fixtures/index.ts';
import { errorCode, errorStatus, successStatus } from '../../core/checks/errors.ts';
import { secretPlaceholders } from '../../core/transport/transport.ts';
import { apiKeyLike, headerNameCasing } from '../../core/arbitraries/identifiers.ts';

const LABEL = 'DELETE /groups/{guid}/conversation/read';

test(
  `AUTH-EMPTY-KEY ${LABEL} without an apikey header answers AUTH_ERR_EMPTY_APIKEY`,
  requirementOn('markGroupConversationAsUnread', 'AUTH-EMPTY-KEY'),
  async ({ api, verdict, unread }) => {
    const exchange = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { apiKey: null, onBehalfOf: unread.actingUid },
    );

    verdict.enforce([
      ...errorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'),
      ...errorStatus(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'a request without a key'),
    ]);
  },
);

test(
  `AUTH-INVALID-KEY for any key that is not valid, ${LABEL} answers AUTH_ERR_APIKEY_NOT_FOUND`,
  requirementOn('markGroupConversationAsUnread', 'AUTH-INVALID-KEY'),
  async ({ api, verdict, property, unread, suiteConfig }) => {
    await property(apiKeyLike(secretPlaceholders(suiteConfig)), async (key) => {
      const exchange = await api.markGroupConversationAsUnread(
        unread.groupGuid,
        { messageId: unread.messageId },
        { apiKey: key.value, onBehalfOf: unread.actingUid },
      );
      verdict.enforce([
        ...errorCode(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'AUTH-INVALID-KEY'),
        ...errorStatus(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'an unknown key'),
      ]);
    });
  },
);

test(
  `AUTH-APIKEY-HEADER ${LABEL} with the fullAccess key in the apikey header is accepted`,
  requirementOn('markGroupConversationAsUnread', 'AUTH-APIKEY-HEADER'),
  async ({ api, verdict, unread }) => {
    const exchange = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { onBehalfOf: unread.actingUid },
    );

    verdict.enforce(successStatus(exchange, 'AUTH-APIKEY-HEADER', `${LABEL} with a valid key`));
  },
);

test(
  `AUTH-HEADER-NAME-CASE-INSENSITIVE for any letter case of the header name, ${LABEL} accepts the key`,
  requirementOn('markGroupConversationAsUnread', 'AUTH-HEADER-NAME-CASE-INSENSITIVE'),
  async ({ api, verdict, property, unread }) => {
    await property(headerNameCasing(), async (name) => {
      const exchange = await api.markGroupConversationAsUnread(
        unread.groupGuid,
        { messageId: unread.messageId },
        { apiKeyHeader: name, onBehalfOf: unread.actingUid },
      );
      verdict.enforce(successStatus(exchange, 'AUTH-HEADER-NAME-CASE-INSENSITIVE', `${LABEL} with the key under the header ${name}`));
    });
  },
);
