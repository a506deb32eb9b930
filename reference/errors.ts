// The error shape of the reference implementation, the deployment's:
// {"error": {"code", "message", "devMessage", "source", "details"?}}, with its statuses; or, serving
// the alternative errors-flat (reference/alternatives.ts), {"code", "message", "details"?}.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message);
  }

  toBody(flat = false) {
    if (flat) return { code: this.code, message: this.message, ...(this.details && { details: this.details }) };
    return {
      error: {
        code: this.code,
        message: this.message,
        devMessage: this.message,
        source: 'reference',
        ...(this.details && { details: this.details }),
      },
    };
  }
}

export const errors = {
  emptyApiKey: () => new ApiError(401, 'AUTH_ERR_EMPTY_APIKEY', 'The apikey header is missing or empty.'),
  apiKeyNotFound: () => new ApiError(401, 'AUTH_ERR_APIKEY_NOT_FOUND', 'The API key is not valid.'),
  noAccess: () => new ApiError(403, 'AUTH_ERR_NO_ACCESS', 'This API key may not perform this operation; it needs fullAccess scope.'),
  badRequest: (details: Record<string, string[]>) =>
    new ApiError(400, 'ERR_BAD_REQUEST', `Invalid request: ${Object.keys(details).join(', ')}.`, details),
  payloadTooLarge: (limit: number) => new ApiError(413, 'ERR_BAD_REQUEST', `The request body is larger than ${limit} bytes.`),
  callSessionNotFound: () => new ApiError(404, 'ERR_CALL_SESSION_NOT_FOUND', 'The call session does not exist.'),
  emptyCallSessionId: () => new ApiError(400, 'ERR_EMPTY_CALL_SESSION_ID', 'The call session identifier is empty.'),
  uidNotFound: (uid: string) => new ApiError(404, 'ERR_UID_NOT_FOUND', `The user ${truncate(uid)} does not exist.`),
  guidNotFound: (guid: string) => new ApiError(404, 'ERR_GUID_NOT_FOUND', `The group ${truncate(guid)} does not exist.`),
  notAMember: (uid: string, guid: string) =>
    new ApiError(403, 'ERR_NOT_A_MEMBER', `The user ${truncate(uid)} is not a member of the group ${truncate(guid)}.`),
  messageIdNotFound: (id: number) =>
    new ApiError(404, 'ERR_MESSAGE_ID_NOT_FOUND', `The message ${id} does not exist in this conversation.`),
  apiNotFound: (method: string) => new ApiError(404, 'ERR_API_NOT_FOUND', `No operation answers ${truncate(method, 16)} on this path.`),
};

/** Identifiers echoed in messages are cut short: an error body must stay small whatever was sent. */
function truncate(value: string, max = 64): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
