// Calls pushed off a first page by calls that arrived: explained only where the other answer shows
// the arrivals (not settled, begun after everything the first showed) on a page of a longer list.
import { test, expect } from '@playwright/test';
import { pushedOffCount } from '../../core/diff/page-shift.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const call = (sessionId: string, at: number, status = 'ended') => ({ sessionId, status, initiatedAt: at, startedAt: at, endedAt: at + 60 });
const page = (calls: Array<Record<string, unknown>>, total: number): Exchange =>
  ({
    operation: 'listCalls',
    request: { method: 'GET', url: 'http://x.invalid/v3/calls', headers: {} },
    response: {
      status: 200,
      headers: {},
      body: { data: calls, meta: { pagination: { total, count: calls.length, per_page: 2, current_page: 1, total_pages: 3 } } },
      text: '',
      isJson: true,
    },
  }) as Exchange;
const isStill = (seen: Record<string, unknown>) => seen.status === 'ended';

test('a settled call pushed off a full first page by a call that arrived after everything the other answer showed is explained', () => {
  const earlier = page([call('b', 2000), call('a', 1000)], 5);
  const arrival = call('new', 3000, 'ringing');
  expect(pushedOffCount(page([arrival, call('b', 2000)], 6), earlier, [arrival], isStill)).toBe(1);
});

test('no arrival, a settled or older extra call, or a page holding the whole list explains nothing', () => {
  const earlier = page([call('b', 2000), call('a', 1000)], 5);
  expect(pushedOffCount(page([call('c', 3000), call('b', 2000)], 5), earlier, [call('c', 3000)], isStill)).toBe(0);
  expect(pushedOffCount(page([call('old', 500, 'ringing'), call('b', 2000)], 5), earlier, [call('old', 500, 'ringing')], isStill)).toBe(0);
  expect(pushedOffCount(page([call('new', 3000, 'ringing'), call('b', 2000)], 2), earlier, [call('new', 3000, 'ringing')], isStill)).toBe(
    0,
  );
});
