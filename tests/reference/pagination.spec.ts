// page and perPage (an extension the deployment's other lists take) cut the result of List Calls
// into pages that partition it in list order, each with honest pagination meta.
import fc from 'fast-check';
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { CALL_STATUSES } from './spec-values.ts';
import { expectedRows, listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';

test('for any page size and filter, walking the pages yields every matching call once, in list order, with honest meta', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const rows = reference.store.data.rows;
  const cases = fc.record({
    perPage: fc.integer({ min: 1, max: 1000 }),
    query: fc.option(
      fc.constantFrom(...CALL_STATUSES).map((status): ListQuery => ({ status })),
      { nil: {}, freq: 2 },
    ),
  });

  await fc.assert(
    fc.asyncProperty(cases, async ({ perPage, query }) => {
      const expected = sessionIdsOf(expectedRows(rows, query));
      const totalPages = Math.ceil(expected.length / perPage);
      const walked: string[] = [];
      for (let page = 1; page <= totalPages; page += 1) {
        const answer = await sendAuthorized(listPath(query, { page, perPage }));
        expectContractValid(contract, 'listCalls', answer);
        expect(answer.status).toBe(200);
        const pageSize = Math.min(perPage, expected.length - (page - 1) * perPage);
        expect(answer.body.data).toHaveLength(pageSize);
        expect(answer.body.meta.pagination).toEqual({
          total: expected.length,
          count: pageSize,
          per_page: perPage,
          current_page: page,
          total_pages: totalPages,
        });
        walked.push(...sessionIdsOf(answer.body.data));
      }
      expect(walked).toEqual(expected);
      expect(new Set(walked).size).toBe(walked.length);
    }),
    { numRuns: 40 },
  );
});

test('a page past the end is empty and keeps the total and the number of pages', async ({ sendAuthorized, contract, reference }) => {
  const total = reference.store.data.rows.length;
  for (const page of [Math.ceil(total / 7) + 1, Math.ceil(total / 7) + 5, 2 ** 31 - 1]) {
    const answer = await sendAuthorized(listPath({}, { page, perPage: 7 }));
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta.pagination).toEqual({ total, count: 0, per_page: 7, current_page: page, total_pages: Math.ceil(total / 7) });
  }
});

test('a query that matches nothing answers an empty first page with zero total and zero pages', async ({ sendAuthorized, contract }) => {
  const answer = await sendAuthorized(listPath({ uid: 'user-that-does-not-exist' }));
  expectContractValid(contract, 'listCalls', answer);
  expect(answer.status).toBe(200);
  expect(answer.body.data).toEqual([]);
  expect(answer.body.meta.pagination).toEqual({ total: 0, count: 0, per_page: 100, current_page: 1, total_pages: 0 });
});

test('without perPage a page holds 100 calls, and page selects which hundred', async ({ sendAuthorized, contract, reference }) => {
  const expected = sessionIdsOf(reference.store.data.rows);
  expect(expected.length, 'the data set spans more than one default page').toBeGreaterThan(100);
  for (const page of [1, 2, Math.ceil(expected.length / 100)]) {
    const answer = await sendAuthorized(page === 1 ? '/calls' : listPath({}, { page }));
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(200);
    const onThisPage = expected.slice((page - 1) * 100, page * 100);
    expect(sessionIdsOf(answer.body.data)).toEqual(onThisPage);
    expect(answer.body.meta.pagination).toEqual({
      total: expected.length,
      count: onThisPage.length,
      per_page: 100,
      current_page: page,
      total_pages: Math.ceil(expected.length / 100),
    });
  }
});
