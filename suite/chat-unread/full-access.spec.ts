import { test, requirement } from '../../fixtures/index.ts';
import { errorStatus, errorCodesIn } from '../../core/checks/errors.ts';
import { fullAccessRequired, refusalOf } from '../../core/checks/full-access.ts';

test(
  'CHAT-UNREAD-REQUIRES-FULL-ACCESS mark-unread with a key without fullAccess scope is refused',
  requirement('CHAT-UNREAD-REQUIRES-FULL-ACCESS'),
  async ({ api, verdict, unread, suiteConfig }) => {
    test.skip(!suiteConfig.restrictedApiKey, 'No key without fullAccess is configured (set RESTRICTED_API_KEY).');

    const exchange = await api.markGroupConversationAsUnread(
      unread.groupGuid,
      { messageId: unread.messageId },
      { apiKey: suiteConfig.restrictedApiKey!, onBehalfOf: unread.actingUid },
    );

    const refusal = refusalOf(exchange);
    verdict.enforce([
      ...fullAccessRequired(exchange),
      // Refused, the answer is the deployment's 403 under the strict profile; observed under spec.
      ...(refusal !== undefined ? errorStatus(exchange, 'AUTH_ERR_NO_ACCESS', 'a key without fullAccess') : []),
    ]);
    verdict.observe(
      'ERROR-STATUS-CODES',
      `a key without fullAccess on mark-unread: status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}${refusal === 'result' ? ', refused in its result (data.success false)' : ''}`,
    );
  },
);
