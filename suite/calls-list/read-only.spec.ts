// Reading changes nothing: the same Get Call, sent again after other reads, answers the same. The
// call read is chosen on ground that cannot move: one settled on evidence (final status, ended
// SETTLE_SECONDS or more before the target's own clock), compared byte for byte. Only where the data
// holds none is a call not yet settled read, compared one way (core/checks/settling.ts): what
// settles late may arrive between the reads, nothing may be lost or change otherwise. The report says
// which ground was used.
import { isDeepStrictEqual } from 'node:util';
import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { callsIn, type SeenCall } from '../../core/checks/calls-in.ts';
import { overTime, settledBy, targetClock, TERMINAL_STATUSES } from '../../core/checks/settling.ts';
import { shown, type Violation } from '../../core/checks/violation.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

/** The same request, sent again after other reads, gets the same answer: on a settled call, byte for byte. */
function sameAnswer(first: Exchange, second: Exchange): Violation[] {
  if (first.response.status === second.response.status && isDeepStrictEqual(first.response.body, second.response.body)) return [];
  return [repeatableRead(first, second, `status ${second.response.status}, body ${shown(second.response.text, 120)}`)];
}

/** On a call not yet settled: the same status, and the call changed only by gaining what settles late. */
function sameButSettling(first: Exchange, second: Exchange): Violation[] {
  const [before] = callsIn(first);
  const [after] = callsIn(second);
  if (first.response.status !== second.response.status || !before || !after) return sameAnswer(first, second);
  const { breaks } = overTime(before.call, after.call, false);
  if (breaks.length === 0) return [];
  return [repeatableRead(first, second, breaks.map(({ path, later }) => `${shown(later, 60)} at ${after.pointer}${path}`).join('; '))];
}

function repeatableRead(first: Exchange, second: Exchange, received: string): Violation {
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
function groundToRead(calls: readonly SeenCall[], clock: number | undefined, settleSeconds: number) {
  const settled = calls.find(({ call }) => settledBy(call, clock, settleSeconds));
  if (settled) return { seen: settled, settled: true };
  const final = calls.find(({ call }) => TERMINAL_STATUSES.has(String(call.status)));
  return final && { seen: final, settled: false };
}

test(
  'CALLS-READ-ONLY listing and fetching calls changes nothing: a settled call reads the same before and after',
  requirement('CALLS-READ-ONLY'),
  async ({ api, verdict, targetSample, suiteConfig }) => {
    const calls = fetchableCalls(targetSample);
    const ground = groundToRead(calls, targetClock(targetSample.exchanges), suiteConfig.settleSeconds);
    test.skip(
      !ground,
      'No call in a final status (ended, unanswered, rejected, canceled) was seen in the data: every call could still move.',
    );
    const { seen, settled } = ground!;
    const sessionId = String(seen.call.sessionId);

    const before = await api.getCall(sessionId);
    // The reads in between only need to happen between the two: together.
    await Promise.all([
      api.listCalls(),
      api.listCalls({ uid: String(seen.call.initiator), status: String(seen.call.status) }),
      api.getCall(sessionId),
    ]);
    const after = await api.getCall(sessionId);

    verdict.observe(
      'CALLS-READ-ONLY',
      settled
        ? `read call ${sessionId}, settled on evidence (ended ${suiteConfig.settleSeconds} s or more before the newest moment the data showed): compared byte for byte`
        : `no call in the sample had settled on evidence, so call ${sessionId} (${String(seen.call.status)}) was compared one way: what settles late may arrive between the reads`,
    );
    verdict.enforce(settled ? sameAnswer(before, after) : sameButSettling(before, after));
  },
);
