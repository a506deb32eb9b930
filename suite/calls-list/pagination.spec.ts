// The pagination envelope, on every page the suite asks for, and across pages when the target
// acknowledges page selection (however well: pages that overlap while echoing the page asked for
// fail here, they are not skipped). A page size is sent only where the target acknowledges one (under
// the name it acknowledged, learning/paging.ts); without
// it pages have the target's own size. Walks are bounded: a fixed number of pages, whatever the data's size.
// The comparisons of pages, and what to ask for them, are core/checks/pages-partition.ts's.
import fc from 'fast-check';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { paginationConsistency } from '../../core/checks/pagination.ts';
import {
  blockPageNumbers,
  lastPageHoldsRemainder,
  listEndOf,
  pagesPartition,
  walkOf,
  walkPartitions,
  type ListEnd,
  type PageWalk,
} from '../../core/checks/pages-partition.ts';
import { filterQuery } from '../../core/checks/filters.ts';
import { filtersFromCall } from '../../core/arbitraries/call-filters.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { pageQuery, sizeQuery } from '../../core/learning/paging.ts';
import { judgeStill, MovementTally, reportMovement } from '../../core/checks/moving-data.ts';

const PAGE_LIMIT = 8;

for (const id of [
  'PAGINATION-ENVELOPE',
  'PAGINATION-COUNT-IS-PAGE-SIZE',
  'PAGINATION-COUNT-WITHIN-BOUNDS',
  'PAGINATION-TOTAL-PAGES-CONSISTENT',
] as const) {
  test(`${id} holds on every list page the suite samples`, requirement(id), async ({ verdict, targetSample, learnedViolations }) => {
    // Judged first: when the learned page is no envelope, PAGINATION-ENVELOPE fails here, and the
    // others are blocked by it.
    verdict.enforce(learnedViolations.filter((violation) => violation.requirement === id));
    sampledCalls(targetSample);
  });
}

// Its page's consistency is held by the per-exchange checks as each page arrives; a page that names
// another current_page than the one asked for breaks PAGINATION-TOTAL-PAGES-CONSISTENT, credited there.
test(
  'PAGINATION-COUNT-WITHIN-BOUNDS for any page size and page, count, total, per_page and total_pages agree',
  requirement('PAGINATION-COUNT-WITHIN-BOUNDS'),
  async ({ api, verdict, property, targetSample, paging }) => {
    sampledCalls(targetSample);
    test.skip(!paging.page, `Page selection is not honoured, so no page can be chosen: ${paging.evidence}`);

    await property(
      fc.record({ perPage: fc.integer({ min: 1, max: 50 }), page: fc.integer({ min: 1, max: 12 }) }),
      async ({ perPage, page: asked }) => {
        const exchange = await api.listCalls(pageQuery(paging, asked, perPage));
        verdict.record(paginationConsistency(exchange, asked));
      },
    );
  },
);

test(
  'PAGINATION-PAGES-PARTITION for any page size, consecutive pages hold exactly the calls of one larger page, in order',
  requirement('PAGINATION-PAGES-PARTITION'),
  async ({ api, verdict, property, targetSample, paging, ground, answerAge }) => {
    sampledCalls(targetSample);
    test.skip(!paging.page, `Page selection is not honoured, so pages cannot be compared: ${paging.evidence}`);
    test.skip(!paging.perPage, `No page size is honoured, so pages of different sizes cannot be compared: ${paging.evidence}`);
    const arbitrary = fc.record({
      perPage: fc.integer({ min: 1, max: 10 }),
      pages: fc.integer({ min: 2, max: 4 }),
      block: fc.integer({ min: 1, max: 3 }),
    });
    const tally = new MovementTally();

    await property(arbitrary, async (query) => {
      // Every page's number is known before any is read: they wait on the target together.
      const numbers = blockPageNumbers(query);
      const take = async () => {
        // On pinned ground where the target allows it: pages of history that can no longer change.
        const answers = await Promise.all([
          api.listCalls({ ...ground.query, page: query.block, ...sizeQuery(paging, query.perPage * query.pages) }),
          ...numbers.map((page) => api.listCalls({ ...ground.query, page, ...sizeQuery(paging, query.perPage) })),
        ]);
        return { answers };
      };
      const outcome = tally.count(
        await judgeStill(take, ({ answers: [large, ...small] }) => pagesPartition(small, large, query), answerAge),
      );
      if (outcome.judged) verdict.record(outcome.violations);
    });
    verdict.observe('PAGINATION-PAGES-PARTITION', `pages compared on ${ground.describe}`);
    reportMovement(verdict, tally, 'PAGINATION-PAGES-PARTITION', test.skip);
  },
);

test(
  'PAGINATION-PAGES-PARTITION for any filters with a small answer, walking every page gives total distinct calls, every page agrees on total, and the page after the last is empty',
  requirement('PAGINATION-PAGES-PARTITION'),
  async ({ api, verdict, property, targetSample, paging, readings, answerAge }) => {
    const calls = sampledCalls(targetSample);
    test.skip(!paging.page, `Page selection is not honoured, so pages cannot be walked: ${paging.evidence}`);
    const arbitrary = fc.record({ from: filtersFromCall(calls, readings, 2), perPage: fc.integer({ min: 1, max: 10 }) });

    const tally = new MovementTally();

    await property(arbitrary, async ({ from, perPage: asked }) => {
      const query = filterQuery(from.filters);
      const take = async () => {
        const first = await api.listCalls({ ...query, ...pageQuery(paging, 1, asked) });
        // Without perPage, pages have the target's own size.
        const walk = walkOf(first, paging.perPage ? asked : undefined, PAGE_LIMIT);
        if (!walk) return { answers: [first] };
        const rest = await Promise.all(walk.rest.map((page) => api.listCalls({ ...query, ...pageQuery(paging, page, walk.perPage) })));
        return { answers: [first, ...rest], walk };
      };
      const outcome = tally.count(
        await judgeStill(
          take,
          ({ answers, walk }: { answers: Exchange[]; walk?: PageWalk }) => (walk ? walkPartitions(answers, walk.total, walk.perPage) : []),
          answerAge,
        ),
      );
      if (outcome.judged) verdict.record(outcome.violations);
    });
    reportMovement(verdict, tally, 'PAGINATION-PAGES-PARTITION', test.skip);
  },
);

test(
  'PAGINATION-PAGES-PARTITION the last page of the whole list holds the remainder of total, and the page after it holds nothing',
  requirement('PAGINATION-PAGES-PARTITION'),
  async ({ api, verdict, targetSample, paging, ground, answerAge }) => {
    sampledCalls(targetSample);
    test.skip(!paging.page, `Page selection is not honoured, so the last page cannot be chosen: ${paging.evidence}`);
    const tally = new MovementTally();
    let shaped = true;
    // Page 1 is read with the last page and the one after it, so that a list that grows meanwhile shows
    // in its totals, and the comparison is taken again.
    // On pinned ground where the target allows it: the list of history that can no longer change.
    const take = async () => {
      const firstAnswer = await api.listCalls({ ...ground.query, ...pageQuery(paging, 1) });
      const end = listEndOf(firstAnswer);
      shaped = end !== undefined;
      if (!end) return { answers: [firstAnswer] };
      const [lastPage, beyond] = await Promise.all([
        api.listCalls({ ...ground.query, ...pageQuery(paging, end.last, end.perPage) }),
        api.listCalls({ ...ground.query, ...pageQuery(paging, end.last + 1, end.perPage) }),
      ]);
      return { answers: [firstAnswer, lastPage, beyond], shape: end };
    };
    const outcome = tally.count(
      await judgeStill(
        take,
        ({ answers, shape }: { answers: Exchange[]; shape?: ListEnd }) =>
          shape ? lastPageHoldsRemainder(answers[1]!, answers[2]!, shape) : [],
        answerAge,
      ),
    );
    verdict.observe('PAGINATION-PAGES-PARTITION', `the last page looked at on ${ground.describe}`);
    reportMovement(verdict, tally, 'PAGINATION-PAGES-PARTITION', test.skip);
    test.skip(!shaped, 'The first page is no list page, or holds no calls and names no page size, so there is no last page to look at.');
    if (outcome.judged) verdict.enforce(outcome.violations);
  },
);
