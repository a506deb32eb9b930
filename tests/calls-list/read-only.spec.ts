import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { shown, type Violation } from '../../fixtures/checks/violation.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../fixtures/exchange.ts';

/** Reading changes nothing: the same request, sent again after other reads, gets the same answer. */
function sameAnswer(first: Exchange, second: Exchange): Violation[] {
  if (first.response.status === second.response.status && isDeepStrictEqual(first.response.body, second.response.body)) return [];
  return [
    {
      check: 'repeatable_read',
      requirement: 'CALLS-READ-ONLY',
      title: `${first.request.method} ${first.request.url} answered differently after other reads`,
      expected: `status ${first.response.status}, body ${shown(first.response.text, 120)}`,
      received: `status ${second.response.status}, body ${shown(second.response.text, 120)}`,
      exchange: second,
    },
  ];
}

// A call that has ended no longer changes, so on a live target new calls arriving in between
// cannot make this fail; only a read that modifies data can.
test(
  'CALLS-READ-ONLY listing and fetching calls changes nothing: an ended call reads the same before and after',
  requirement('CALLS-READ-ONLY'),
  async ({ api, verdict, targetSample }) => {
    const calls = sampledCalls(targetSample);
    const seen = calls.find(({ call }) => call.status === 'ended') ?? calls[0]!;
    const sessionId = String(seen.call.sessionId);

    const before = await api.getCall(sessionId);
    // The reads in between only need to happen between the two: together.
    await Promise.all([
      api.listCalls(),
      api.listCalls({ uid: String(seen.call.initiator), status: String(seen.call.status) }),
      api.getCall(sessionId),
    ]);
    const after = await api.getCall(sessionId);

    verdict.enforce(sameAnswer(before, after));
  },
);
