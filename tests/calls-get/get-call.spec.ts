// Get Call for calls taken from the list: it answers the call, and agrees with the list on every
// field both carry.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../fixtures/checks/calls-in.ts';
import { sampledCall } from '../../fixtures/arbitraries/sampled-call.ts';
import { succeeds } from '../../fixtures/checks/errors.ts';
import { answersCall, disagreements } from '../../fixtures/checks/get-matches-list.ts';

test(
  'CALLS-GET-OK for any call taken from the list, GET /calls/{sessionId} answers that call',
  requirement('CALLS-GET-OK'),
  async ({ api, verdict, property, targetSample, suiteConfig }) => {
    const calls = sampledCalls(targetSample);

    await property(
      sampledCall(calls),
      async (seen) => {
        const exchange = await api.getCall(String(seen.call.sessionId));
        verdict.record([
          ...succeeds(exchange, 'CALLS-GET-OK', `GET /calls/${String(seen.call.sessionId)}`),
          ...answersCall(exchange, seen.call.sessionId, 'CALLS-GET-OK'),
        ]);
      },
      { runs: Math.min(suiteConfig.runs, calls.length) },
    );
  },
);

// Calls still running change between two requests on a live target; settled ones must not.
const SETTLED = new Set(['ended', 'unanswered', 'rejected', 'canceled']);

test(
  'CALLS-GET-MATCHES-LIST for any settled call taken from the list, Get Call agrees with it on every field both carry',
  requirement('CALLS-GET-MATCHES-LIST'),
  async ({ api, verdict, property, targetSample, suiteConfig }) => {
    const calls = sampledCalls(targetSample).filter(({ call }) => SETTLED.has(String(call.status)));
    test.skip(calls.length === 0, 'No settled call (ended, unanswered, rejected, canceled) was seen in the data.');

    await property(
      sampledCall(calls),
      async (seen) => {
        const exchange = await api.getCall(String(seen.call.sessionId));
        const [fetched] = callsIn(exchange);
        if (!fetched) return; // CALLS-GET-OK reports a Get Call that answers no call
        verdict.record(disagreements(seen, fetched));
      },
      { runs: Math.min(suiteConfig.runs, calls.length) },
    );
  },
);
