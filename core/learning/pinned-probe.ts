// A probe of a reading asks for the calls of one sampled call's kind: pinned to its own type, mode,
// status and receiver type, so that the answer is small and can hold it. Such an answer says
// something of the reading only where the pins narrowed it (AND-narrowing is another requirement's
// to judge) and where it holds the call or shows every call it matched.
import { callsIn, type SeenCall } from '../checks/calls-in.ts';
import { pageOf } from '../checks/pagination.ts';
import { isWhole } from '../checks/narrowing.ts';
import type { Exchange } from '../transport/exchange.ts';

const PINNED = ['type', 'mode', 'status', 'receiverType'] as const;

/** The call's own type, mode, status and receiver type, as a probe's query carries them. */
export function pinsOf({ call }: SeenCall): Record<string, string> {
  return Object.fromEntries(PINNED.map((name) => [name, String(call[name])]));
}

/** Whether the pinned answer returned the call, and its total; undefined where it says nothing of the reading. */
export function pinnedAnswer(exchange: Exchange, seen: SeenCall): { returned: boolean; total: number } | undefined {
  const page = pageOf(exchange);
  const answered = callsIn(exchange);
  if (!page || !answered.every((listed) => PINNED.every((name) => listed.call[name] === seen.call[name]))) return undefined;
  const returned = answered.some((listed) => listed.call.sessionId === seen.call.sessionId);
  // An answer that is not whole says nothing about a call it does not show.
  if (!returned && !isWhole(exchange)) return undefined;
  return { returned, total: page.pagination.total };
}
