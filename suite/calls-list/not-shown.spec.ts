// What the specification leaves open about List Calls, observed and reported rather than judged
// (the strict profile holds page selection to the deployment's page and perPage).
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { pageOf } from '../../core/checks/pagination.ts';
import { errorCodesIn } from '../../core/checks/errors.ts';
import { pageParameters } from '../../core/checks/page-parameters.ts';
import { sizeQuery } from '../../core/learning/paging.ts';

test(
  'PAGINATION-PAGE-PARAMETERS reports which parameters select pages, and their names',
  requirement('PAGINATION-PAGE-PARAMETERS'),
  async ({ verdict, targetSample, paging }) => {
    sampledCalls(targetSample);
    verdict.observe('PAGINATION-PAGE-PARAMETERS', paging.evidence);
    verdict.enforce(pageParameters(paging));
  },
);

test(
  'PAGINATION-SORT-ORDER reports the order of the calls listed',
  requirement('PAGINATION-SORT-ORDER'),
  async ({ verdict, targetSample }) => {
    sampledCalls(targetSample);
    const times = callsIn(targetSample.firstPage!)
      .map(({ call }) => call.initiatedAt)
      .filter((value): value is number => typeof value === 'number');
    const descending = times.every((value, index) => index === 0 || value <= times[index - 1]!);
    const ascending = times.every((value, index) => index === 0 || value >= times[index - 1]!);
    verdict.observe(
      'PAGINATION-SORT-ORDER',
      times.length < 2
        ? 'too few calls to tell an order'
        : descending
          ? 'newest initiatedAt first'
          : ascending
            ? 'oldest initiatedAt first'
            : 'not ordered by initiatedAt',
    );
  },
);

test(
  'PAGINATION-PAGE-SIZE-BOUNDS reports the default page size and the largest honoured',
  requirement('PAGINATION-PAGE-SIZE-BOUNDS'),
  async ({ api, verdict, targetSample, paging }) => {
    sampledCalls(targetSample);
    const defaultPage = pageOf(targetSample.firstPage!);
    verdict.observe(
      'PAGINATION-PAGE-SIZE-BOUNDS',
      `default page: per_page ${defaultPage?.pagination.per_page ?? 'absent'}, ${defaultPage?.items.length ?? 0} items`,
    );
    test.skip(!paging.perPage, `No page size is honoured: ${paging.evidence}`);
    const sizes = [1000, 5000];
    const answers = await Promise.all(sizes.map((perPage) => api.listCalls(sizeQuery(paging, perPage))));
    for (const [index, perPage] of sizes.entries()) {
      const exchange = answers[index]!;
      const page = pageOf(exchange);
      verdict.observe(
        'PAGINATION-PAGE-SIZE-BOUNDS',
        page
          ? `${paging.sizeName}=${perPage}: per_page ${page.pagination.per_page ?? 'absent'}, ${page.items.length} items of ${page.pagination.total}`
          : `${paging.sizeName}=${perPage}: refused with status ${exchange.response.status} ${errorCodesIn(exchange.response.body)[0] ?? '(no code)'}`,
      );
    }
  },
);

test(
  'CALL-RECEIVER-GROUP-TARGET reports the receivers of group and user calls',
  requirement('CALL-RECEIVER-GROUP-TARGET'),
  async ({ verdict, targetSample }) => {
    const calls = sampledCalls(targetSample);
    for (const receiverType of ['group', 'user']) {
      const receivers = [
        ...new Set(calls.filter(({ call }) => call.receiverType === receiverType).map(({ call }) => String(call.receiver))),
      ];
      verdict.observe(
        'CALL-RECEIVER-GROUP-TARGET',
        `${receiverType} calls: ${receivers.length} distinct receivers${receivers.length > 0 ? `, e.g. ${receivers.slice(0, 3).join(', ')}` : ''}`,
      );
    }
  },
);
