import { test, requirement } from '../../fixtures/index.ts';
import { deployedStatus, errorCodesIn } from '../../core/checks/errors.ts';
import { shown } from '../../core/checks/violation.ts';

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

    const refused = exchange.response.status >= 400 && exchange.response.status < 500;
    verdict.enforce([
      ...(refused
        ? []
        : [
            {
              check: 'full_access_required',
              requirement: 'CHAT-UNREAD-REQUIRES-FULL-ACCESS',
              title: 'mark-unread accepted a key without fullAccess',
              expected: 'a refusal (4xx)',
              received: `status ${exchange.response.status} ${shown(exchange.response.body, 120)}`,
              exchange,
            },
          ]),
      ...(refused ? deployedStatus(exchange, 'AUTH_ERR_NO_ACCESS', 'a key without fullAccess') : []),
    ]);
    verdict.observe(
      'ERROR-STATUS-CODES',
      `a key without fullAccess on mark-unread: status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}`,
    );
  },
);
