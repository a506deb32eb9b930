// What an answer to a planned mark-unread (write-plan.ts) is due, by requirement, as the suite's
// chat-unread tests judge it: the fullAccess key under `apikey`, on behalf of the fixture's member, is
// accepted with 200 and a JSON result (CHAT-UNREAD-OK, AUTH-APIKEY-HEADER); the restricted key is
// refused, by a 4xx or in the result (CHAT-UNREAD-REQUIRES-FULL-ACCESS). The rest is judged where the
// reads are (classing.ts: the keys' due errors, the header's letter case, no server error for a
// client's mistake; the checks of every exchange: the result's shape, CHAT-UNREAD-RESULT-SHAPE).
import { errorStatus, successStatus } from '../checks/errors.ts';
import { contentType } from '../checks/content-type.ts';
import { fullAccessRequired, refusalOf } from '../checks/full-access.ts';
import type { Violation } from '../checks/violation.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { PlannedRequest } from './read-plan.ts';
import type { Comparison } from './diff-tally.ts';

export function markUnreadDue(request: PlannedRequest, exchange: Exchange): Violation[] {
  const { mark } = request;
  if (mark === undefined) return [];
  if (request.key === 'restricted')
    return [
      ...fullAccessRequired(exchange),
      // Refused by its status, the deployment's 403 (judged under the strict profile, observed under spec).
      ...(refusalOf(exchange) === 'status' ? errorStatus(exchange, 'AUTH_ERR_NO_ACCESS', 'a key without fullAccess') : []),
    ];
  if (request.key !== 'full' || request.malformed === true || mark.body !== 'fixture' || !mark.actingUser) return [];
  return [
    ...successStatus(exchange, 'CHAT-UNREAD-OK', request.label, 200),
    ...contentType(exchange),
    // Under another letter case of the header, AUTH-HEADER-NAME-CASE-INSENSITIVE is the one judged.
    ...(request.apiKeyHeader === undefined ? successStatus(exchange, 'AUTH-APIKEY-HEADER', request.label) : []),
  ];
}

/**
 * The restricted key's mark refused by both sides, one by its status and the other in its result:
 * how a refusal shows is not shown (full-access.ts), so it is a reading that changed (open-readings.ts).
 */
export function refusedAnotherWay({ comparison }: { comparison: Comparison }): boolean {
  if (comparison.request.mark === undefined || comparison.request.key !== 'restricted') return false;
  const [primary, candidate] = [refusalOf(comparison.primary), refusalOf(comparison.candidate)];
  return primary !== undefined && candidate !== undefined && primary !== candidate;
}
