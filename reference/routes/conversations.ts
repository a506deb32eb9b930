// Mark Group Conversation As Unread (specification section 4.3). Needs a fullAccess key. The
// acting user comes from onBehalfOf, as in the deployment's sibling conversation operations.
import type { RequestContext } from './context.ts';
import { actingUser } from './calls.ts';
import { requireFullAccess } from '../auth.ts';
import { ApiError, errors } from '../errors.ts';
import { readJsonBody } from '../http.ts';
import type { Answer } from '../faults/fault.ts';

export async function markGroupConversationAsUnread(context: RequestContext, guid: string): Promise<Answer> {
  const { fault, scope } = context;
  try {
    if (fault.requireFullAccess) fault.requireFullAccess(scope, () => requireFullAccess(scope));
    else requireFullAccess(scope);
  } catch (error) {
    // Served so (reference/alternatives.ts), the refusal is a result that says the operation did not succeed.
    if (error instanceof ApiError && error.code === 'AUTH_ERR_NO_ACCESS' && context.alternatives.includes('unread-refused-in-result'))
      return {
        status: 200,
        body: { data: { success: false, message: 'No message was marked as unread: this API key needs fullAccess scope.' } },
      };
    throw error;
  }
  const messageId = parseMessageId(await readJsonBody(context.req));
  const uid = actingUser(context);
  if (uid === undefined) throw errors.badRequest({ onBehalfOf: ['the acting user is required for this operation'] });
  const group = context.store.group(guid);
  if (!group) throw errors.guidNotFound(guid);
  if (!group.members.includes(uid)) throw errors.notAMember(uid, guid);
  const message = context.store.message(messageId);
  if (!message || message.guid !== guid) throw errors.messageIdNotFound(messageId);

  context.store.markUnread(guid, uid, messageId);
  return {
    status: 200,
    body: {
      data: {
        success: true,
        message: `The messages after the message id ${messageId} in the group ${guid} are marked as unread for the user ${uid}.`,
      },
    },
  };
}

function parseMessageId(body: unknown): number {
  const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).messageId : undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw errors.badRequest({ messageId: ['must be a positive integer, given in a JSON object body'] });
  }
  return value as number;
}
