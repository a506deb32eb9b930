// A probe of a reading asks for the calls of one sampled call's kind: pinned to its own type, mode,
// status and receiver type, so that the answer is small and can hold it. Such an answer says
// something of the reading only where the pins narrowed it (AND-narrowing is another requirement's
// to judge) and where it holds the call or shows every call it matched. A call not yet ended when it
// was sampled may have moved since (ended, so out of its pinned status; joined, so counted otherwise):
// where the answer holds it, the answer's own view of it is read, the one the filter matched; where
// the answer lacks it, that says nothing.
import { callsIn, type CallObject, type SeenCall } from '../checks/calls-in.ts';
import { UNENDED_STATUSES } from '../checks/settling.ts';
import { pageOf } from '../checks/pagination.ts';
import { isWhole } from '../checks/narrowing.ts';
import type { Exchange } from '../transport/exchange.ts';

const PINNED = ['type', 'mode', 'status', 'receiverType'] as const;

/** The call's own type, mode, status and receiver type, as a probe's query carries them. */
export function pinsOf({ call }: SeenCall): Record<string, string> {
  return Object.fromEntries(PINNED.map((name) => [name, String(call[name])]));
}

/**
 * Whether the pinned answer returned the call, its total, and the call as the reading is to be judged
 * on (the answer's own view where it returned it, else the sampled one); undefined where the answer
 * says nothing of the reading.
 */
export function pinnedAnswer(exchange: Exchange, seen: SeenCall): { returned: boolean; total: number; call: CallObject } | undefined {
  const page = pageOf(exchange);
  const answered = callsIn(exchange);
  if (!page || !answered.every((listed) => PINNED.every((name) => listed.call[name] === seen.call[name]))) return undefined;
  const view = answered.find((listed) => listed.call.sessionId === seen.call.sessionId)?.call;
  if (view !== undefined) return { returned: true, total: page.pagination.total, call: view };
  // An answer that is not whole says nothing about a call it does not show, nor one of a call that may have moved.
  if (!isWhole(exchange) || UNENDED_STATUSES.has(String(seen.call.status))) return undefined;
  return { returned: false, total: page.pagination.total, call: seen.call };
}
