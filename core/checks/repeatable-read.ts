// CALLS-READ-ONLY: reading changes nothing, so the same Get Call sent again after other reads answers
// the same. A settled call is compared byte for byte; one not yet settled one way (settling.ts): what
// settles late may arrive between the reads, nothing may be lost or change otherwise.
import { isDeepStrictEqual } from 'node:util';
import { callsIn, type SeenCall } from './calls-in.ts';
import { overTime, settledBy, TERMINAL_STATUSES } from './settling.ts';
import { shown, type Violation } from './violation.ts';
import type { Exchange } from '../transport/exchange.ts';

/** The same request, sent again after other reads, gets the same answer: on a settled call, byte for byte. */
export function sameAnswer(first: Exchange, second: Exchange): Violation[] {
  if (first.response.status === second.response.status && isDeepStrictEqual(first.response.body, second.response.body)) return [];
  return [repeatableRead(first, second, `status ${second.response.status}, body ${shown(second.response.text, 120)}`)];
}

/** On a call not yet settled: the same status, and the call changed only by gaining what settles late. */
export function sameButSettling(first: Exchange, second: Exchange): Violation[] {
  const [before] = callsIn(first);
  const [after] = callsIn(second);
  if (first.response.status !== second.response.status || !before || !after) return sameAnswer(first, second);
  const { breaks } = overTime(before.call, after.call, false);
  if (breaks.length === 0) return [];
  return [repeatableRead(first, second, breaks.map(({ path, later }) => `${shown(later, 60)} at ${after.pointer}${path}`).join('; '))];
}

/** CALLS-READ-ONLY: the same request, sent again after other reads, answered otherwise. */
export function repeatableRead(first: Exchange, second: Exchange, received: string): Violation {
  return {
    check: 'repeatable_read',
    requirement: 'CALLS-READ-ONLY',
    title: `${first.request.method} ${first.request.url} answered differently after other reads`,
    expected: `status ${first.response.status}, body ${shown(first.response.text, 120)}`,
    received,
    exchange: second,
  };
}

/** A settled call if the data holds one, else the first in a final status (a call still going moves on its own). */
export function groundToRead(calls: readonly SeenCall[], clock: number | undefined, settleSeconds: number) {
  const settled = calls.find(({ call }) => settledBy(call, clock, settleSeconds));
  if (settled) return { seen: settled, settled: true };
  const final = calls.find(({ call }) => TERMINAL_STATUSES.has(String(call.status)));
  return final && { seen: final, settled: false };
}
