// The coverage model on exchanges made by hand: what one exchange is observed to try, how a tally
// tells data that can tell a right answer from a wrong one, the reasons given for what is not
// covered, shards merged, and the COVERAGE_MIN floor.
import { test, expect } from '@playwright/test';
import type { OperationId } from '../../openapi/contract.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { observe } from '../../core/coverage/observe.ts';
import { emptyTally, mergeTallies, positionOf, tallyObservation, type CoverageTally } from '../../core/coverage/tally.ts';
import { belowFloor, coverageOf, type Coverage } from '../../core/coverage/model.ts';

const BASE = 'http://127.0.0.1:9/v3';

function exchange(
  operation: OperationId,
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = { apikey: '$API_KEY' },
): Exchange {
  const method = operation === 'markGroupConversationAsUnread' ? 'DELETE' : 'GET';
  return {
    operation,
    request: { method, url: `${BASE}${path}`, headers },
    response: { status, headers: {}, body, text: JSON.stringify(body), isJson: true },
    durationMs: 1,
  };
}

/** A List Calls answer of `total` calls, `items` of them on this page. */
const listAnswer = (total: number, items: unknown[] = [], page = 1, perPage = 25) => ({
  data: items,
  meta: { pagination: { total, count: items.length, per_page: perPage, current_page: page, total_pages: Math.ceil(total / perPage) } },
});

function tallyOf(...exchanges: Exchange[]): CoverageTally {
  const tally = emptyTally();
  exchanges.forEach((each, index) => tallyObservation(tally, observe(each), `test ${index + 1}`));
  return tally;
}

const item = (coverage: Coverage, id: string) => {
  const found = coverage.items.find((entry) => entry.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
};

test('one exchange is observed by what it sent and what came back: filters, total, page, key, error code', () => {
  const listed = observe(
    exchange('listCalls', '/calls?type=audio&uid=u%201&page=2&perPage=5', 200, listAnswer(12, [{}, {}, {}, {}, {}], 2, 5)),
  );
  expect(listed).toEqual({
    operation: 'listCalls',
    status: 200,
    key: 'given',
    filters: { type: 'audio', uid: 'u 1' },
    total: 12,
    pages: 3,
    page: 2,
    size: { name: 'perPage', value: '5', taken: true },
  });
  const keyless = observe(exchange('getCall', '/calls/a%2Fb', 401, { error: { code: 'AUTH_ERR_EMPTY_APIKEY' } }, { APIKEY: '' }));
  expect(keyless).toMatchObject({ key: 'empty', keyHeader: 'APIKEY', code: 'AUTH_ERR_EMPTY_APIKEY', encodedId: true });
  expect(observe(exchange('getCall', '/calls/x', 404, {}, {})).key).toBe('missing');
  // A write refused for its key's scope, by status or by its result; a key error is no such refusal.
  expect(observe(exchange('markGroupConversationAsUnread', '/groups/g/conversation/read', 403, {})).scopeRefused).toBe(true);
  expect(
    observe(exchange('markGroupConversationAsUnread', '/groups/g/conversation/read', 200, { data: { success: false } })).scopeRefused,
  ).toBe(true);
  expect(
    observe(exchange('markGroupConversationAsUnread', '/groups/g/conversation/read', 401, { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND' } }))
      .scopeRefused,
  ).toBeUndefined();
});

test("a date filter at a call's own instant is its edge; a page the answer says is another is not credited", () => {
  const edge = observe(exchange('listCalls', '/calls?startedAt=1700000000', 200, listAnswer(3, [{ startedAt: 1700000000 }])));
  expect(edge.edges).toEqual(['startedAt']);
  const ignored = observe(exchange('listCalls', '/calls?page=2', 200, listAnswer(60, [], 1)));
  expect(ignored.page).toBeUndefined();
  expect([positionOf(1, 3), positionOf(2, 3), positionOf(3, 3), positionOf(4, 3), positionOf(2, 1)]).toEqual([
    'first',
    'middle',
    'last',
    'past the end',
    'past the end',
  ]);
});

test('a filter value is covered only on data that tells: an answer that kept some calls and dropped some', () => {
  const coverage = coverageOf(
    tallyOf(
      exchange('listCalls', '/calls', 200, listAnswer(10)),
      exchange('listCalls', '/calls?type=audio', 200, listAnswer(3)),
      exchange('listCalls', '/calls?mode=presenter', 200, listAnswer(0)),
      exchange('listCalls', '/calls?type=video', 200, listAnswer(10)),
      exchange('listCalls', '/calls?status=ended&receiverType=group', 200, listAnswer(2)),
      exchange('listCalls', '/calls?status=bogus', 400, { error: { code: 'ERR_BAD' } }),
    ),
  );
  expect(coverage.population).toBe(10);
  expect(item(coverage, 'filters/type=audio')).toMatchObject({ state: 'covered', by: 'test 2', count: 1 });
  expect(item(coverage, 'filters/mode=presenter')).toMatchObject({ state: 'weak', why: expect.stringContaining('no such data') });
  expect(item(coverage, 'filters/type=video')).toMatchObject({ state: 'weak', why: expect.stringContaining('kept all 10 calls') });
  expect(item(coverage, 'pairs/status+receiverType')).toMatchObject({ state: 'covered', by: 'test 5' });
  expect(item(coverage, 'pairs/type+mode')).toMatchObject({ state: 'missing', why: 'not tried in this run' });
  // A value outside the enum is a negative case, with the status it got; it covers no value of the filter.
  expect(item(coverage, 'negative/status')).toMatchObject({ state: 'covered' });
  expect(coverage.negativeStatuses).toEqual({ status: { 400: 1 } });
  expect(item(coverage, 'filters/status=ended').state).toBe('covered');
  expect(coverage.statuses).toEqual({ listCalls: { 200: 5, 400: 1 } });
});

test('what is not covered says why: not tried, narrowed, not in the traffic, writes off, no page size taken', () => {
  const tally = tallyOf(exchange('listCalls', '/calls?limit=5', 200, listAnswer(40)));
  expect(item(coverageOf(tally), 'access/key missing').why).toBe('not tried in this run');
  expect(item(coverageOf(tally, { narrowed: true }), 'access/key missing').why).toContain('the run was narrowed');
  expect(item(coverageOf(tally, { passive: true }), 'access/key missing').why).toBe('not in the traffic judged');
  expect(item(coverageOf(tally, { allowWrites: false }), 'operations/markGroupConversationAsUnread success').why).toBe(
    'not allowed: writes are off (ALLOW_WRITES)',
  );
  expect(item(coverageOf(tally), 'paging/page size taken').why).toBe(
    'not found: no answer took a page size under limit (per_page never said so)',
  );
  expect(item(coverageOf(tally), 'paging/first').state).toBe('covered');
});

test('tallies of shards merged cover what each covered, the smallest kept answer and the largest population kept', () => {
  const one = tallyOf(
    exchange('listCalls', '/calls', 200, listAnswer(10)),
    exchange('listCalls', '/calls?type=audio', 200, listAnswer(10)),
  );
  const two = tallyOf(exchange('listCalls', '/calls', 200, listAnswer(12)), exchange('listCalls', '/calls?type=audio', 200, listAnswer(4)));
  const merged = coverageOf(mergeTallies(structuredClone(one), two));
  expect(merged.population).toBe(12);
  expect(merged.exchanges).toBe(4);
  expect(item(merged, 'filters/type=audio')).toMatchObject({ state: 'covered', count: 2 });
  expect(item(coverageOf(one), 'filters/type=audio').state).toBe('weak');
});

test('COVERAGE_MIN names every dimension under the floor, and none at or above it', () => {
  const coverage = coverageOf(tallyOf(exchange('listCalls', '/calls', 200, listAnswer(10))));
  const lines = belowFloor(coverage, 50);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines[0]).toMatch(/^[A-Z].+: \d+% \(\d+ of \d+ covered\)$/);
  expect(belowFloor(coverage, 0)).toEqual([]);
});
