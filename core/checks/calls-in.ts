// Where the calls are in a response: list items under data, and the Get Call body bare, wrapped in
// data, or the one item of a data array (the specification does not show which; the deployment's
// current example wraps it, its older export and its calls SDK read a one-element array). Checks
// look at calls through these helpers only.
import type { Exchange } from '../transport/exchange.ts';

export type CallObject = Record<string, unknown>;

export interface SeenCall {
  call: CallObject;
  /** JSON pointer of the call in the response body. */
  pointer: string;
  exchange: Exchange;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isSuccess = (exchange: Exchange): boolean => exchange.response.status >= 200 && exchange.response.status < 300;

/**
 * The envelopes Get Call may carry its call in, which the suite learns (get-call-envelope in
 * openapi/requirements.yaml). The deployment's current form first: a tie between envelopes goes to it.
 */
export const GET_CALL_ENVELOPES = ['data-object', 'data-array', 'bare'] as const;
export type GetCallEnvelope = (typeof GET_CALL_ENVELOPES)[number];

/** How Get Call carried the call: wrapped in data, the only item of a data array, bare, or not recognisably at all. */
export function getCallEnvelope(body: unknown): { envelope: GetCallEnvelope; call: CallObject; pointer: string } | undefined {
  if (!isObject(body)) return undefined;
  // Wrapped when data looks like the call and the body itself does not; a bare call that happens
  // to carry an extra `data` field stays bare.
  const looksLikeCall = (value: Record<string, unknown>) => ['sessionId', 'type', 'status', 'participants'].some((field) => field in value);
  if (isObject(body.data) && (('sessionId' in body.data && !('sessionId' in body)) || !looksLikeCall(body)))
    return { envelope: 'data-object', call: body.data, pointer: '/data' };
  if (Array.isArray(body.data) && !looksLikeCall(body)) {
    // One call is the call; none, or several, is not "the details of one call", whatever they hold.
    const [only] = body.data as unknown[];
    return body.data.length === 1 && isObject(only) ? { envelope: 'data-array', call: only, pointer: '/data/0' } : undefined;
  }
  return { envelope: 'bare', call: body, pointer: '' };
}

/** An envelope in words, for observations and violations. */
export const ENVELOPE_WORDS: Readonly<Record<GetCallEnvelope, string>> = {
  'data-object': 'wrapped in data ({"data": call})',
  'data-array': 'the one item of a data array ({"data": [call]})',
  bare: 'bare (the body is the call)',
};

/** A successful List Calls answer with a list of calls to judge, however its envelope is. */
export const listed = (exchange: Exchange): boolean =>
  isSuccess(exchange) && isObject(exchange.response.body) && Array.isArray(exchange.response.body.data);

/** Every call of a successful List Calls or Get Call response. */
export function callsIn(exchange: Exchange): SeenCall[] {
  if (!isSuccess(exchange) || !exchange.response.isJson) return [];
  const { body } = exchange.response;
  if (exchange.operation === 'listCalls') {
    const items = isObject(body) && Array.isArray(body.data) ? body.data : [];
    return items.flatMap((call, index) => (isObject(call) ? [{ call, pointer: `/data/${index}`, exchange }] : []));
  }
  if (exchange.operation === 'getCall') {
    const found = getCallEnvelope(body);
    return found ? [{ call: found.call, pointer: found.pointer, exchange }] : [];
  }
  return [];
}

/**
 * The participant entries of a call that are objects (the schema check reports the others). Read
 * once per array: every invariant of a call asks, and a call of 100,000 entries was filtered again
 * for each. A parsed answer is never changed, so the entries of one array stay what they were.
 */
export function participantsOf(call: CallObject): Array<Record<string, unknown>> {
  const entries = call.participants;
  if (!Array.isArray(entries)) return [];
  let objects = entryObjects.get(entries);
  if (objects === undefined) entryObjects.set(entries, (objects = entries.filter(isObject)));
  return objects;
}

const entryObjects = new WeakMap<unknown[], Array<Record<string, unknown>>>();

export const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The value at a JSON pointer, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
}
