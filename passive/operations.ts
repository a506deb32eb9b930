// Which of the three operations a recorded request is, by its method and path: under the base
// addresses of the configuration when given, else by the paths themselves (/v3/calls,
// /v3/calls/{sessionId}, /v3/groups/{guid}/conversation/read), so that a HAR of any deployment is
// read without configuring it. Anything else is counted by the reader and left alone.
import type { OperationId } from '../openapi/contract.ts';

export interface RecognisedRequest {
  operation: OperationId;
  /** The session id of Get Call, decoded from the path. */
  sessionId?: string;
}

/** Why an entry was left alone, for the report's counts. */
export type IgnoredReason = 'other host' | 'other path' | 'other method' | 'not a URL';

export interface Bases {
  callsBaseUrl?: string;
  chatBaseUrl?: string;
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The path after the base when the URL lies under it (same origin, path prefix), else undefined. */
function under(url: URL, base: string | undefined): string | undefined {
  if (base === undefined) return undefined;
  const parsed = new URL(base);
  const prefix = parsed.pathname.replace(/\/+$/, '');
  if (url.origin !== parsed.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return undefined;
  return url.pathname.slice(prefix.length);
}

export function recognise(method: string, rawUrl: string, bases: Bases = {}): RecognisedRequest | IgnoredReason {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'not a URL';
  }
  const configured = bases.callsBaseUrl !== undefined || bases.chatBaseUrl !== undefined;
  const callsPath = configured ? under(url, bases.callsBaseUrl) : url.pathname.match(/^(?:.*)?\/v3(\/calls(?:\/[^/]+)?)\/?$/)?.[1];
  const chatPath = configured
    ? under(url, bases.chatBaseUrl)
    : url.pathname.match(/^(?:.*)?\/v3(\/groups\/[^/]+\/conversation\/read)\/?$/)?.[1];
  if (callsPath === undefined && chatPath === undefined) {
    const origins = [bases.callsBaseUrl, bases.chatBaseUrl].flatMap((base) => (base === undefined ? [] : [new URL(base).origin]));
    return configured && !origins.includes(url.origin) ? 'other host' : 'other path';
  }
  const upper = method.toUpperCase();
  if (callsPath !== undefined) {
    const list = callsPath.match(/^\/calls\/?$/);
    const get = callsPath.match(/^\/calls\/([^/]+)\/?$/);
    if (list) return upper === 'GET' ? { operation: 'listCalls' } : 'other method';
    if (get) return upper === 'GET' ? { operation: 'getCall', sessionId: decode(get[1]!) } : 'other method';
  }
  if (chatPath !== undefined && /^\/groups\/[^/]+\/conversation\/read\/?$/.test(chatPath)) {
    return upper === 'DELETE' ? { operation: 'markGroupConversationAsUnread' } : 'other method';
  }
  return 'other path';
}
