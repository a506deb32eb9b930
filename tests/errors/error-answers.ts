// The three errors of the specification, provoked on the read operations for the not-shown tests.
import type { CallsApi } from '../../fixtures/api.ts';
import type { Exchange } from '../../fixtures/exchange.ts';

export async function provokeErrors(api: CallsApi): Promise<Array<{ code: string; exchange: Exchange }>> {
  const [empty, unknown, notFound] = await Promise.all([
    api.listCalls({}, { apiKey: null }),
    api.listCalls({}, { apiKey: 'a-key-no-target-knows-0000' }),
    api.getCall('a-session-no-target-knows-0000'),
  ]);
  return [
    { code: 'AUTH_ERR_EMPTY_APIKEY', exchange: empty! },
    { code: 'AUTH_ERR_APIKEY_NOT_FOUND', exchange: unknown! },
    { code: 'ERR_CALL_SESSION_NOT_FOUND', exchange: notFound! },
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
