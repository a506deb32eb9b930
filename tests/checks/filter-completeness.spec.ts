// filter_completeness (filter-completeness.ts): a call is searched for in the list filtered by its own
// fields, page by page up to SEARCH_PAGES, then by every filter it matches; a complete answer that
// lacks a call still matching the filters fails, a partial answer or a call that moved on does not.
import { test, expect } from '@playwright/test';
import { filterCompleteness, searched, searchForCall, searchList, SEARCH_PAGES } from '../../core/checks/filter-completeness.ts';
import { OPEN_READINGS } from '../../core/checks/readings.ts';
import type { Query } from '../../core/transport/api.ts';
import { exchange, listedCall, listPage, seen } from './exchanges.ts';

const PAGING = { page: true, perPage: true, sizeName: 'perPage' };
const wanted = seen({ ...listedCall(), sessionId: 'wanted', type: 'audio' });

/** A target whose filtered list holds `ids` in pages of `perPage`, recording every query asked. */
function scriptedList(ids: string[], perPage = 2) {
  const asked: Query[] = [];
  const listCalls = async (query: Query = {}) => {
    asked.push(query);
    const page = Number(query.page ?? 1);
    const held = ids.slice((page - 1) * perPage, page * perPage);
    return listPage(
      held,
      { total: ids.length, count: held.length, per_page: perPage, current_page: page },
      query as Record<string, string>,
    );
  };
  return { api: { listCalls }, asked };
}

test('what the pages read say: found, how many calls were read, and whether that is the whole answer', () => {
  const first = listPage(['a', 'b'], { total: 3, per_page: 2 });
  expect(searched({ type: 'audio' }, [first], 'b')).toMatchObject({ found: true, scanned: 2, total: 3, complete: false });
  expect(searched({ type: 'audio' }, [first, listPage(['c'], { total: 3 })], 'z')).toMatchObject({
    found: false,
    scanned: 3,
    complete: true,
  });
  expect(searched({}, [exchange('listCalls', 400, { error: { code: 'ERR_BAD_REQUEST' } })], 'a')).toMatchObject({
    complete: false,
    total: 0,
  });
});

test('the search reads pages until the call is met, the answer ends, or SEARCH_PAGES are read', async () => {
  const short = scriptedList(['a', 'wanted', 'c']);
  expect(await searchList(short.api, 'wanted', { type: 'audio' }, PAGING)).toMatchObject({ found: true, scanned: 2 });
  expect(short.asked).toEqual([{ type: 'audio' }]);
  const lacking = scriptedList(['a', 'b', 'c']);
  expect(await searchList(lacking.api, 'wanted', { type: 'audio' }, PAGING)).toMatchObject({ found: false, complete: true, scanned: 3 });
  expect(lacking.asked).toEqual([{ type: 'audio' }, { type: 'audio', page: 2 }]);
  const long = scriptedList(Array.from({ length: 40 }, (_, index) => `c${index}`));
  expect(await searchList(long.api, 'wanted', { type: 'audio' }, PAGING)).toMatchObject({
    found: false,
    complete: false,
    scanned: 2 * SEARCH_PAGES,
  });
  expect(long.asked).toHaveLength(SEARCH_PAGES);
  // Without page selection, the first page is all there is to read.
  const unpaged = scriptedList(['a', 'b', 'c']);
  expect(await searchList(unpaged.api, 'wanted', { type: 'audio' }, { ...PAGING, page: false })).toMatchObject({ complete: false });
  expect(unpaged.asked).toHaveLength(1);
});

test('a partial answer is searched again by every filter the call matches', async () => {
  const long = scriptedList(Array.from({ length: 40 }, (_, index) => `c${index}`));
  await searchForCall(long.api, wanted, { type: 'audio' }, PAGING, OPEN_READINGS);
  expect(long.asked).toHaveLength(2 * SEARCH_PAGES);
  expect(Object.keys(long.asked[SEARCH_PAGES]!).length).toBeGreaterThan(1);
});

test('a complete answer lacking a call that still matches breaks CALLS-LIST-FILTER-COMPLETENESS; a partial one, or a call moved on, does not', () => {
  const lacking = searched({ type: 'audio' }, [listPage(['a'])], 'wanted');
  expect(filterCompleteness(wanted, { call: wanted.call }, lacking, OPEN_READINGS)).toMatchObject([
    {
      check: 'filter_completeness',
      requirement: 'CALLS-LIST-FILTER-COMPLETENESS',
      title: 'call "wanted" matches type=audio but is not among the 1 calls returned',
      received: '1 calls, all read, without it',
    },
  ]);
  const partial = searched({ type: 'audio' }, [listPage(['a'], { total: 9 })], 'wanted');
  expect(filterCompleteness(wanted, { call: wanted.call }, partial, OPEN_READINGS)).toEqual([]);
  expect(filterCompleteness(wanted, { call: { ...wanted.call, type: 'video' } }, lacking, OPEN_READINGS)).toEqual([]);
  expect(filterCompleteness(wanted, { call: undefined }, lacking, OPEN_READINGS)).toEqual([]);
  expect(
    filterCompleteness(wanted, { call: wanted.call }, searched({ type: 'audio' }, [listPage(['wanted'])], 'wanted'), OPEN_READINGS),
  ).toEqual([]);
});
