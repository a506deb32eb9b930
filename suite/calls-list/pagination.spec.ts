// The pagination envelope, on every page the suite asks for, and across pages when the target
// acknowledges page selection (however well: pages that overlap while echoing the page asked for
// fail here, they are not skipped). A page size is sent only where the target acknowledges one (under
// the name it acknowledged, learning/paging.ts); without
// it pages have the target's own size. Walks are bounded: a fixed number of pages, whatever the data's size.
import fc from 'fast-check';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { paginationConsistency, pageOf } from '../../core/checks/pagination.ts';
import { filterQuery } from '../../core/checks/filters.ts';
import { filtersFromCall } from '../../core/arbitraries/call-filters.ts';
import { shown, type Violation } from '../../core/checks/violation.ts';
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
        const page = pageOf(exchange);
        verdict.record(paginationConsistency(exchange));
        if (page && page.items.length > 0 && page.pagination.current_page !== asked) {
          verdict.record([
            {
              check: 'pagination_consistency',
              requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT',
              title: `page=${asked} answered current_page ${page.pagination.current_page}`,
              expected: `current_page ${asked}`,
              received: `current_page ${page.pagination.current_page}`,
              exchange,
            },
          ]);
        }
      },
    );
  },
);

/** k consecutive pages of size p hold exactly the calls of one page of size k·p: no overlap, no gap. */
function pagesPartition(small: Exchange[], large: Exchange, query: { perPage: number; pages: number; block: number }): Violation[] {
  const smallIds = small.flatMap((exchange) => callsIn(exchange).map(({ call }) => call.sessionId));
  const largeIds = callsIn(large).map(({ call }) => call.sessionId);
  const duplicates = smallIds.filter((id, index) => smallIds.indexOf(id) !== index);
  if (duplicates.length === 0 && JSON.stringify(smallIds) === JSON.stringify(largeIds)) return [];
  const first = (query.block - 1) * query.pages + 1;
  return [
    {
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `pages ${first}…${first + query.pages - 1} of size ${query.perPage} do not hold the calls of page ${query.block} of size ${query.perPage * query.pages}`,
      expected: `${largeIds.length} calls in the same order: ${shown(largeIds, 160)}`,
      received: `${smallIds.length} calls${duplicates.length > 0 ? `, ${duplicates.length} repeated` : ''}: ${shown(smallIds, 160)}`,
      exchange: small.at(-1)!,
    },
  ];
}

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
      const numbers = Array.from({ length: query.pages }, (_, index) => (query.block - 1) * query.pages + index + 1);
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
        const firstPage = pageOf(first);
        // A first page that is no list page says nothing about the pages after it.
        if (!firstPage) return { answers: [first] };
        const total = firstPage.pagination.total;
        // Without perPage, pages have the target's own size.
        const perPage = paging.perPage ? asked : (firstPage.pagination.per_page ?? firstPage.items.length);
        if (!(perPage > 0)) return { answers: [first] };
        const pages = Math.ceil(total / perPage);
        if (pages > PAGE_LIMIT) return { answers: [first] }; // a larger answer is covered by the block property above
        const rest = Array.from({ length: pages }, (_, index) => index + 2);
        const walked = [
          first,
          ...(await Promise.all(rest.map((page) => api.listCalls({ ...query, ...pageQuery(paging, page, perPage) })))),
        ];
        return { answers: walked, walk: { total, perPage } };
      };
      const outcome = tally.count(
        await judgeStill(
          take,
          ({ answers, walk }: { answers: Exchange[]; walk?: { total: number; perPage: number } }) =>
            walk ? walkPartitions(answers, walk.total, walk.perPage) : [],
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
      const first = pageOf(firstAnswer);
      const perPage = first ? (first.pagination.per_page ?? first.items.length) : 0;
      shaped = first !== undefined && perPage > 0;
      if (!first || !(perPage > 0)) return { answers: [firstAnswer] };
      const total = first.pagination.total;
      const last = Math.max(1, Math.ceil(total / perPage));
      const [lastPage, beyond] = await Promise.all([
        api.listCalls({ ...ground.query, ...pageQuery(paging, last, perPage) }),
        api.listCalls({ ...ground.query, ...pageQuery(paging, last + 1, perPage) }),
      ]);
      return { answers: [firstAnswer, lastPage, beyond], shape: { total, perPage, last } };
    };
    const outcome = tally.count(
      await judgeStill(
        take,
        ({ answers, shape }: { answers: Exchange[]; shape?: { total: number; perPage: number; last: number } }) =>
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

/** The last page of the whole list holds the remainder of total, and the page after it nothing. */
function lastPageHoldsRemainder(
  lastPage: Exchange,
  beyond: Exchange,
  { total, perPage, last }: { total: number; perPage: number; last: number },
): Violation[] {
  const expected = total - (last - 1) * perPage;
  const violations: Violation[] = [];
  const held = callsIn(lastPage).length;
  if (held !== expected) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `the last page (${last} of size ${perPage}) of a list of total ${total} holds ${held} calls`,
      expected: `${expected} calls, the remainder of total`,
      received: `${held} calls`,
      exchange: lastPage,
    });
  }
  const extra = callsIn(beyond).length;
  if (extra > 0) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `page ${last + 1}, after the last page of a list of total ${total}, holds ${extra} calls`,
      expected: 'no calls: total counts them all',
      received: `${extra} calls`,
      exchange: beyond,
    });
  }
  return violations;
}

/** A walk of every page plus the one after: total distinct calls, one total on every page, nothing after the last. */
function walkPartitions(walked: Exchange[], total: number, perPage: number): Violation[] {
  const pages = walked.slice(0, -1);
  const after = walked.at(-1)!;
  const violations: Violation[] = [];
  const ids = pages.flatMap((exchange) => callsIn(exchange).map(({ call }) => call.sessionId));
  if (ids.length !== total || new Set(ids).size !== total) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `walking ${pages.length} pages of ${perPage} did not give ${total} distinct calls`,
      expected: `${total} distinct calls (meta.pagination.total)`,
      received: `${ids.length} calls, ${new Set(ids).size} distinct`,
      exchange: pages.at(-1)!,
    });
  }
  const drifting = walked.find((exchange) => (pageOf(exchange)?.pagination.total ?? total) !== total);
  if (drifting) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `pages of one list disagree on total: page 1 says ${total}, page ${new URL(drifting.request.url).searchParams.get('page')} says ${pageOf(drifting)?.pagination.total}`,
      expected: `total ${total} on every page`,
      received: `total ${pageOf(drifting)?.pagination.total}`,
      exchange: drifting,
    });
  }
  const extra = callsIn(after).length;
  if (extra > 0) {
    violations.push({
      check: 'pages_partition',
      requirement: 'PAGINATION-PAGES-PARTITION',
      title: `the page after the last (page ${pages.length + 1} of size ${perPage}, total ${total}) holds ${extra} calls`,
      expected: 'no calls after the last page',
      received: `${extra} calls`,
      exchange: after,
    });
  }
  return violations;
}
