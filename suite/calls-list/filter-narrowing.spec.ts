// Filters combine with AND (specification 4.1 rule 1).
import { test, requirement, sampledCalls, blockedByLists } from '../../fixtures/index.ts';
import { callsIn, listed } from '../../core/checks/calls-in.ts';
import { describeFilters, filterNarrowing, filterQuery } from '../../core/checks/filters.ts';
import { listAnswered } from '../../core/checks/errors.ts';
import { filterCombination } from '../../core/arbitraries/call-filters.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import { NarrowingComparison } from '../../core/checks/narrowing-comparison.ts';

test(
  'CALLS-LIST-AND-NARROWING for any combination of filters, every returned call matches all of them',
  requirement('CALLS-LIST-AND-NARROWING'),
  async ({ api, verdict, property, targetSample, readings }) => {
    sampledCalls(targetSample);

    let judged = 0;
    let last: Exchange | undefined;
    await property(filterCombination(targetSample, readings), async (filters) => {
      const exchange = await api.listCalls(filterQuery(filters));
      last = exchange;
      if (listed(exchange)) judged += 1;
      verdict.enforce([
        ...listAnswered(exchange, `GET /calls?${describeFilters(filters)}`),
        ...filterNarrowing(exchange, callsIn(exchange), filters, readings),
      ]);
    });
    blockedByLists(judged, last);
    test.skip(
      judged === 0,
      'Not judged: no answer to a combination of filters was a list of calls (CALLS-LIST-FILTER-VALUES-ACCEPTED or CALLS-LIST-OK says why).',
    );
  },
);

test(
  'CALLS-LIST-AND-NARROWING for any combination of filters, the result is a subset of each filter alone and its total no larger',
  requirement('CALLS-LIST-AND-NARROWING'),
  async ({ api, verdict, property, targetSample, readings, ground, answerAge }) => {
    sampledCalls(targetSample);

    const tally = new MovementTally();
    const comparison = new NarrowingComparison(api, ground, answerAge);
    await property(filterCombination(targetSample, readings), async (filters) => {
      const outcome = tally.count(await comparison.compare(filters));
      if (outcome.judged) verdict.record(outcome.violations);
    });
    verdict.observe('CALLS-LIST-AND-NARROWING', comparison.describe());
    reportMovement(verdict, tally, 'CALLS-LIST-AND-NARROWING', test.skip);
  },
);
