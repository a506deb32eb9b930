// Filters combine with AND (specification 4.1 rule 1).
import { test, requirement, sampledCalls, blockedByLists } from '../../fixtures/index.ts';
import { callsIn, listed } from '../../core/checks/calls-in.ts';
import { describeFilters, filterNarrowing, filterQuery, givenFilters, type FilterName, type Filters } from '../../core/checks/filters.ts';
import { callsWithinSingle, isWhole, totalWithinSingle } from '../../core/checks/narrowing.ts';
import { listAnswered } from '../../core/checks/errors.ts';
import { filterCombination } from '../../core/arbitraries/call-filters.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { judgeInOrder, judgeStill, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import type { Ground } from '../../core/learning/still-ground.ts';
import type { Query } from '../../core/transport/api.ts';
import { UNENDED_STATUSES } from '../../core/checks/settling.ts';

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
    const examples = { pinned: 0, ownEnd: 0, moving: 0, unnamed: 0 };

    await property(filterCombination(targetSample, readings), async (filters) => {
      const names = givenFilters(filters);
      const label = (name: FilterName) => `${name}=${String(filters[name])}`;
      const bound = boundOf(filters, ground);
      if (bound !== undefined) {
        // Every list bounded alike, by the pin or by the combination's own endedAt when that is older:
        // history that can no longer change, so the lists are asked together and compared whole.
        if (filters.endedAt === undefined) examples.pinned += 1;
        else examples.ownEnd += 1;
        const pinOf = (query: Query): Query => (query.endedAt === undefined ? { ...query, endedAt: bound } : query);
        const take = async () => ({
          answers: await Promise.all([
            api.listCalls(pinOf(filterQuery(filters))),
            ...names.map((name) => api.listCalls(pinOf({ [name]: filters[name]! }))),
          ]),
        });
        const outcome = tally.count(
          await judgeStill(
            take,
            ({ answers: [combination, ...singles] }) =>
              names.flatMap((name, index) => [
                ...totalWithinSingle(combination, filters, singles[index]!, label(name)),
                ...callsWithinSingle(combination, filters, singles[index]!, label(name)),
              ]),
            answerAge,
          ),
        );
        if (outcome.judged) verdict.record(outcome.violations);
        return;
      }
      // Moving ground (calls not yet ended, or no pin): each filter alone is asked only once the
      // combination has answered, and judged only by the calls it lacks, where it shows them all. Its
      // total is not compared: a total says nothing of which calls moved between the two answers.
      examples.moving += 1;
      const outcome = tally.count(
        await judgeInOrder(
          {
            first: () => api.listCalls(filterQuery(filters)),
            then: () => Promise.all(names.map((name) => api.listCalls({ [name]: filters[name]! }))),
            judge: (combination, singles) => {
              examples.unnamed += singles.filter((single) => !isWhole(single)).length;
              return names.flatMap((name, index) => callsWithinSingle(combination, filters, singles[index]!, label(name)));
            },
            answersOf: (taken) => (Array.isArray(taken) ? taken : [taken]),
            explainedByAge: (seconds) => answerAge.saw('listCalls', seconds),
          },
          answerAge,
        ),
      );
      if (outcome.judged) verdict.record(outcome.violations);
    });
    verdict.observe(
      'CALLS-LIST-AND-NARROWING',
      `subsets compared on ${ground.describe}; ${examples.pinned} example run(s) on that ground, ${examples.ownEnd} bounded by their own endedAt, ${examples.moving} on moving ground (a status of calls not yet ended, an endedAt after the pin, or no pin), where each filter alone was asked after the combination and judged only by the calls it lacks${examples.unnamed > 0 ? ` (${examples.unnamed} answer(s) of a filter alone larger than one page could not be judged that way)` : ''}`,
    );
    reportMovement(verdict, tally, 'CALLS-LIST-AND-NARROWING', test.skip);
  },
);

/**
 * The endedAt every list of a comparison is bounded by, where the endedAt filter is an upper bound:
 * the pin, or the combination's own endedAt when it is no later than the pin (a later one lets in
 * calls that end from now on, so it is no ground that stands); none when the combination asks for
 * calls not yet ended (a bound would leave nothing to compare).
 */
function boundOf(filters: Filters, ground: Ground): number | undefined {
  if (ground.kind !== 'pinned' || UNENDED_STATUSES.has(String(filters.status))) return undefined;
  const pin = Number(ground.query.endedAt);
  if (filters.endedAt === undefined) return pin;
  return Number(filters.endedAt) <= pin ? Number(filters.endedAt) : undefined;
}
