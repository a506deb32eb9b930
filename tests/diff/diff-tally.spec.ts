// The noise rule: a path is reported only where the candidate differs more often than the primary
// differs from itself, by both thresholds; an operation with too few comparisons is inconclusive;
// a call one side lists and the other not is movement only where it had not settled.
import { test, expect } from '@playwright/test';
import { beyondNoise, inconclusiveOperations, tallyComparisons, type Comparison } from '../../core/diff/diff-tally.ts';
import { DEFAULT_NOISE, type DiffSettings } from '../../core/diff/diff-settings.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const settings: DiffSettings = { noise: DEFAULT_NOISE, minComparisons: 2, ignore: [] };
const call = (sessionId: string, endedAt: number, extra: Record<string, unknown> = {}) => ({
  sessionId,
  status: 'ended',
  initiatedAt: endedAt - 60,
  endedAt,
  ...extra,
});
const answer = (...calls: unknown[]): Exchange =>
  ({
    operation: 'listCalls',
    request: { method: 'GET', url: 'http://x.invalid/v3/calls', headers: {} },
    response: { status: 200, headers: {}, body: { data: calls }, text: '', isJson: true },
  }) as Exchange;
const comparison = (primary: Exchange, again: Exchange, candidate: Exchange): Comparison => ({
  request: { operation: 'listCalls', kind: 'pages', label: 'List Calls', query: {}, key: 'full' },
  primary,
  again,
  candidate,
});
const rules = { settleSeconds: 300 };

test('a path the candidate differs at and the primary never does is beyond noise; one as noisy as the primary is not', () => {
  const same = answer(call('a', 1000), call('b', 5000));
  const changed = answer(call('a', 1000, { mid: 'x' }), call('b', 5000));
  const tally = tallyComparisons([comparison(same, same, changed), comparison(same, same, same)], settings, undefined, rules);
  const path = tally.paths.find(({ path }) => path === 'data[].mid')!;
  expect([path.kind, path.candidate, path.aa]).toEqual(['extra-field', 1, 0]);
  expect(beyondNoise(path, 2, settings)).toBe(true);
  // The primary differing from itself as often as the candidate does: noise.
  const noisy = tallyComparisons([comparison(same, changed, changed), comparison(same, same, same)], settings, undefined, rules);
  expect(beyondNoise(noisy.paths[0]!, 2, settings)).toBe(false);
});

test('a call listed by one side only is movement while it had not settled by the answers’ clock, and a difference once settled', () => {
  const recent = answer(call('old', 1000), call('new', 4990));
  const withoutRecent = answer(call('old', 1000));
  const moved = tallyComparisons([comparison(recent, recent, withoutRecent)], settings, undefined, rules);
  expect(moved.paths).toEqual([]);
  expect(moved.operations[0]!.movement).toBe(1);
  const settledGone = tallyComparisons([comparison(recent, recent, answer(call('new', 4990)))], settings, undefined, rules);
  expect(settledGone.paths.map(({ kind, path }) => `${kind} ${path}`)).toEqual(['membership data[]']);
});

test('behind a cache or a replica a call is compared in full only where it had settled MAX_ANSWER_AGE before the clock', () => {
  // Ended 305 s before the clock (the newer call's end): settled at 300 s, not 10 s before that.
  const fresh = answer(call('a', 4695, { totalAudioMinutes: 3 }), call('b', 5000));
  const older = answer(call('a', 4695, { totalAudioMinutes: 2 }), call('b', 5000));
  const paths = (answerAgeSeconds: number) =>
    tallyComparisons([comparison(fresh, fresh, older)], settings, undefined, { ...rules, answerAgeSeconds }).paths.map(({ path }) => path);
  expect(paths(0)).toEqual(['data[].totalAudioMinutes']);
  expect(paths(10)).toEqual([]);
});

test('DIFF_IGNORE takes out its path and counts the comparisons it silenced; too few comparisons is inconclusive', () => {
  // The call judged at the clock its newer neighbour gives: settled, so compared.
  const same = answer(call('a', 1000), call('b', 5000));
  const changed = answer(call('a', 1000, { mid: 'x' }), call('b', 5000));
  const ignoring = { ...settings, ignore: [{ operation: 'listCalls' as const, path: 'data[].mid' }] };
  const tally = tallyComparisons([comparison(same, same, changed)], ignoring, undefined, rules);
  expect(tally.paths).toEqual([]);
  expect(tally.ignored).toEqual([{ operation: 'listCalls', path: 'data[].mid', suppressed: 1 }]);
  expect(inconclusiveOperations(tally, ignoring)).toEqual([
    { operation: 'listCalls', reason: '1 comparisons, fewer than DIFF_MIN_COMPARISONS=2' },
  ]);
});

test('a different count of calls is movement where an answer shows a call still moving, and a difference where none is', () => {
  const counted = (total: number, ...calls: unknown[]): Exchange => {
    const exchange = answer(...calls);
    return { ...exchange, response: { ...exchange.response, body: { data: calls, meta: { pagination: { total } } } } };
  };
  const settled = [call('old', 1000), call('newer', 5000)];
  const moving = [...settled, call('live', 5000, { status: 'ongoing' })];
  // The clock learning saw: the newer settled call is past SETTLE_SECONDS by it.
  const clocked = { settleSeconds: 300, clock: 6000 };
  const withMovement = tallyComparisons(
    [comparison(counted(3, ...moving), counted(3, ...moving), counted(4, ...moving))],
    settings,
    undefined,
    clocked,
  );
  expect(withMovement.paths).toEqual([]);
  const standing = tallyComparisons(
    [comparison(counted(2, ...settled), counted(2, ...settled), counted(3, ...settled))],
    settings,
    undefined,
    clocked,
  );
  expect(standing.paths.map(({ kind, path }) => `${kind} ${path}`)).toEqual(['value meta.pagination.total']);
});

test('a difference in one kind of request is judged against that kind’s noise too; one in the calls only where the primary saw nothing move there', () => {
  const same = answer(call('a', 1000), call('b', 5000));
  const changed = answer(call('a', 1000, { mid: 'x' }), call('b', 5000));
  const refused = { ...same, response: { ...same.response, status: 401, body: { error: { code: 'AUTH_ERR_EMPTY_APIKEY' } } } } as Exchange;
  const ofKind = (kind: string, primary: Exchange, again: Exchange, candidate: Exchange): Comparison => ({
    ...comparison(primary, again, candidate),
    request: { operation: 'listCalls', kind, label: `List Calls (${kind})`, query: {}, key: 'full' },
  });
  const at = (tally: ReturnType<typeof tallyComparisons>, path: string) => tally.paths.find((entry) => entry.path === path)!;
  // One difference in 40 comparisons (2.5%, under the 3-point threshold), the only request of its kind.
  const many = Array.from({ length: 39 }, () => ofKind('filter', same, same, same));
  const status = at(tallyComparisons([...many, ofKind('header-case', same, same, refused)], settings, undefined, rules), '(status)');
  expect(status.kinds).toEqual({ 'header-case': { candidate: 1, aa: 0, comparisons: 1, still: true } });
  expect(beyondNoise(status, 40, settings)).toBe(true);
  // Without its own kind it would be lost in the operation; and its kind as noisy as the candidate is noise.
  expect(beyondNoise({ ...status, kinds: {} }, 40, settings)).toBe(false);
  const noisy = at(tallyComparisons([...many, ofKind('header-case', same, refused, refused)], settings, undefined, rules), '(status)');
  expect(beyondNoise(noisy, 40, settings)).toBe(false);
  // A call of a list differing once: within its kind where the primary showed nothing moving there;
  // where it showed a call arriving (a settled call pushed off the page by it may be all it is), not.
  const field = at(tallyComparisons([...many, ofKind('pages', same, same, changed)], settings, undefined, rules), 'data[].mid');
  expect(beyondNoise(field, 40, settings)).toBe(true);
  const arrived = answer(call('a', 1000), call('b', 5000), call('new', 4990, { status: 'ongoing' }));
  const moving = at(tallyComparisons([...many, ofKind('pages', same, arrived, changed)], settings, undefined, rules), 'data[].mid');
  expect(moving.kinds.pages!.still).toBe(false);
  expect(beyondNoise(moving, 40, settings)).toBe(false);
});

test("mark-unread's result message is prose naming each side's fixture: compared by its type only", () => {
  const result = (message: unknown, success: unknown = true): Exchange =>
    ({
      operation: 'markGroupConversationAsUnread',
      request: { method: 'DELETE', url: 'http://x.invalid/v3/groups/g/conversation/read', headers: {} },
      response: { status: 200, headers: {}, body: { data: { success, message } }, text: '', isJson: true },
    }) as Exchange;
  const mark = (primary: Exchange, candidate: Exchange): Comparison => ({
    request: { operation: 'markGroupConversationAsUnread', kind: 'mark', label: 'Mark-unread', key: 'full' },
    primary,
    again: primary,
    candidate,
  });
  const paths = (candidate: Exchange) =>
    tallyComparisons([mark(result('marked in group-a'), candidate)], settings, undefined, rules).paths.map(
      ({ path, kind }) => `${path} ${kind}`,
    );
  expect(paths(result('marked in group-b'))).toEqual([]);
  expect(paths(result(7))).toEqual(['data.message type']);
  expect(paths(result('marked in group-b', 'true'))).toEqual(['data.success type']);
});

test('the page after the last, holding no call, may count fewer than the primary only as the unfiltered list grew', () => {
  const timed = (page: number, total: number, at: number, ...calls: unknown[]): Exchange => ({
    ...answer(...calls),
    request: { method: 'GET', url: `http://x.invalid/v3/calls?page=${page}`, headers: {} },
    response: {
      status: 200,
      headers: {},
      body: { data: calls, meta: { pagination: { total, count: calls.length, per_page: 25, current_page: page, total_pages: 1 } } },
      text: '',
      isJson: true,
    },
    receivedAt: at,
    durationMs: 50,
  });
  const paged = (primary: Exchange, candidate: Exchange): Comparison => ({
    ...comparison(primary, primary, candidate),
    request: { operation: 'listCalls', kind: 'pages', label: 'List Calls page', query: { page: '9' }, key: 'full' },
  });
  const first = (total: number, at: number) => paged(timed(1, total, at, call('a', 1000)), timed(1, total, at + 100, call('a', 1000)));
  const after = (candidateTotal: number) => paged(timed(9, 12, 40_000), timed(9, candidateTotal, 40_100));
  const paths = (...comparisons: Comparison[]) =>
    tallyComparisons(comparisons, settings, 'newest-first', { settleSeconds: 300, answerAgeSeconds: 10, clock: 6000 }).paths.map(
      ({ kind, path }) => `${kind} ${path}`,
    );
  // The primary counted 10 at 0 s and 12 at 40 s: a candidate ten seconds behind may show 10 to 12.
  expect(paths(first(10, 0), after(11))).toEqual([]);
  // Fewer than the list held long before, or more than the primary counted since, is a difference.
  expect(paths(first(10, 0), after(9))).toEqual(['value meta.pagination.total']);
  expect(paths(first(10, 0), paged(timed(9, 12, 40_000), timed(9, 13, 40_100)), first(12, 60_000))).toEqual([
    'value meta.pagination.total',
  ]);
});
