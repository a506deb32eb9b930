// The three errors of the specification, provoked on the read operations for the not-shown tests.
import type { CallsApi } from '../../core/transport/api.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

export interface ProvokedError {
  code: string;
  /** The request the code is due on, as the observations name it: they say what was asked, and what came back. */
  situation: string;
  exchange: Exchange;
}

export async function provokeErrors(api: CallsApi): Promise<ProvokedError[]> {
  const [empty, unknown, notFound] = await Promise.all([
    api.listCalls({}, { apiKey: null }),
    api.listCalls({}, { apiKey: 'a-key-no-target-knows-0000' }),
    api.getCall('a-session-no-target-knows-0000'),
  ]);
  return [
    { code: 'AUTH_ERR_EMPTY_APIKEY', situation: 'a request without a key', exchange: empty },
    { code: 'AUTH_ERR_APIKEY_NOT_FOUND', situation: 'an unknown key', exchange: unknown },
    { code: 'ERR_CALL_SESSION_NOT_FOUND', situation: 'an unknown session id', exchange: notFound },
  ];
}

/** Where in the body the code was found, e.g. `error.code`, or undefined. */
export function codePlace(body: unknown, code: string, path = ''): string | undefined {
  if (body === code) return path || '(the whole body)';
  if (body === null || typeof body !== 'object') return undefined;
  for (const [key, value] of Object.entries(body)) {
    const found = codePlace(value, code, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}
