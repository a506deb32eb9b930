// The pagination envelope, on every page the suite asks for, and across pages when the target
// honours page selection. Walks are bounded: a fixed number of pages, whatever the data's size.
import fc from 'fast-check';
import { judgementOf } from '../../fixtures/date-semantics.ts';
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../fixtures/checks/calls-in.ts';
import { paginationConsistency, pageOf } from '../../fixtures/checks/pagination.ts';
import { filterQuery } from '../../fixtures/checks/filters.ts';
import { filtersFromCall } from '../../fixtures/arbitraries/call-filters.ts';
import { shown, type Violation } from '../../fixtures/checks/violation.ts';
import type { Exchange } from '../../fixtures/exchange.ts';

const PAGE_LIMIT = 8;

for (const id of ['PAGINATION-ENVELOPE', 'PAGINATION-COUNT-IS-PAGE-SIZE', 'PAGINATION-COUNT-WITHIN-BOUNDS', 'PAGINATION-TOTAL-PAGES-CONSISTENT'] as const) {
  test(`${id} holds on every list page the suite samples`, requirement(id), async ({ verdict, targetSample, learnedViolations }) => {
    sampledCalls(targetSample);
    verdict.enforce(learnedViolations.filter((violation) => violation.requirement === id));
  });
}

test('PAGINATION-COUNT-WITHIN-BOUNDS for any page size and page, count, total, per_page and total_pages agree', requirement('PAGINATION-COUNT-WITHIN-BOUNDS', 'PAGINATION-TOTAL-PAGES-CONSISTENT'), async ({ api, verdict, property, targetSample, paging }) => {
  sampledCalls(targetSample);
  test.skip(!paging.honoured, `Page selection is not honoured, so no page can be chosen: ${paging.evidence}`);

  await property(fc.record({ perPage: fc.integer({ min: 1, max: 50 }), page: fc.integer({ min: 1, max: 12 }) }), async (query) => {
    const exchange = await api.listCalls(query);
    const page = pageOf(exchange);
    verdict.record(paginationConsistency(exchange));
    if (page && page.items.length > 0 && page.pagination.current_page !== query.page) {
      verdict.record([{ check: 'pagination_consistency', requirement: 'PAGINATION-TOTAL-PAGES-CONSISTENT', title: `page=${query.page} answered current_page ${page.pagination.current_page}`, expected: `current_page ${query.page}`, received: `current_page ${page.pagination.current_page}`, exchange }]);
    }
  });
});

/** k consecutive pages of size p hold exactly the calls of one page of size k·p: no overlap, no gap. */
function blocksAgree(small: Exchange[], large: Exchange, query: { perPage: number; pages: number; block: number }): Violation[] {
  const smallIds = small.flatMap((exchange) => callsIn(exchange).map(({ call }) => call.sessionId));
  const largeIds = callsIn(large).map(({ call }) => call.sessionId);
  const duplicates = smallIds.filter((id, index) => smallIds.indexOf(id) !== index);
  if (duplicates.length === 0 && JSON.stringify(smallIds) === JSON.stringify(largeIds)) return [];
  const first = (query.block - 1) * query.pages + 1;
  return [{
    check: 'pages_partition', requirement: 'PAGINATION-PAGES-PARTITION',
    title: `pages ${first}…${first + query.pages - 1} of size ${query.perPage} do not hold the calls of page ${query.block} of size ${query.perPage * query.pages}`,
    expected: `${largeIds.length} calls in the same order: ${shown(largeIds, 160)}`,
    received: `${smallIds.length} calls${duplicates.length > 0 ? `, ${duplicates.length} repeated` : ''}: ${shown(smallIds, 160)}`,
    exchange: small.at(-1)!,
  }];
}

test('PAGINATION-PAGES-PARTITION for any page size, consecutive pages hold exactly the calls of one larger page, in order', requirement('PAGINATION-PAGES-PARTITION'), async ({ api, verdict, property, targetSample, paging }) => {
  sampledCalls(targetSample);
  test.skip(!paging.honoured, `Page selection is not honoured, so pages cannot be compared: ${paging.evidence}`);
  const arbitrary = fc.record({ perPage: fc.integer({ min: 1, max: 10 }), pages: fc.integer({ min: 2, max: 4 }), block: fc.integer({ min: 1, max: 3 }) });

  await property(arbitrary, async (query) => {
    const small: Exchange[] = [];
    for (let index = 1; index <= query.pages; index += 1) small.push(await api.listCalls({ page: (query.block - 1) * query.pages + index, perPage: query.perPage }));
    const large = await api.listCalls({ page: query.block, perPage: query.perPage * query.pages });
    verdict.record(blocksAgree(small, large, query));
  });
});

test('PAGINATION-PAGES-PARTITION for any filters with a small answer, walking every page gives total distinct calls', requirement('PAGINATION-PAGES-PARTITION'), async ({ api, verdict, property, targetSample, paging, dates }) => {
  const calls = sampledCalls(targetSample);
  test.skip(!paging.honoured, `Page selection is not honoured, so pages cannot be walked: ${paging.evidence}`);
  const judgement = judgementOf(dates);
  const arbitrary = fc.record({ from: filtersFromCall(calls, judgement, 2), perPage: fc.integer({ min: 1, max: 10 }) });

  await property(arbitrary, async ({ from, perPage }) => {
    const query = filterQuery(from.filters);
    const first = await api.listCalls({ ...query, page: 1, perPage });
    const total = pageOf(first)?.pagination.total ?? 0;
    const pages = Math.ceil(total / perPage);
    if (pages > PAGE_LIMIT) return; // a larger answer is covered by the block property above
    const walked = [first];
    for (let page = 2; page <= pages; page += 1) walked.push(await api.listCalls({ ...query, page, perPage }));
    const ids = walked.flatMap((exchange) => callsIn(exchange).map(({ call }) => call.sessionId));
    if (ids.length === total && new Set(ids).size === total) return;
    verdict.record([{
      check: 'pages_partition', requirement: 'PAGINATION-PAGES-PARTITION',
      title: `walking ${pages} pages of ${perPage} did not give ${total} distinct calls`,
      expected: `${total} distinct calls (meta.pagination.total)`, received: `${ids.length} calls, ${new Set(ids).size} distinct`, exchange: walked.at(-1)!,
    }]);
  });
});
