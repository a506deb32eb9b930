// The readings the words leave open and learning does not name: each explains a difference only where
// every sample is of its kind (the same error in another shape, a page size asked and bounded, group
// calls only in a user's scope); a different error, a page size nobody asked, a one-to-one call left
// out of a scope are not explained, and stay what the classing made them.
import { test, expect } from '@playwright/test';
import { openReadingOf } from '../../core/diff/open-readings.ts';
import type { Comparison } from '../../core/diff/diff-tally.ts';
import type { AnswerDifference } from '../../core/diff/answer-differences.ts';
import type { PlannedRequest } from '../../core/diff/read-plan.ts';
import { exchange } from '../checks/exchanges.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

const sample = (request: Partial<PlannedRequest>, primary: Exchange, candidate: Exchange, difference: AnswerDifference) => {
  const comparison: Comparison = {
    request: { operation: 'listCalls', kind: 'list', label: 'l', key: 'full', ...request },
    primary,
    again: primary,
    candidate,
  };
  return { comparison, difference };
};

const nested = (code: string) => exchange('getCall', 404, { error: { code, message: 'm' } });
const flat = (code: string) => exchange('getCall', 404, { code, message: 'm' });

test('the same error in another body shape is an open reading; another code or status is not', () => {
  const moved: AnswerDifference = { path: 'error.code', kind: 'error-code' };
  expect(openReadingOf([sample({}, nested('ERR_CALL_SESSION_NOT_FOUND'), flat('ERR_CALL_SESSION_NOT_FOUND'), moved)])).toMatch(
    /^error-body-shape/,
  );
  expect(openReadingOf([sample({}, nested('ERR_CALL_SESSION_NOT_FOUND'), flat('ERR_OTHER'), moved)])).toBeUndefined();
  const other = exchange('getCall', 400, { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'm' });
  expect(openReadingOf([sample({}, nested('ERR_CALL_SESSION_NOT_FOUND'), other, moved)])).toBeUndefined();
  expect(openReadingOf([])).toBeUndefined();
});

const page = (perPage: number) =>
  exchange('listCalls', 200, {
    data: [],
    meta: { pagination: { total: 0, count: 0, per_page: perPage, current_page: 1, total_pages: 0 } },
  });

test('a page size asked and answered smaller by one side is an open reading; a size nobody asked is not', () => {
  const perPage: AnswerDifference = { path: 'meta.pagination.per_page', kind: 'value' };
  expect(openReadingOf([sample({ query: { perPage: 40 } }, page(40), page(25), perPage)])).toMatch(/^page-size-bounds/);
  expect(openReadingOf([sample({ query: {} }, page(10), page(25), perPage)])).toBeUndefined();
});

const counted = (total: number) =>
  exchange('listCalls', 200, { data: [], meta: { pagination: { total, count: 0, per_page: 10, current_page: 1, total_pages: 1 } } });

test('group calls only the side counting more lists, on behalf of a user, are an open reading; a one-to-one call is not', () => {
  const only = (receiverType: string): AnswerDifference => ({
    path: 'data[]',
    kind: 'membership',
    onlyIn: [{ side: 'candidate', call: { sessionId: 's', receiverType } }],
  });
  const [fewer, more] = [counted(5), counted(6)];
  expect(openReadingOf([sample({ onBehalfOf: 'u1' }, fewer, more, only('group'))])).toMatch(/^on-behalf-of-scope/);
  expect(openReadingOf([sample({ onBehalfOf: 'u1' }, fewer, more, only('user'))])).toBeUndefined();
  // The same count: no scope is wider, a group call swapped for another is no reading.
  expect(openReadingOf([sample({ onBehalfOf: 'u1' }, more, more, only('group'))])).toBeUndefined();
  expect(openReadingOf([sample({}, fewer, more, only('group'))])).toBeUndefined();
  // The narrower side's own calls are explained only where the wider page is full (they moved to a later page).
  const pushed: AnswerDifference = {
    path: 'data[]',
    kind: 'membership',
    onlyIn: [
      { side: 'candidate', call: { sessionId: 'g', receiverType: 'group' } },
      { side: 'primary', call: { sessionId: 'u', receiverType: 'user' } },
    ],
  };
  expect(openReadingOf([sample({ onBehalfOf: 'u1' }, fewer, more, pushed)])).toBeUndefined();
});
