// Hand-made exchanges for the checks' own tests: what the client would have recorded for a
// response, already redacted, without a server. Valid bodies come from the contract's samples.
import { loadContract, type OperationId } from '../../openapi/contract.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { CallObject, SeenCall } from '../../core/checks/calls-in.ts';
import type { ExchangeContext } from '../../core/checks/index.ts';
import { indexSchemaRequirements } from '../../core/checks/schema-requirements.ts';
import { OPEN_READINGS, type Readings } from '../../core/checks/readings.ts';
import { callList, joinedParticipant, listedCall, neverJoinedParticipant } from '../openapi/samples.ts';

export { callList, joinedParticipant, listedCall, neverJoinedParticipant };

const REQUESTS: Readonly<Record<OperationId, { method: string; url: string }>> = {
  listCalls: { method: 'GET', url: 'http://127.0.0.1:8080/v3/calls' },
  getCall: { method: 'GET', url: 'http://127.0.0.1:8080/v3/calls/v1.us.31780434a95d45.1692368168aefba73a1e5938ad7a02f8e61ea1c9a287a08aeb' },
  markGroupConversationAsUnread: { method: 'DELETE', url: 'http://127.0.0.1:8080/v3/groups/group-0001/conversation/read' },
};

/** An exchange whose response is `body` as JSON. */
export function exchange(operation: OperationId, status: number, body: unknown): Exchange {
  return {
    operation,
    request: { ...REQUESTS[operation], headers: { apikey: '$API_KEY' }, variableHeaders: ['apikey'] },
    response: { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body), isJson: true },
    durationMs: 1,
  };
}

/** An exchange whose response body is not JSON. */
export function textExchange(operation: OperationId, status: number, text: string, contentType = 'text/html'): Exchange {
  return {
    operation,
    request: { ...REQUESTS[operation], headers: { apikey: '$API_KEY' }, variableHeaders: ['apikey'] },
    response: { status, headers: { 'content-type': contentType }, body: undefined, text, isJson: false },
    durationMs: 1,
  };
}

/** A List Calls 200 exchange carrying `calls`. */
export const listOf = (calls: CallObject[] = [listedCall()]): Exchange => exchange('listCalls', 200, callList(calls));

/** A call as a check sees it: the first item of a List Calls page, or the bare body of Get Call. */
export function seen(call: CallObject, operation: 'listCalls' | 'getCall' = 'listCalls'): SeenCall {
  return operation === 'listCalls'
    ? { call, pointer: '/data/0', exchange: listOf([call]) }
    : { call, pointer: '', exchange: exchange('getCall', 200, call) };
}

/** The context the per-exchange checks run with, as the suite's fixtures build it; before anything is learned, every reading is accepted. */
export function checkContext(readings: Readings = OPEN_READINGS): ExchangeContext {
  const contract = loadContract();
  return { contract, schemaRequirements: indexSchemaRequirements(loadCatalog(), contract.document), readings };
}

/** A recording the Recording schema accepts. */
export function recording(): Record<string, unknown> {
  return { rid: 'r1', duration: 0.5, startTime: 1692368168, endTime: 1692368198, recording_url: 'https://example.test/r1.mp4' };
}

/**
 * A List Calls page asked with `query`, holding listed calls with these ids, under this pagination
 * (by default one page holding them all).
 */
export function listPage(
  ids: readonly string[],
  pagination: Record<string, unknown> = {},
  query: Record<string, string | number> = {},
): Exchange {
  const data = ids.map((sessionId) => ({ ...listedCall(), sessionId }));
  const answer = exchange('listCalls', 200, {
    data,
    meta: { pagination: { total: ids.length, count: ids.length, per_page: 100, current_page: 1, total_pages: 1, ...pagination } },
  });
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
  return search === '' ? answer : { ...answer, request: { ...answer.request, url: `${answer.request.url}?${search}` } };
}
