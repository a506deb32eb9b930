// The checks across one side's answers: the plan's pages of one listing judged together where that
// side's own answers show one listing (one total, or a total seen to fall), and Get Call against the same
// call as the side's own learning listed it. Each shown failing on answers that break it, and silent
// on answers that do not, or where movement could explain them.
import { test, expect } from '@playwright/test';
import { crossRequestViolations } from '../../core/diff/cross-requests.ts';
import type { Comparison } from '../../core/diff/diff-tally.ts';
import type { LearnedSide } from '../../core/diff/run-diff.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { PlannedRequest } from '../../core/diff/read-plan.ts';

const call = (sessionId: string, extra: Record<string, unknown> = {}) => ({
  sessionId,
  status: 'ended',
  initiatedAt: 1000,
  startedAt: 1000,
  endedAt: 1100,
  ...extra,
});
const page = (ids: string[], total: number, current: number): Exchange =>
  ({
    operation: 'listCalls',
    request: { method: 'GET', url: `http://x.invalid/v3/calls?page=${current}`, headers: {} },
    response: {
      status: 200,
      headers: {},
      body: {
        data: ids.map((id) => call(id)),
        meta: { pagination: { total, count: ids.length, per_page: 2, current_page: current, total_pages: Math.ceil(total / 2) } },
      },
      text: '',
      isJson: true,
    },
  }) as Exchange;
/** The answer asked at `receivedAt` less 100 ms and arrived at `receivedAt`. */
const timed = (exchange: Exchange, receivedAt: number): Exchange => ({ ...exchange, receivedAt, durationMs: 100 });
const fetched = (body: unknown): Exchange =>
  ({
    operation: 'getCall',
    request: { method: 'GET', url: 'http://x.invalid/v3/calls/a', headers: {} },
    response: { status: 200, headers: {}, body: { data: body }, text: '', isJson: true },
  }) as Exchange;
const pagesRequest = (number: number): PlannedRequest => ({
  operation: 'listCalls',
  kind: 'pages',
  label: `List Calls page=${number}`,
  query: number === 1 ? {} : { page: number },
  key: 'full',
});
const learnedOf = (listed: Exchange): LearnedSide =>
  ({
    learned: {
      sample: { calls: [{ call: call('a'), pointer: '/data/0', exchange: listed }], exchanges: [listed] },
      exchanges: [listed],
      paging: { page: true },
    },
    order: undefined,
  }) as unknown as LearnedSide;
const sides = (listed: Exchange) => ({ primary: learnedOf(listed), candidate: learnedOf(listed) });

/** The settling window, and answers up to ten seconds older than their arrival (MAX_ANSWER_AGE's default). */
const MOVEMENT = { settleSeconds: 300, answerAgeSeconds: 10 };

const requirementsOf = (found: ReturnType<typeof crossRequestViolations>, side: 'primary' | 'candidate') =>
  [...new Set([...found[side].values()].flat().map(({ requirement }) => requirement))].sort();

test('pages of one listing that repeat a call break PAGINATION-PAGES-PARTITION on the side that repeats it', () => {
  const clean = [page(['a', 'b'], 4, 1), page(['c', 'd'], 4, 2)];
  const repeating = [page(['a', 'b'], 4, 1), page(['b', 'c'], 4, 2)];
  const comparisons: Comparison[] = [1, 2].map((number, index) => ({
    request: pagesRequest(number),
    primary: clean[index]!,
    again: clean[index]!,
    candidate: repeating[index]!,
  }));
  const found = crossRequestViolations(comparisons, sides(clean[0]!), MOVEMENT);
  expect(requirementsOf(found, 'primary')).toEqual([]);
  expect(requirementsOf(found, 'candidate')).toEqual(['PAGINATION-PAGES-PARTITION']);
});

test('the pages of a side not seen to acknowledge page are not judged together: it serves one page, a reading of its own', () => {
  const clean = [page(['a', 'b'], 4, 1), page(['c', 'd'], 4, 2)];
  const same = [page(['a', 'b'], 4, 1), page(['a', 'b'], 4, 1)];
  const comparisons: Comparison[] = [1, 2].map((number, index) => ({
    request: pagesRequest(number),
    primary: clean[index]!,
    again: clean[index]!,
    candidate: same[index]!,
  }));
  const ignoring = { ...learnedOf(clean[0]!), learned: { ...learnedOf(clean[0]!).learned, paging: { page: false } } } as LearnedSide;
  expect(
    requirementsOf(crossRequestViolations(comparisons, { primary: learnedOf(clean[0]!), candidate: ignoring }, MOVEMENT), 'candidate'),
  ).toEqual([]);
  // The same pages from a side that acknowledges page break the partition.
  expect(requirementsOf(crossRequestViolations(comparisons, sides(clean[0]!), MOVEMENT), 'candidate')).toEqual([
    'PAGINATION-PAGES-PARTITION',
  ]);
});

test('pages whose totals differ are judged on the side’s own answers, never because the other side stood still', () => {
  const drifting = [page(['a', 'b'], 4, 1), page(['b', 'c'], 5, 2)];
  const still = [page(['a', 'b'], 4, 1), page(['c', 'd'], 4, 2)];
  const comparisons = (primary: Exchange[], candidate: Exchange[]): Comparison[] =>
    [1, 2].map((number, index) => ({
      request: pagesRequest(number),
      primary: primary[index]!,
      again: primary[index]!,
      candidate: candidate[index]!,
    }));
  // A call arrived between the candidate's asks, which a cache or a replica may show while the primary stood still.
  expect(requirementsOf(crossRequestViolations(comparisons(still, drifting), sides(still[0]!), MOVEMENT), 'candidate')).toEqual([]);
  expect(requirementsOf(crossRequestViolations(comparisons(drifting, still), sides(still[0]!), MOVEMENT), 'primary')).toEqual([]);
});

test('pages whose totals differ break PAGINATION-PAGES-PARTITION where the side’s total is seen to fall across more than MAX_ANSWER_AGE', () => {
  const still = [page(['a', 'b'], 4, 1), page(['c', 'd'], 4, 2)];
  // Page 2 arrived at 1 s naming 5; page 1, asked 10.5 s later, names 4: the unfiltered list shrank.
  const fell = [timed(page(['a', 'b'], 4, 1), 11_500), timed(page(['b', 'c'], 5, 2), 1_000)];
  const comparisons: Comparison[] = [1, 2].map((number, index) => ({
    request: pagesRequest(number),
    primary: still[index]!,
    again: still[index]!,
    candidate: fell[index]!,
  }));
  expect(requirementsOf(crossRequestViolations(comparisons, sides(still[0]!), MOVEMENT), 'candidate')).toEqual([
    'PAGINATION-PAGES-PARTITION',
  ]);
  // Asked within the answers' age of page 2's arrival, page 1 may show the store before it: nothing is said.
  const soon = [timed(page(['a', 'b'], 4, 1), 10_500), fell[1]!];
  const within = comparisons.map((comparison, index) => ({ ...comparison, candidate: soon[index]! }));
  expect(requirementsOf(crossRequestViolations(within, sides(still[0]!), MOVEMENT), 'candidate')).toEqual([]);
});

test('Get Call showing a settled call otherwise than the side’s own list did breaks CALLS-GET-MATCHES-LIST', () => {
  // Listed with a newer call beside it, so that the target's clock shows call a settled.
  const listed = page(['a', 'z'], 2, 1);
  (listed.response.body as { data: Array<Record<string, unknown>> }).data[1] = call('z', {
    initiatedAt: 9000,
    startedAt: 9000,
    endedAt: 9100,
  });
  const request: PlannedRequest = { operation: 'getCall', kind: 'get', label: 'Get Call a', sessionId: 'a', key: 'full' };
  const comparisons: Comparison[] = [
    { request, primary: fetched(call('a')), again: fetched(call('a')), candidate: fetched(call('a', { status: 'canceled' })) },
  ];
  const found = crossRequestViolations(comparisons, sides(listed), MOVEMENT);
  expect(requirementsOf(found, 'primary')).toEqual([]);
  expect(requirementsOf(found, 'candidate')).toEqual(['CALLS-GET-MATCHES-LIST']);
});

test('the same Get Call answered otherwise on a settled call breaks CALLS-READ-ONLY on that side', () => {
  // Listed with a newer call beside it, so that the target's clock shows call a settled.
  const listed = page(['a', 'z'], 2, 1);
  (listed.response.body as { data: Array<Record<string, unknown>> }).data[1] = call('z', {
    initiatedAt: 9000,
    startedAt: 9000,
    endedAt: 9100,
  });
  const request: PlannedRequest = { operation: 'getCall', kind: 'get', label: 'Get Call a', sessionId: 'a', key: 'full' };
  const once = fetched(call('a'));
  const viewed = fetched(call('a', { metaData: [{ views: 2 }] }));
  const comparisons: Comparison[] = [
    { request, primary: once, again: once, candidate: once },
    { request, primary: once, again: once, candidate: viewed },
  ];
  const found = crossRequestViolations(comparisons, sides(listed), MOVEMENT);
  expect(requirementsOf(found, 'primary')).toEqual([]);
  expect(requirementsOf(found, 'candidate')).toEqual(['CALLS-READ-ONLY']);
  // Asked with the header's name in another case, the request is not the same: not compared.
  const cased = comparisons.map((comparison) => ({ ...comparison, request: { ...request, apiKeyHeader: 'ApiKey' } }));
  expect(requirementsOf(crossRequestViolations(cased, sides(listed), MOVEMENT), 'candidate')).toEqual([]);
  // Not settled by the target's clock (no newer call seen), and asked within MAX_ANSWER_AGE: not judged.
  expect(requirementsOf(crossRequestViolations(comparisons, sides(page(['a'], 1, 1)), MOVEMENT), 'candidate')).toEqual([]);
});
