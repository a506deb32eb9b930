// The users outside a one-to-one call that CALLS-GET-ON-BEHALF-OF-SCOPE asks about: the same pairs as
// the definition (outsideOneToOne, a header able to carry the uid, the first two of each call), found
// in time linear in what was read: a call of 100,000 entries asked of its 100,000 users once took
// minutes of a whole run's CPU (every call against every uid, each entry list searched anew).
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { outsideOneToOne, outsidersOfOneToOne, tookPart } from '../../core/checks/filters.ts';
import { travelsInAHeader } from '../../core/transport/header-value.ts';
import type { SeenCall } from '../../core/checks/calls-in.ts';
import { listedCall, seen } from './exchanges.ts';

/** The words, read without the index both functions share: a one-to-one call the user neither took part in nor was called in. */
const outsideByTheWords = (call: SeenCall['call'], uid: string) =>
  call.receiverType === 'user' && call.receiver !== uid && !tookPart(call, uid);

const byDefinition = (calls: readonly SeenCall[], uids: readonly string[], each: number) =>
  calls.flatMap((call) =>
    uids
      .filter((uid) => outsideByTheWords(call.call, uid) && travelsInAHeader(uid))
      .slice(0, each)
      .map((uid) => ({ seen: call, uid })),
  );

test('the pairs are those of the definition, for any calls and users', () => {
  const uid = fc.constantFrom('u1', 'u2', 'u3', 'u4', 'u\u0000', 'ü');
  const call = fc.record({
    receiverType: fc.constantFrom('user', 'group'),
    receiver: uid,
    initiator: uid,
    participants: fc.array(fc.record({ uid, isJoined: fc.boolean() }), { maxLength: 5 }),
  });
  fc.assert(
    fc.property(fc.array(call, { maxLength: 6 }), fc.uniqueArray(uid), fc.integer({ min: 1, max: 3 }), (calls, uids, each) => {
      const seenCalls = calls.map((fields) => seen({ ...listedCall(), ...fields }));
      expect(outsidersOfOneToOne(seenCalls, uids, each)).toEqual(byDefinition(seenCalls, uids, each));
      for (const { call } of seenCalls) for (const uid of uids) expect(outsideOneToOne(call, uid)).toBe(outsideByTheWords(call, uid));
    }),
  );
});

test('a one-to-one call of 100,000 entries asked of its 100,000 users and two others: the two others, at once', () => {
  const users = Array.from({ length: 100_000 }, (_, index) => `user-${index}`);
  const big = seen({
    ...listedCall(),
    receiverType: 'user',
    receiver: 'callee',
    initiator: 'caller',
    participants: users.map((uid) => ({ uid, isJoined: false })),
  });
  expect(outsidersOfOneToOne([big], [...users, 'callee', 'caller', 'stranger-1', 'stranger-2', 'stranger-3'])).toEqual([
    { seen: big, uid: 'stranger-1' },
    { seen: big, uid: 'stranger-2' },
  ]);
});
