// The comparison of two answers: each class of difference found on answers made to show it, and
// none on answers alike or alike but for an order the words leave open.
import { test, expect } from '@playwright/test';
import { answerDifferences, type ComparedAnswer } from '../../core/diff/answer-differences.ts';

const call = (sessionId: string, extra: Record<string, unknown> = {}) => ({
  sessionId,
  status: 'ended',
  initiatedAt: 100,
  participants: [{ uid: 'a', state: 'left' }],
  ...extra,
});
const list = (...calls: unknown[]): ComparedAnswer => ({
  status: 200,
  body: { data: calls, meta: { pagination: { total: calls.length } } },
});
const classes = (primary: ComparedAnswer, candidate: ComparedAnswer, orderedLists = false) =>
  answerDifferences(primary, candidate, { orderedLists }).map(({ kind, path }) => `${kind} ${path}`);

test('answers alike, and lists alike but for their order when the order is open, differ in nothing', () => {
  expect(classes(list(call('x'), call('y')), list(call('x'), call('y')))).toEqual([]);
  expect(classes(list(call('x'), call('y')), list(call('y'), call('x')))).toEqual([]);
});

test('an order the learned reading fixes is compared: the same calls in another order are an order difference', () => {
  expect(classes(list(call('x'), call('y')), list(call('y'), call('x')), true)).toEqual(['order data[]']);
});

test('each field class is named with its path, array positions generalised', () => {
  const primary = list(call('x', { mid: 'm', durations: 3 }));
  const candidate = list(call('x', { participants: [{ uid: 'a', state: 'ongoing' }], durations: '3', tags: [] }));
  expect(classes(primary, candidate)).toEqual([
    'value data[].participants[].state',
    'missing-field data[].mid',
    'type data[].durations',
    'extra-field data[].tags',
  ]);
});

test('calls one side lists and the other not are membership, the calls kept; arrays of other things differ in size', () => {
  const differences = answerDifferences(list(call('x'), call('y')), list(call('x'), call('z')), { orderedLists: false });
  expect(differences.map(({ kind, path }) => `${kind} ${path}`)).toEqual(['membership data[]']);
  expect(differences[0]!.onlyIn!.map(({ side, call }) => `${side} ${String(call.sessionId)}`)).toEqual(['primary y', 'candidate z']);
  expect(classes(list(call('x', { participants: [] })), list(call('x')))).toEqual(['size data[].participants[]']);
  expect(classes(list(), list(call('x')))).toEqual(['membership data[]', 'value meta.pagination.total']);
});

test('statuses and error codes differ as such; a different status is not compared field by field', () => {
  const notFound = { status: 404, body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'a' } } };
  const other = { status: 400, body: { error: { code: 'ERR_BAD_REQUEST', message: 'b' } } };
  expect(classes(notFound, other)).toEqual(['status (status)', 'error-code error.code']);
  expect(classes(notFound, { ...notFound, body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'other words' } } })).toEqual([]);
  expect(classes(list(call('x')), notFound)).toEqual(['status (status)', 'error-code error.code']);
});

test('a call still moving is compared on its presence only; one either side shows settled is due its final state on both', () => {
  const moving = (value: string) => list(call('x', { status: value }));
  const stillNowhere = () => false;
  expect(answerDifferences(moving('ongoing'), moving('ended'), { orderedLists: false, isStill: stillNowhere })).toEqual([]);
  // Settled (ended long enough before the clock) on one side: no answer within the age allowed shows it otherwise.
  const settledWhenEnded = (seen: Record<string, unknown>) => seen.status === 'ended';
  const kinds = (isStill?: (seen: Record<string, unknown>) => boolean) =>
    answerDifferences(moving('ongoing'), moving('ended'), { orderedLists: false, ...(isStill && { isStill }) }).map(({ kind }) => kind);
  expect(kinds(settledWhenEnded)).toEqual(['value']);
  expect(kinds()).toEqual(['value']);
});

test('every call one side lists and the other not is kept for the movement rules, however many there are', () => {
  const primary = Array.from({ length: 30 }, (_, index) => call(`p${index}`));
  const candidate = Array.from({ length: 30 }, (_, index) => call(`c${index}`));
  const [membership] = answerDifferences(list(...primary), list(...candidate), { orderedLists: false });
  // Once only the first 20, all of them the primary's: the settled calls further on were never judged.
  expect(membership!.onlyIn!.filter(({ side }) => side === 'candidate')).toHaveLength(30);
  expect(membership!.onlyIn).toHaveLength(60);
});

test('a call not yet ended, in the same status on both sides, is compared on the fields it carries; one that ended is not', () => {
  const isStill = () => false;
  const withoutMid = call('x', { status: 'ongoing' });
  const ongoing = list(call('x', { status: 'ongoing', mid: 'm1' }));
  expect(answerDifferences(ongoing, list(withoutMid), { orderedLists: false, isStill }).map(({ kind, path }) => `${kind} ${path}`)).toEqual(
    ['missing-field data[].mid'],
  );
  // Its values may move between the asks: not compared.
  expect(
    answerDifferences(ongoing, list(call('x', { status: 'ongoing', mid: 'm2', initiatedAt: 5 })), { orderedLists: false, isStill }),
  ).toEqual([]);
  // Ended but not settled (what settles late may yet arrive), or in another status: not compared.
  const ended = (extra: Record<string, unknown>) => list(call('x', extra));
  expect(answerDifferences(ended({ mid: 'm1' }), ended({}), { orderedLists: false, isStill })).toEqual([]);
  expect(answerDifferences(ongoing, ended({}), { orderedLists: false, isStill }).filter(({ kind }) => kind !== 'value')).toEqual([]);
});

test('the same parsed body labelled otherwise, or in bytes that are not UTF-8, differs in the body’s type', () => {
  const notFound = { status: 404, body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'a' } } };
  expect(classes({ ...notFound, format: 'application/json' }, { ...notFound, format: 'application/json' })).toEqual([]);
  expect(classes({ ...notFound, format: 'application/json' }, { ...notFound, format: 'text/plain' })).toEqual(['type (body)']);
  expect(classes({ ...notFound, format: 'application/json' }, { ...notFound, format: 'application/json, not UTF-8' })).toEqual([
    'type (body)',
  ]);
});

test("Get Call's call is compared as a listed one: an ongoing call's moving values are not, a field it lacks is", () => {
  const got = (extra: Record<string, unknown>): ComparedAnswer => ({
    status: 200,
    body: { data: call('x', { status: 'ongoing', ...extra }) },
  });
  const isStill = (shown: Record<string, unknown>) => shown.status === 'ended';
  const compared = (primary: ComparedAnswer, candidate: ComparedAnswer) =>
    answerDifferences(primary, candidate, { orderedLists: false, isStill }).map(({ kind, path }) => `${kind} ${path}`);
  expect(compared(got({ totalDuration: '00:00:44', mid: 'm' }), got({ totalDuration: '00:00:39', mid: 'm' }))).toEqual([]);
  expect(compared(got({ totalDuration: '00:00:44', mid: 'm' }), got({ totalDuration: '00:00:39' }))).toEqual(['missing-field data.mid']);
  const ended = (minutes: number): ComparedAnswer => ({ status: 200, body: { data: call('x', { totalAudioMinutes: minutes }) } });
  expect(compared(ended(3), ended(2))).toEqual(['value data.totalAudioMinutes']);
});
