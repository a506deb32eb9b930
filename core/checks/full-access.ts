// The fullAccess rule of mark-unread (4.3, 5.4): a key without fullAccess scope is refused. How a
// refusal shows is not shown (the errors of this operation are not, 7), so either of two ways is
// one: a 4xx, the caller's credential being at fault, or a success whose result says the operation
// did not succeed (2.5 gives the result a `success` boolean). What is never a refusal: a result that
// says it succeeded, or a server error.
import type { Exchange } from '../transport/exchange.ts';
import { shown, type Violation } from './violation.ts';

/** How mark-unread refused, if it did: by its status, or in a result whose success is false. */
export function refusalOf(exchange: Exchange): 'status' | 'result' | undefined {
  const { status, body } = exchange.response;
  if (status >= 400 && status < 500) return 'status';
  if (status >= 200 && status < 300 && resultSuccess(body) === false) return 'result';
  return undefined;
}

/** CHAT-UNREAD-REQUIRES-FULL-ACCESS on the answer to a key without fullAccess. */
export function fullAccessRequired(exchange: Exchange): Violation[] {
  if (refusalOf(exchange) !== undefined) return [];
  return [
    {
      check: 'full_access_required',
      requirement: 'CHAT-UNREAD-REQUIRES-FULL-ACCESS',
      title: 'mark-unread accepted a key without fullAccess',
      expected: 'a refusal (a 4xx, or a result whose data.success is false)',
      received: `status ${exchange.response.status} ${shown(exchange.response.body, 120)}`,
      exchange,
    },
  ];
}

function resultSuccess(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return undefined;
  const data = (body as { data?: unknown }).data;
  return data !== null && typeof data === 'object' ? (data as { success?: unknown }).success : undefined;
}
