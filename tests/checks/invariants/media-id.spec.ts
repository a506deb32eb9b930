// CALL-MID-ON-STARTED-CALLS: list responses carry mid on calls that started.
import { test, expect } from '@playwright/test';
import { midOnStartedCalls } from '../../../core/checks/invariants/media-id.ts';
import { listedCall, seen } from '../exchanges.ts';

const { mid, ...withoutMid } = listedCall();

test('a started call with a mid passes, and so does a call that never started without one', () => {
  expect(midOnStartedCalls(seen(listedCall()))).toEqual([]);
  expect(midOnStartedCalls(seen({ ...withoutMid, status: 'unanswered' }))).toEqual([]);
  expect(midOnStartedCalls(seen({ ...withoutMid, status: 'initiated' }))).toEqual([]);
});

test('an ended or ongoing listed call without mid breaks CALL-MID-ON-STARTED-CALLS', () => {
  for (const status of ['ended', 'ongoing']) {
    expect(midOnStartedCalls(seen({ ...withoutMid, status })), status).toEqual([
      expect.objectContaining({ check: 'mid_on_started_calls', requirement: 'CALL-MID-ON-STARTED-CALLS', received: 'no mid at /data/0' }),
    ]);
  }
});

test('Get Call is not held to it, which the specification states of lists', () => {
  expect(midOnStartedCalls(seen(withoutMid, 'getCall'))).toEqual([]);
});
