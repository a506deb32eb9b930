// repeatable_read (repeatable-read.ts): the same Get Call after other reads answers the same; on a
// settled call byte for byte, on one not yet settled one way (it may only gain what settles late).
import { test, expect } from '@playwright/test';
import { groundToRead, repeatableRead, sameAnswer, sameButSettling } from '../../core/checks/repeatable-read.ts';
import { exchange, listedCall, seen } from './exchanges.ts';

const answer = (call: Record<string, unknown>, status = 200) => exchange('getCall', status, { data: call });

test('the same answer passes; another status or another body breaks CALLS-READ-ONLY', () => {
  const call = listedCall();
  expect(sameAnswer(answer(call), answer({ ...call }))).toEqual([]);
  expect(sameAnswer(answer(call), answer(call, 500))).toMatchObject([{ check: 'repeatable_read', requirement: 'CALLS-READ-ONLY' }]);
  expect(sameAnswer(answer(call), answer({ ...call, type: 'video' }))).toHaveLength(1);
  expect(repeatableRead(answer(call), answer(call), 'x').title).toMatch(
    /^GET http:\/\/127\.0\.0\.1:8080\/v3\/calls\/.+ answered differently after other reads$/,
  );
});

test('a call not yet settled may gain what settles late, and nothing else', () => {
  const ongoing = { ...listedCall(), status: 'ongoing', endedAt: undefined };
  const ended = { ...ongoing, status: 'ended', endedAt: Number(listedCall().startedAt) + 60 };
  expect(sameButSettling(answer(ongoing), answer(ongoing))).toEqual([]);
  expect(sameButSettling(answer({ ...ongoing, type: 'audio' }), answer({ ...ongoing, type: 'video' }))).toHaveLength(1);
  // Without a call on either side, byte for byte.
  expect(sameButSettling(answer(ongoing), exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND' } }))).toHaveLength(1);
  expect(sameAnswer(answer(ongoing), answer(ended))).toHaveLength(1);
});

test('the call read is a settled one where the data holds one, else one in a final status, else none', () => {
  const started = Number(listedCall().startedAt);
  const settled = seen({ ...listedCall(), sessionId: 'settled', status: 'ended', endedAt: started + 10 });
  const fresh = seen({ ...listedCall(), sessionId: 'fresh', status: 'ended', endedAt: started + 1000 });
  const going = seen({ ...listedCall(), sessionId: 'going', status: 'ongoing', endedAt: undefined });
  expect(groundToRead([fresh, settled], started + 1000, 300)).toEqual({ seen: settled, settled: true });
  expect(groundToRead([going, fresh], started + 1000, 300)).toEqual({ seen: fresh, settled: false });
  expect(groundToRead([going], started + 1000, 300)).toBeUndefined();
});
