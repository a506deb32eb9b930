// Get Call for calls taken from the list: it answers the call, and agrees with the list on every
// field both carry. The list was taken at the run's start and Get Call later: on a call settled by
// evidence nothing may differ; on one not yet settled, what settles late may have arrived since
// (core/checks/settling.ts), and then the list is asked again to confirm it.
import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { sampledCall, tellingCalls } from '../../core/arbitraries/sampled-call.ts';
import { successStatus } from '../../core/checks/errors.ts';
import { getCallIdentity, compareViews, disagreements } from '../../core/checks/get-matches-list.ts';
import { settledBy, targetClock, TERMINAL_STATUSES } from '../../core/checks/settling.ts';
import { filterQuery } from '../../core/checks/filters.ts';
import { filtersOfCall, usableFilters } from '../../core/arbitraries/call-filters.ts';
import type { Readings } from '../../core/checks/readings.ts';
import { judgedAfter } from '../../core/checks/answer-age.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

test(
  'CALLS-GET-OK for any call taken from the list, GET /calls/{sessionId} answers that call',
  requirement('CALLS-GET-OK'),
  async ({ api, verdict, property, targetSample, suiteConfig, answerAge }) => {
    const calls = fetchableCalls(targetSample);

    await property(
      sampledCall(calls),
      async (seen) => {
        // Behind a replica, Get Call may answer from before the list that showed the call (answer-age.ts).
        const { violations } = await judgedAfter(
          [seen.exchange],
          answerAge,
          () => api.getCall(String(seen.call.sessionId)),
          (exchange) => [
            ...successStatus(exchange, 'CALLS-GET-OK', `GET /calls/${String(seen.call.sessionId)}`),
            ...getCallIdentity(exchange, seen.call.sessionId, 'CALLS-GET-OK'),
          ],
        );
        verdict.record(violations);
      },
      { runs: Math.min(suiteConfig.runs, calls.length) },
    );
  },
);

/**
 * What the comparisons of one test stood on, for its report: calls compared strictly (settled on
 * evidence), calls compared one way (not yet settled), late fields seen settling, and comparisons
 * left unjudged.
 */
class Ground {
  // By sessionId: a property's predicate may run more than once for one example.
  readonly strict = new Set<string>();
  readonly oneWay = new Set<string>();
  readonly settling = new Set<string>();
  readonly unjudged = new Map<string, string>();

  describe(settleSeconds: number): string {
    const parts = [
      `${this.strict.size} call(s) compared strictly (ended ${settleSeconds} s or more before the newest moment the target's data showed)`,
      `${this.oneWay.size} compared one way (not yet settled: a later answer may gain a recording, minutes or leftAt, never lose them)`,
    ];
    if (this.settling.size > 0) parts.push(`${this.settling.size} had gained late fields by Get Call, and the list asked again agreed`);
    if (this.unjudged.size > 0) parts.push(`${this.unjudged.size} left unjudged (the last: ${[...this.unjudged.values()].at(-1)})`);
    return parts.join('; ');
  }
}

test(
  'CALLS-GET-MATCHES-LIST for any call taken from the list in a final status, Get Call agrees with it on every field both carry, one way while it settles',
  requirement('CALLS-GET-MATCHES-LIST'),
  async ({ api, verdict, property, targetSample, suiteConfig, readings, answerAge }) => {
    const calls = fetchableCalls(targetSample).filter(({ call }) => TERMINAL_STATUSES.has(String(call.status)));
    test.skip(calls.length === 0, 'No call in a final status (ended, unanswered, rejected, canceled) was seen in the data.');
    // The target's clock when the sample was listed: a call that had settled by then cannot move.
    const clock = targetClock(targetSample.exchanges);
    const ground = new Ground();

    await property(
      sampledCall(calls),
      async (seen) => {
        const settled = settledBy(seen.call, clock, suiteConfig.settleSeconds);
        // Behind a replica, Get Call may show the call as it was before the list did (answer-age.ts).
        const { answer } = await judgedAfter(
          [seen.exchange],
          answerAge,
          () => api.getCall(String(seen.call.sessionId)),
          (exchange) => {
            const [shown] = callsIn(exchange);
            return shown ? compareViews(seen, shown, settled).violations : [];
          },
        );
        const [fetched] = callsIn(answer);
        if (!fetched) return; // CALLS-GET-OK reports a Get Call that answers no call
        const { violations, gains } = compareViews(seen, fetched, settled);
        const id = String(seen.call.sessionId);
        (settled ? ground.strict : ground.oneWay).add(id);
        verdict.record(violations);
        if (violations.length > 0 || gains.length === 0) return;
        // Get Call shows what settled since the sample was listed. Fresh evidence, never the sample
        // alone: the call listed now must show at least as much, or the two views disagree. It is
        // listed by its own fields that no longer change (a small list it is on, wherever new calls
        // have pushed it in the sampled one); not by hasRecording, which is what may have settled.
        // Behind a list cache or replica, the list asked again may show the call as it was before
        // Get Call did: it is asked again once Get Call's answer can no longer be newer than it.
        const relistedOf = (exchange: Exchange) => callsIn(exchange).find(({ call }) => call.sessionId === seen.call.sessionId);
        const { answer: relisted } = await judgedAfter(
          [answer],
          answerAge,
          () => api.listCalls(filterQuery(filtersOfCall(seen, stableFilters(readings), readings))),
          (exchange) => {
            const listed = relistedOf(exchange);
            return listed ? disagreements(fetched, listed, false) : [];
          },
        );
        const again = relistedOf(relisted);
        if (!again) {
          ground.unjudged.set(
            id,
            `call ${String(seen.call.sessionId)} gained ${gains.map(({ path }) => path).join(', ')} and was no longer on ${relisted.request.url}`,
          );
          return;
        }
        const later = disagreements(fetched, again, false);
        if (later.length === 0) ground.settling.add(id);
        verdict.record(later);
      },
      {
        runs: Math.min(suiteConfig.runs, calls.length),
        // A call of each kind first, settled ones where there are: a settled call is compared strictly.
        examples: tellingCalls(calls, ({ call }) => settledBy(call, clock, suiteConfig.settleSeconds)),
      },
    );
    verdict.observe('CALLS-GET-MATCHES-LIST', ground.describe(suiteConfig.settleSeconds));
  },
);

/** The filters whose value a call in a final status keeps while its late fields settle. */
const stableFilters = (readings: Readings) => usableFilters(readings).filter((name) => name !== 'hasRecording');
