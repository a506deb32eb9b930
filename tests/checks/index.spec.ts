// The per-exchange checks together: each call invariant holds its own requirement, and
// checkExchange reports every violation of a response, from every check.
import { test, expect } from '@playwright/test';
import { CALL_INVARIANTS, checkCall, checkExchange } from '../../core/checks/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import {
  callList,
  checkContext,
  exchange,
  joinedParticipant,
  listedCall,
  listOf,
  neverJoinedParticipant,
  recording,
  seen,
  textExchange,
} from './exchanges.ts';

// The target's clock an hour after the sample calls end, so that the timer, judged on settled calls only, is judged.
const context = { ...checkContext(), clock: 1692368187 + 3600 };
const withJoined = (changes: Record<string, unknown>): Record<string, unknown> => ({
  ...listedCall(),
  participants: [{ ...joinedParticipant(), ...changes }, neverJoinedParticipant()],
});

/** A call that breaks each invariant (and possibly others). */
const BROKEN: Readonly<Record<string, Record<string, unknown>>> = {
  'CALL-DURATION-IS-AUDIO-PLUS-VIDEO': { ...listedCall(), totalDurationInMinutes: 5 },
  'CALL-MINUTES-SUM-OVER-PARTICIPANTS': { ...listedCall(), totalVideoMinutes: 1 },
  'CALL-MINUTES-NOT-NEGATIVE': { ...listedCall(), totalVideoMinutes: -1 },
  'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO': withJoined({ totalDuration: 3 }),
  'CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES': { ...listedCall(), totalParticipants: 3 },
  'CALL-PARTICIPANTS-AT-MOST-50': {
    ...listedCall(),
    participants: Array.from({ length: 51 }, (_, index) => ({ ...neverJoinedParticipant(), uid: `user-${index + 10}` })),
  },
  'PARTICIPANT-NEVER-JOINED-SHAPE': {
    ...listedCall(),
    participants: [joinedParticipant(), { ...neverJoinedParticipant(), deviceId: 'device-2' }],
  },
  'CALL-MULTI-DEVICE-DISTINCT-DEVICES': { ...listedCall(), participants: [joinedParticipant(), joinedParticipant()] },
  'CALL-STARTED-NOT-BEFORE-INITIATED': { ...listedCall(), startedAt: 1692368100 },
  'CALL-ENDED-NOT-BEFORE-STARTED': { ...listedCall(), endedAt: 1692368160 },
  'PARTICIPANT-LEFT-NOT-BEFORE-JOINED': withJoined({ leftAt: 1692368167 }),
  'PARTICIPANT-JOINED-WITHIN-CALL': withJoined({ joinedAt: 1692368159 }),
  'CALL-MID-ON-STARTED-CALLS': { ...listedCall(), mid: undefined },
  'RECORDING-FIELDS': { ...listedCall(), recordings: [{ rid: 'r1' }] },
  'RECORDING-END-NOT-BEFORE-START': { ...listedCall(), recordings: [{ ...recording(), endTime: 1692368167 }] },
  'RECORDING-MEANS-HAS-RECORDING': { ...listedCall(), hasRecording: false, recordings: [recording()] },
  'CALL-TOTAL-DURATION-IS-ITS-DURATION': { ...listedCall(), totalDuration: '00:19:00' },
};

test('each call invariant holds a distinct requirement of the catalog', () => {
  const catalog = loadCatalog();
  const ids = CALL_INVARIANTS.map((invariant) => invariant.requirement);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.filter((id) => !catalog.byId.has(id))).toEqual([]);
  expect(Object.keys(BROKEN).sort()).toEqual([...ids].sort());
});

/** A call that does not show what each invariant of some calls only is about. */
const WITHOUT: Readonly<Record<string, Record<string, unknown>>> = {
  'PARTICIPANT-NEVER-JOINED-SHAPE': { ...listedCall(), participants: [joinedParticipant()] },
  'CALL-MULTI-DEVICE-DISTINCT-DEVICES': listedCall(),
  'CALL-MID-ON-STARTED-CALLS': { ...listedCall(), status: 'unanswered' },
  'RECORDING-FIELDS': listedCall(),
  'RECORDING-END-NOT-BEFORE-START': listedCall(),
  'RECORDING-MEANS-HAS-RECORDING': listedCall(),
  'CALL-TOTAL-DURATION-IS-ITS-DURATION': { ...listedCall(), status: 'ongoing', totalDuration: '00:19:00' },
};

test('an invariant of what not every call shows judges the calls that show it, the one that breaks it among them, and no other', () => {
  const partial = CALL_INVARIANTS.filter((invariant) => invariant.judges !== undefined);
  expect(partial.map((invariant) => invariant.requirement).sort()).toEqual(Object.keys(WITHOUT).sort());
  for (const { requirement, judges } of partial) {
    expect(judges!.calls(seen(BROKEN[requirement]!), context), requirement).toBe(true);
    expect(judges!.calls(seen(WITHOUT[requirement]!), context), requirement).toBe(false);
  }
  // Not yet settled by any clock known: the timer is not judged.
  const timer = CALL_INVARIANTS.find((invariant) => invariant.requirement === 'CALL-TOTAL-DURATION-IS-ITS-DURATION')!;
  expect(timer.judges!.calls(seen(listedCall()), checkContext())).toBe(false);
});

test('a conforming call passes every call invariant, listed or fetched', () => {
  expect(checkCall(seen(listedCall()), context)).toEqual([]);
  expect(checkCall(seen({ ...listedCall(), hasRecording: true, recordings: [recording()] }, 'getCall'), context)).toEqual([]);
});

for (const { requirement, check } of CALL_INVARIANTS) {
  test(`the ${requirement} invariant fails on a call that breaks it, under its own requirement id`, () => {
    const violations = check(seen(BROKEN[requirement]!), context);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.map((violation) => violation.requirement)).toEqual(violations.map(() => requirement));
    expect(checkCall(seen(BROKEN[requirement]!), context).map((violation) => violation.requirement)).toContain(requirement);
  });
}

test('checkExchange passes conforming List Calls, Get Call, mark-unread and error answers', () => {
  expect(checkExchange(listOf(), context)).toEqual([]);
  expect(checkExchange(exchange('getCall', 200, { data: listedCall() }), context)).toEqual([]);
  expect(checkExchange(exchange('markGroupConversationAsUnread', 200, { data: { success: true, message: 'marked' } }), context)).toEqual(
    [],
  );
  expect(
    checkExchange(exchange('getCall', 404, { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'no such call' } }), context),
  ).toEqual([]);
});

test('checkExchange reports a body that is not JSON only once, as HTTP-JSON-BODIES', () => {
  expect(checkExchange(textExchange('listCalls', 200, '<html></html>'), context).map((violation) => violation.requirement)).toEqual([
    'HTTP-JSON-BODIES',
  ]);
});

test('checkExchange reports every violation of a response: schema, pagination and each call invariant', () => {
  const body = callList([
    { ...listedCall(), type: 'fax' },
    { ...listedCall(), sessionId: 'v1.us.other', totalDurationInMinutes: 5 },
  ]);
  body.meta.pagination.count = 3;
  expect(checkExchange(exchange('listCalls', 200, body), context).map((violation) => [violation.check, violation.requirement])).toEqual([
    ['response_schema_conformance', 'CALL-FIELD-TYPE'],
    ['pagination_consistency', 'PAGINATION-COUNT-IS-PAGE-SIZE'],
    ['pagination_consistency', 'PAGINATION-COUNT-WITHIN-BOUNDS'],
    ['call_duration_is_audio_plus_video', 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO'],
  ]);
});

test('checkExchange reports a list page that shows one sessionId twice as CALL-SESSION-ID-UNIQUE, and distinct ones pass', () => {
  const twice = callList([listedCall(), listedCall()]);
  expect(checkExchange(exchange('listCalls', 200, twice), context).map((violation) => [violation.check, violation.requirement])).toEqual([
    ['session_id_unique', 'CALL-SESSION-ID-UNIQUE'],
  ]);
  const distinct = callList([listedCall(), { ...listedCall(), sessionId: 'v1.us.other' }]);
  expect(checkExchange(exchange('listCalls', 200, distinct), context)).toEqual([]);
});

test('checkExchange does not judge the calls of an error answer', () => {
  expect(
    checkExchange(
      exchange('listCalls', 500, { ...callList([{ ...listedCall(), totalDurationInMinutes: 5 }]), error: { code: 'E_X', message: 'x' } }),
      context,
    ),
  ).toEqual([]);
});
