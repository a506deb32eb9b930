import fc from 'fast-check';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { errorCodesIn, succeeds } from '../../core/checks/errors.ts';
import { tookPart } from '../../core/checks/filters.ts';
import { answersCall } from '../../core/checks/get-matches-list.ts';
import { sampledCall } from '../../core/arbitraries/sampled-call.ts';
import { participantsUnderEveryReading } from '../../core/arbitraries/call-filters.ts';

// Only users who took part under every reading the target may follow are asked about: one who was
// invited and never joined may be outside a target's scope without it breaking anything.
test(
  'CALLS-GET-ON-BEHALF-OF for any call and any user who took part in it, Get Call on their behalf answers the call',
  requirement('CALLS-GET-ON-BEHALF-OF'),
  async ({ api, verdict, property, targetSample, readings, suiteConfig }) => {
    const calls = sampledCalls(targetSample).filter((seen) => participantsUnderEveryReading(seen, readings).length > 0);
    test.skip(calls.length === 0, 'No sampled call has a user who took part in it under every reading (one who joined).');
    const arbitrary = sampledCall(calls).chain((seen) =>
      fc.constantFrom(...participantsUnderEveryReading(seen, readings)).map((uid) => ({ seen, uid })),
    );

    await property(
      arbitrary,
      async ({ seen, uid }) => {
        const exchange = await api.getCall(String(seen.call.sessionId), { onBehalfOf: uid });
        verdict.record([
          ...succeeds(exchange, 'CALLS-GET-ON-BEHALF-OF', `Get Call on behalf of participant ${uid}`),
          ...answersCall(exchange, seen.call.sessionId, 'CALLS-GET-ON-BEHALF-OF'),
        ]);
      },
      { runs: Math.min(suiteConfig.runs, calls.length) },
    );
  },
);

test(
  'CALLS-GET-ON-BEHALF-OF-OUTSIDER reports what Get Call answers on behalf of a user who took no part in the call',
  requirement('CALLS-GET-ON-BEHALF-OF-OUTSIDER'),
  async ({ api, verdict, targetSample }) => {
    const calls = sampledCalls(targetSample);
    const pair = calls.flatMap((seen) =>
      targetSample.values.uids
        .filter((uid) => !tookPart(seen.call, uid))
        .slice(0, 1)
        .map((uid) => ({ seen, uid })),
    )[0];
    test.skip(pair === undefined, 'No user was seen who took no part in a sampled call.');

    const exchange = await api.getCall(String(pair!.seen.call.sessionId), { onBehalfOf: pair!.uid });
    const answer =
      callsIn(exchange).length > 0
        ? 'the call is returned'
        : `refused with status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}`;
    verdict.observe('CALLS-GET-ON-BEHALF-OF-OUTSIDER', answer);
  },
);
