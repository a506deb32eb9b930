// The order a target lists calls in, learned from its pages: told only by neighbours at different moments.
import { test, expect } from '@playwright/test';
import { learnListOrder } from '../../core/diff/list-order.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const page = (...moments: number[]): Exchange =>
  ({
    operation: 'listCalls',
    request: { method: 'GET', url: 'http://x.invalid/v3/calls', headers: {} },
    response: {
      status: 200,
      headers: {},
      body: { data: moments.map((initiatedAt, index) => ({ sessionId: `s${index}`, initiatedAt })) },
      text: '',
      isJson: true,
    },
  }) as Exchange;

test('newest first, oldest first, neither, and untold', () => {
  expect(learnListOrder([page(30, 20, 20, 10), page(5, 1)])).toBe('newest-first');
  expect(learnListOrder([page(10, 20, 30)])).toBe('oldest-first');
  expect(learnListOrder([page(30, 20), page(1, 2)])).toBe('unordered');
  expect(learnListOrder([page(7, 7), page(3)])).toBeUndefined();
});
