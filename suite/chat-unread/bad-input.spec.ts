// Malformed bodies and unknown groups or messages are the client's mistakes: never a 5xx. Which
// status and code the target answers is not shown, and is reported. Against a remote target writes
// go only to the configured group, so unknown groups are tried on the embedded reference alone.
import fc from 'fast-check';
import { test, requirementOn, requirement } from '../../fixtures/index.ts';
import { errorCodesIn, noServerError } from '../../core/checks/errors.ts';
import { writesOnlyToFixture } from '../../core/transport/write-guard.ts';

/** Bodies that are not {"messageId": integer}: other JSON, wrong types, text that is not JSON. */
const malformedBody = fc.oneof(
  fc.string({ maxLength: 40 }).map((text) => `${text}{`),
  fc.constantFrom<unknown>({}, [], null, 0, 'messageId', { messageid: 5 }),
  fc.record({
    messageId: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.double({ noInteger: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.nat(), { maxLength: 3 }),
    ),
  }),
);
const unknownGuid = fc
  .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 })
  .map((guid) => (guid === '.' || guid === '..' ? `${guid}-unknown` : `unknown-${guid}`));
const unknownMessageId = fc.integer({ min: 1_000_000_000, max: Number.MAX_SAFE_INTEGER });

test(
  'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT for any malformed mark-unread body, unknown group or unknown message, the answer is never a 5xx',
  requirementOn('markGroupConversationAsUnread', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'),
  async ({ api, verdict, property, unread, suiteConfig }) => {
    const mistake = fc.oneof(
      malformedBody.map((body) => ({ what: 'a malformed body', guid: unread.groupGuid, body })),
      unknownMessageId.map((messageId) => ({ what: 'an unknown message', guid: unread.groupGuid, body: { messageId } })),
      ...(writesOnlyToFixture(suiteConfig)
        ? []
        : [unknownGuid.map((guid) => ({ what: 'an unknown group', guid, body: { messageId: unread.messageId } }))]),
    );

    await property(mistake, async ({ what, guid, body }) => {
      const exchange = await api.markGroupConversationAsUnread(guid, body, { onBehalfOf: unread.actingUid });
      verdict.enforce(noServerError(exchange, `mark-unread with ${what}`));
    });
  },
);

test(
  'CHAT-UNREAD-ERRORS reports the status and code of mark-unread for unknown groups, unknown messages and malformed bodies',
  requirement('CHAT-UNREAD-ERRORS'),
  async ({ api, verdict, unread, suiteConfig }) => {
    const cases = [
      ...(writesOnlyToFixture(suiteConfig)
        ? []
        : [{ what: 'an unknown group', guid: 'unknown-group-of-the-suite', body: { messageId: unread.messageId } as unknown }]),
      { what: 'an unknown message', guid: unread.groupGuid, body: { messageId: 9_007_199_254_740_000 } as unknown },
      { what: 'a body that is not JSON', guid: unread.groupGuid, body: 'not json{' as unknown },
      { what: 'a messageId that is a string', guid: unread.groupGuid, body: { messageId: 'five' } as unknown },
    ];
    if (writesOnlyToFixture(suiteConfig))
      verdict.observe('CHAT-UNREAD-ERRORS', 'an unknown group: not tried, because writes to a remote target go only to GROUP_GUID');
    // None of them marks anything, so they are sent together.
    const answers = await Promise.all(
      cases.map(({ guid, body }) => api.markGroupConversationAsUnread(guid, body, { onBehalfOf: unread.actingUid })),
    );
    for (const [index, { what }] of cases.entries()) {
      const exchange = answers[index]!;
      verdict.observe(
        'CHAT-UNREAD-ERRORS',
        `${what}: status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}`,
      );
    }
  },
);
