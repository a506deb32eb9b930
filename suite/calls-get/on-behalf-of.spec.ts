import fc from 'fast-check';
import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { callsIn, type SeenCall } from '../../core/checks/calls-in.ts';
import { errorCodesIn, successStatus } from '../../core/checks/errors.ts';
import { getOnBehalfOfScope, outsidersOfOneToOne } from '../../core/checks/filters.ts';
import { getCallIdentity } from '../../core/checks/get-matches-list.ts';
import { sampledCall } from '../../core/arbitraries/sampled-call.ts';
import { participantsUnderEveryReading } from '../../core/arbitraries/call-filters.ts';
import { travelsInAHeader } from '../../core/transport/header-value.ts';
import { judgedAfter } from '../../core/checks/answer-age.ts';

// Only users who took part under every reading the target may follow are asked about: one who was
// invited and never joined may be outside a target's scope without it breaking anything.
test(
  'CALLS-GET-ON-BEHALF-OF for any call and any user who took part in it, Get Call on their behalf answers the call',
  requirement('CALLS-GET-ON-BEHALF-OF'),
  async ({ api, verdict, property, targetSample, readings, suiteConfig, answerAge }) => {
    // A uid no header can carry cannot be asked about: another is (header-value.ts).
    const askable = (seen: SeenCall) => participantsUnderEveryReading(seen, readings).filter(travelsInAHeader);
    const calls = fetchableCalls(targetSample).filter((seen) => askable(seen).length > 0);
    test.skip(
      calls.length === 0,
      'No sampled call has a user who took part in it under every reading (one who joined), with a uid a header can carry.',
    );
    const arbitrary = sampledCall(calls).chain((seen) => fc.constantFrom(...askable(seen)).map((uid) => ({ seen, uid })));

    await property(
      arbitrary,
      async ({ seen, uid }) => {
        // Behind a replica, Get Call may answer from before the list that showed the call (answer-age.ts).
        const { violations } = await judgedAfter(
          [seen.exchange],
          answerAge,
          () => api.getCall(String(seen.call.sessionId), { onBehalfOf: uid }),
          (exchange) => [
            ...successStatus(exchange, 'CALLS-GET-ON-BEHALF-OF', `Get Call on behalf of participant ${uid}`),
            ...getCallIdentity(exchange, seen.call.sessionId, 'CALLS-GET-ON-BEHALF-OF'),
          ],
        );
        verdict.record(violations);
      },
      { runs: Math.min(suiteConfig.runs, calls.length) },
    );
  },
);

test(
  'CALLS-GET-ON-BEHALF-OF-SCOPE for any one-to-one call and a user who neither took part in it nor was called, Get Call on their behalf does not answer the call',
  requirement('CALLS-GET-ON-BEHALF-OF-SCOPE'),
  async ({ api, verdict, property, targetSample, suiteConfig }) => {
    const pairs = outsidersOfOneToOne(fetchableCalls(targetSample), targetSample.values.uids);
    test.skip(pairs.length === 0, 'No user was seen who neither took part in nor was called in a sampled one-to-one call.');
    await property(
      fc.constantFrom(...pairs),
      async ({ seen, uid }) => {
        const exchange = await api.getCall(String(seen.call.sessionId), { onBehalfOf: uid });
        verdict.record(getOnBehalfOfScope(exchange, callsIn(exchange), uid));
      },
      { runs: Math.min(suiteConfig.runs, pairs.length) },
    );
  },
);

test(
  'CALLS-GET-ON-BEHALF-OF-OUTSIDER reports what Get Call answers on behalf of a user who took no part in a one-to-one call',
  requirement('CALLS-GET-ON-BEHALF-OF-OUTSIDER'),
  async ({ api, verdict, targetSample }) => {
    const [pair] = outsidersOfOneToOne(fetchableCalls(targetSample), targetSample.values.uids, 1);
    test.skip(pair === undefined, 'No user was seen who neither took part in nor was called in a sampled one-to-one call.');
    const exchange = await api.getCall(String(pair!.seen.call.sessionId), { onBehalfOf: pair!.uid });
    const answer =
      callsIn(exchange).length > 0
        ? 'the call is returned (CALLS-GET-ON-BEHALF-OF-SCOPE judges it)'
        : `refused with status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}`;
    verdict.observe('CALLS-GET-ON-BEHALF-OF-OUTSIDER', answer);
  },
);
