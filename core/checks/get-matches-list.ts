// CALLS-GET-MATCHES-LIST: Get Call and List Calls describe one call alike. Only fields both carry
// are compared (each view may carry fields the other lacks); participant entries are paired by who
// they are, since their order is not shown. Two answers are taken at two moments, so they are
// compared one way (settling.ts): on a call not settled by evidence, the later answer may have gained
// what settles late (a recording, minutes, leftAt); losing it, or any other difference, disagrees.
import type { Exchange } from '../transport/exchange.ts';
import { callsIn, type SeenCall } from './calls-in.ts';
import { overTime, type Difference } from './settling.ts';
import { shown, type Violation } from './violation.ts';

const viewOf = (seen: SeenCall) => (seen.exchange.operation === 'getCall' ? 'as fetched' : 'as listed');

/** A difference between two views of a call as a violation of CALLS-GET-MATCHES-LIST, the earlier answer expected. */
export function getMatchesList(earlier: SeenCall, later: SeenCall, difference: Difference, why = ''): Violation {
  return {
    check: 'get_matches_list',
    requirement: 'CALLS-GET-MATCHES-LIST',
    title: `call ${shown(earlier.call.sessionId)}: Get Call and List Calls disagree at ${difference.path}${why}`,
    expected: `${shown(difference.earlier)} (${viewOf(earlier)})`,
    received: `${shown(difference.later)} at ${later.pointer}${difference.path} (${viewOf(later)}, later)`,
    exchange: later.exchange,
  };
}

/**
 * What two views of one call, `earlier` answered first, disagree on. `settled`: the call had settled
 * on evidence by the earlier answer, so nothing may differ (the default: a caller that knows no
 * better compares strictly). Also the late fields the later view gained, which are movement.
 */
export function compareViews(earlier: SeenCall, later: SeenCall, settled = true): { violations: Violation[]; gains: Difference[] } {
  const { gains, breaks } = overTime(earlier.call, later.call, settled, 'shared');
  const why = settled ? ' (a call settled before the first answer)' : '';
  return { violations: breaks.map((difference) => getMatchesList(earlier, later, difference, why)), gains };
}

/** The disagreements of two views of one call, `earlier` first (compareViews without the gains). */
export function disagreements(earlier: SeenCall, later: SeenCall, settled = true): Violation[] {
  return compareViews(earlier, later, settled).violations;
}

/** get_call_identity: a successful Get Call answers the call that was asked for. */
export function getCallIdentity(exchange: Exchange, sessionId: unknown, requirement: string): Violation[] {
  const [fetched] = callsIn(exchange);
  if (!fetched || fetched.call.sessionId === sessionId) return [];
  return [
    {
      check: 'get_call_identity',
      requirement,
      title: 'Get Call answered another call than the one asked for',
      expected: `sessionId ${shown(sessionId)}`,
      received: `sessionId ${shown(fetched.call.sessionId)}`,
      exchange,
    },
  ];
}
