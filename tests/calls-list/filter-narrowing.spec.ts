// Filters combine with AND (specification 4.1 rule 1).
import { test, requirement, sampledCalls, blockedByLists } from '../../fixtures/index.ts';
import { callsIn, listed } from '../../fixtures/checks/calls-in.ts';
import { describeFilters, filterNarrowing, filterQuery, givenFilters, type Filters } from '../../fixtures/checks/filters.ts';
import { pageOf } from '../../fixtures/checks/pagination.ts';
import { listAnswered } from '../../fixtures/checks/errors.ts';
import { shown, type Violation } from '../../fixtures/checks/violation.ts';
import { filterCombination } from '../../fixtures/arbitraries/call-filters.ts';
import type { Exchange } from '../../fixtures/exchange.ts';
import { judgeStill, MovementTally, reportMovement } from '../../fixtures/moving-data.ts';
import type { Ground } from '../../fixtures/learning/still-ground.ts';
import type { Query } from '../../fixtures/api.ts';

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

/** A combination answers no more than any one of its filters, and, where that filter's answer is whole, only calls it holds. */
function subsetOfEach(combination: Exchange, filters: Filters, single: Exchange, name: string): Violation[] {
  const whole = pageOf(combination);
  const part = pageOf(single);
  if (!whole || !part) return [];
  const violations: Violation[] = [];
  if (whole.pagination.total > part.pagination.total) {
    violations.push({
      check: 'and_narrowing_total',
      requirement: 'CALLS-LIST-AND-NARROWING',
      title: `${describeFilters(filters)} has a larger total than ${name} alone`,
      expected: `total ≤ ${part.pagination.total} (the total of ${name} alone)`,
      received: `total ${whole.pagination.total}`,
      exchange: combination,
    });
  }
  if (part.pagination.total <= part.items.length) {
    const held = new Set(callsIn(single).map(({ call }) => call.sessionId));
    for (const { call } of callsIn(combination).filter(({ call }) => !held.has(call.sessionId))) {
      violations.push({
        check: 'and_narrowing_subset',
        requirement: 'CALLS-LIST-AND-NARROWING',
        title: `${describeFilters(filters)} returned call ${shown(call.sessionId)}, which ${name} alone does not return`,
        expected: `a subset of the ${part.pagination.total} calls of ${name} alone`,
        received: `call ${shown(call.sessionId)}`,
        exchange: combination,
      });
    }
  }
  return violations;
}

test(
  'CALLS-LIST-AND-NARROWING for any combination of filters, the result is a subset of each filter alone and its total no larger',
  requirement('CALLS-LIST-AND-NARROWING'),
  async ({ api, verdict, property, targetSample, readings, ground }) => {
    sampledCalls(targetSample);

    const tally = new MovementTally();
    const examples = { pinned: 0, ownEnd: 0, moving: 0 };

    await property(filterCombination(targetSample, readings), async (filters) => {
      // The combination and each filter alone are independent requests: they wait on the target together.
      // Each filter alone is a large list that moves with every call logged: read on pinned ground
      // where the target allows it, unless the combination asks for calls that have not ended
      // (the pinned history holds none).
      const bound = boundOf(filters, ground);
      if (bound === undefined) examples.moving += 1;
      else if (filters.endedAt === undefined) examples.pinned += 1;
      else examples.ownEnd += 1;
      const names = givenFilters(filters);
      // Every list of the comparison bounded alike: by the pin, or by the combination's own endedAt
      // (no call logged from now on has ended by then; only what settles late may still arrive).
      const pinOf = (query: Query): Query => (bound !== undefined && query.endedAt === undefined ? { ...query, endedAt: bound } : query);
      const take = async () => ({
        answers: await Promise.all([
          api.listCalls(pinOf(filterQuery(filters))),
          ...names.map((name) => api.listCalls(pinOf({ [name]: filters[name]! }))),
        ]),
      });
      const outcome = tally.count(
        await judgeStill(take, ({ answers: [combination, ...singles] }) =>
          names.flatMap((name, index) => subsetOfEach(combination, filters, singles[index]!, `${name}=${String(filters[name])}`)),
        ),
      );
      if (outcome.judged) verdict.record(outcome.violations);
    });
    verdict.observe(
      'CALLS-LIST-AND-NARROWING',
      `subsets compared on ${ground.describe}; ${examples.pinned} example run(s) on that ground, ${examples.ownEnd} bounded by their own endedAt, ${examples.moving} by movement detection (a status of calls not yet ended, or no pin)`,
    );
    reportMovement(verdict, tally, 'CALLS-LIST-AND-NARROWING', test.skip);
  },
);

/** Statuses of calls that have not ended: pinned history holds none of them. */
const UNENDED = new Set(['initiated', 'ongoing']);

/**
 * The endedAt every list of a comparison is bounded by, where the endedAt filter is an upper bound:
 * the pin, or the combination's own endedAt; none when the combination asks for calls not yet ended
 * (a bound would leave nothing to compare).
 */
function boundOf(filters: Filters, ground: Ground): number | undefined {
  if (ground.kind !== 'pinned' || UNENDED.has(String(filters.status))) return undefined;
  return filters.endedAt !== undefined ? Number(filters.endedAt) : Number(ground.query.endedAt);
}
