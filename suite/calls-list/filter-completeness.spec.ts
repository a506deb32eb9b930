// A filter must not drop calls that match it: a sampled call is found again when the list is
// filtered by its own fields. The answer is read page by page, up to a fixed number of pages; when
// it is larger than that, every other filter the call matches is added, so the example still says
// something on a target with much data. Before the drawn examples, those that tell most run
// (call-filters.ts's tellingFromCalls): the largest ended call of each receiver type, by every field
// it has and a uid other than its initiator, which a draw of a few runs may never meet.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { filterCompleteness, searchForCall, shownNow, type FilterSearch, type ShownCall } from '../../core/checks/filter-completeness.ts';
import { judgeInOrder, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';
import { filtersFromCall, tellingFromCalls } from '../../core/arbitraries/call-filters.ts';

test(
  'CALLS-LIST-FILTER-COMPLETENESS for any call and any filters built from its own fields, the call is found again',
  requirement('CALLS-LIST-FILTER-COMPLETENESS'),
  async ({ api, verdict, property, targetSample, readings, paging, answerAge }) => {
    const calls = sampledCalls(targetSample);
    const tally = new MovementTally();

    await property(
      filtersFromCall(calls, readings, 1),
      async ({ seen, filters }) => {
        // The call shown (by the sample, then by Get Call), a complete answer that lacks it asked after,
        // and the call shown again matching after that: in that order, no movement and no age of an
        // answer explains the call missing (moving-data.ts's judgeInOrder).
        // The first showing is the sample's. The retake at once asks Get Call, which behind a replica may
        // not have the call yet: it only decides whether to go on, so the sample stands in for it then.
        // Every showing after it, asked once the search's age is outlasted, is Get Call's alone.
        let asked = 0;
        const sample: ShownCall = { call: seen.call, answers: [seen.exchange] };
        const first = async (): Promise<ShownCall> => {
          asked += 1;
          if (asked === 1) return sample;
          const now = await shownNow(api, seen);
          return asked === 2 && now.call === undefined ? { ...sample, answers: now.answers } : now;
        };
        const outcome = tally.count(
          await judgeInOrder<ShownCall, FilterSearch>(
            {
              first,
              then: () => searchForCall(api, seen, filters, paging, readings),
              judge: (now, result) => filterCompleteness(seen, now, result, readings),
              answersOf: (taken) => ('pages' in taken ? taken.pages : taken.answers),
              findingKey: (violation) => `${violation.requirement} ${violation.expected}`,
            },
            answerAge,
          ),
        );
        if (outcome.judged) verdict.record(outcome.violations);
      },
      { examples: tellingFromCalls(calls, readings) },
    );
    reportMovement(verdict, tally, 'CALLS-LIST-FILTER-COMPLETENESS', test.skip);
  },
);
