// Error answers. The specification names the codes but shows neither the body shape nor the
// status, so the spec profile finds the code wherever the body carries it; the deployed statuses
// (and the {"error": {...}} shape, checked by the schema) are conventions the strict profile adds.
import type { Exchange } from '../transport/exchange.ts';
import { shown, type Violation } from './violation.ts';
import { isSuccess } from './calls-in.ts';
import { refusalOf } from './full-access.ts';

/** The statuses the deployment answers with (see docs/reference.md, Errors). */
export const DEPLOYED_STATUS: Readonly<Record<string, number>> = {
  AUTH_ERR_EMPTY_APIKEY: 401,
  AUTH_ERR_APIKEY_NOT_FOUND: 401,
  AUTH_ERR_NO_ACCESS: 403,
  ERR_CALL_SESSION_NOT_FOUND: 404,
};

/** Every string in the body that looks like an error code (UPPER_SNAKE_CASE), nearest first. */
export function errorCodesIn(body: unknown): string[] {
  const codes: string[] = [];
  const queue: Array<{ node: unknown; depth: number }> = [{ node: body, depth: 0 }];
  // Read by an index, not shift(): a list page queues thousands of nodes, and the passive judge reads every answer.
  for (let next = 0; next < queue.length; next += 1) {
    const { node, depth } = queue[next]!;
    if (typeof node === 'string' && /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(node)) codes.push(node);
    else if (node !== null && typeof node === 'object' && depth < 4) {
      for (const child of Object.values(node)) queue.push({ node: child, depth: depth + 1 });
    }
  }
  return codes;
}

/**
 * The error codes of an answer judged as it arrives (the passive judge's facts, coverage's
 * observation). An error answer is walked: a status that is no success, mark-unread's 2xx refusing
 * in its result (data.success false, full-access.ts), or a 2xx whose body is not a success's (no
 * `data` at its top: an error envelope answered 200 is still judged on its code, as it always was).
 * A success's `data` is what was asked for, its strings data (calls-in.ts reads calls from a 2xx
 * only): a list page is thousands of nodes that the walk read on every answer for nothing.
 */
export function answerErrorCodes(exchange: Exchange): string[] {
  const refusedInResult = exchange.operation === 'markGroupConversationAsUnread' && refusalOf(exchange) === 'result';
  return isSuccess(exchange) && !refusedInResult && carriesData(exchange.response.body) ? [] : errorCodesIn(exchange.response.body);
}

/** A success's body: an object with `data` at its top (read without reading `data` itself). */
const carriesData = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body;

/** The answer is an error that carries `code`. */
export function errorCode(exchange: Exchange, code: string, requirement: string): Violation[] {
  const { status, body } = exchange.response;
  const codes = errorCodesIn(body);
  if (codes.includes(code) && (status < 200 || status >= 300)) return [];
  return [
    {
      check: 'error_code',
      requirement,
      title: `${exchange.request.method} ${exchange.operation} did not answer ${code}`,
      expected: `an error answer carrying ${code}`,
      received: `status ${status}${codes.length > 0 ? `, codes ${codes.join(', ')}` : ', no error code'}, body ${shown(exchange.response.text, 160)}`,
      exchange,
    },
  ];
}

/**
 * What an answer that `code` was due on showed, and no more: `CODE: status N` when it carried the
 * code; otherwise the request it answered (`situation`, such as "an unknown key"), its status and
 * the codes it did carry, if any. An answer that carried no code is never said to have answered one.
 */
export function errorAnswerSeen(exchange: Exchange, code: string, situation = `a request due to answer ${code}`): string {
  const { status, body } = exchange.response;
  const codes = errorCodesIn(body);
  if (codes.includes(code)) return `${code}: status ${status}`;
  const carried = codes.length === 0 ? 'no error code' : `${[...new Set(codes)].join(', ')}, not ${code}`;
  return `the answer to ${situation} was status ${status} and carried ${carried}`;
}

/** The deployment's status for the code (ERROR-STATUS-CODES: observed in spec, required by strict). */
export function errorStatus(exchange: Exchange, code: string, situation?: string): Violation[] {
  const expected = DEPLOYED_STATUS[code];
  if (expected === undefined || exchange.response.status === expected) return [];
  const seen = errorAnswerSeen(exchange, code, situation);
  return [
    {
      check: 'error_status',
      requirement: 'ERROR-STATUS-CODES',
      title: seen.startsWith(`${code}: `) ? `${code} answered status ${exchange.response.status}` : seen,
      expected: `status ${expected}, the deployment's`,
      received: `status ${exchange.response.status}`,
      exchange,
    },
  ];
}

/** A client's mistake is never the server's error (ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT). */
export function noServerError(exchange: Exchange, what: string): Violation[] {
  if (exchange.response.status < 500) return [];
  return [
    {
      check: 'no_server_error',
      requirement: 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT',
      title: `${what} answered a server error`,
      expected: 'a 4xx client error (or success), never 5xx',
      received: `status ${exchange.response.status}, body ${shown(exchange.response.text, 160)}`,
      exchange,
    },
  ];
}

/**
 * A List Calls request sent to judge something else (a filter, a combination, a scope) answered as
 * the operation requires. Its status is mostly not that test's to judge: a success other than 200
 * breaks CALLS-LIST-OK, and a refusal breaks `refusal` (CALLS-LIST-FILTER-VALUES-ACCEPTED when the
 * request carried filter values the specification allows); the test, crediting them, judges its
 * own requirement on whatever calls came back.
 */
export function listAnswered(exchange: Exchange, what: string, refusal = 'CALLS-LIST-FILTER-VALUES-ACCEPTED'): Violation[] {
  const { status } = exchange.response;
  if (status === 200) return [];
  const refused = status < 200 || status >= 300;
  return successStatus(exchange, refused ? refusal : 'CALLS-LIST-OK', what, 200);
}

/** A successful answer (2xx); `requirement` names what the success proves. */
export function successStatus(exchange: Exchange, requirement: string, what: string, status?: number): Violation[] {
  const ok = status === undefined ? exchange.response.status >= 200 && exchange.response.status < 300 : exchange.response.status === status;
  if (ok) return [];
  return [
    {
      check: 'success_status',
      requirement,
      title: `${what} was not answered with ${status ?? 'a 2xx status'}`,
      expected: `status ${status ?? '2xx'}`,
      received: `status ${exchange.response.status}, body ${shown(exchange.response.text, 160)}`,
      exchange,
    },
  ];
}
