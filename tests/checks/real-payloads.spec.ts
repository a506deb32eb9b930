// The deployed API's own published payloads (tests/real-payloads/), run through what the
// suite does with every answer: the readings it learns from the calls are the deployment's, and
// under them no check finds anything wrong, in either profile. A check that held only for our
// reference's reading of the words would fail here.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callsIn } from '../../core/checks/calls-in.ts';
import { checkExchange } from '../../core/checks/index.ts';
import { disagreements } from '../../core/checks/get-matches-list.ts';
import { OPEN_READINGS, type Readings } from '../../core/checks/readings.ts';
import { detectCountReading, detectMinutesReading, detectTimerReading } from '../../core/learning/call-readings.ts';
import { detectGetCallEnvelope } from '../../core/learning/get-call-envelope.ts';
import { participantsUnderEveryReading } from '../../core/arbitraries/call-filters.ts';
import { effectiveLevel, loadCatalog } from '../../openapi/catalog.ts';
import type { OperationId } from '../../openapi/contract.ts';
import { checkContext, exchange } from './exchanges.ts';

const payload = (file: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../real-payloads/${file}`, import.meta.url)), 'utf8'));
const published: Array<{ operation: OperationId; file: string }> = [
  { operation: 'listCalls', file: 'list-calls.json' },
  { operation: 'getCall', file: 'get-call.json' },
  { operation: 'markGroupConversationAsUnread', file: 'mark-unread.json' },
];
const exchanges = published.map(({ operation, file }) => ({ file, exchange: exchange(operation, 200, payload(file)) }));
const calls = exchanges.flatMap(({ exchange: sent }) => callsIn(sent));
const minutes = detectMinutesReading(calls);
const participantCount = detectCountReading(calls);
const getCallEnvelope = detectGetCallEnvelope([exchanges[1]!.exchange]);
const readings: Readings = {
  ...OPEN_READINGS,
  minutes: minutes.accepted,
  participantCount: participantCount.accepted,
  getCallEnvelope: getCallEnvelope.accepted,
};
const catalog = loadCatalog();

test('the published payloads hold three calls (two listed, one fetched) for the suite to read', () => {
  expect(calls.map(({ call }) => call.sessionId)).toHaveLength(3);
});

test("the readings learned from the deployment's published calls are the deployment's: minutes are the call's span, totalParticipants counts the joined entries", () => {
  expect(minutes.survivors).toEqual(['call-span']);
  expect(minutes.ruledOut).toEqual([expect.objectContaining({ candidate: 'sum-of-entries' })]);
  expect(participantCount.survivors).toEqual(['joined-entries']);
  expect(participantCount.ruledOut).toEqual([
    expect.objectContaining({ candidate: 'entries', reason: expect.stringContaining('totalParticipants 2 where it has 5 entries') }),
  ]);
});

test("the published calls' timers are their spans and their minutes alike (00:00:19 for 19 s): both readings survive, and each call, judged as settled, passes", () => {
  // Published long ago, they have settled: read with no wait at all, every one of them is read.
  const timer = detectTimerReading(calls, 0);
  expect(timer.survivors).toEqual(['call-span', 'call-minutes']);
  expect(timer.evidence).toMatch(/^3 sampled calls, 0 of which tell the readings apart: those of 3 that had settled/);
  const settledContext = { ...checkContext({ ...readings, timer: timer.accepted }), clock: 2_000_000_000 };
  for (const { file, exchange: sent } of exchanges) expect(checkExchange(sent, settledContext), file).toEqual([]);
});

for (const profile of ['spec', 'strict'] as const) {
  test(`under the readings learned from them, every published payload passes every per-answer check (${profile} profile)`, () => {
    for (const { file, exchange: sent } of exchanges) {
      const found = checkExchange(sent, checkContext(readings)).filter(
        (violation) => effectiveLevel(catalog.byId.get(violation.requirement)!, profile) !== 'INFO',
      );
      expect(found, file).toEqual([]);
    }
  });
}

test("the published Get Call's envelope is learned as the deployment's current form, and its older export's form of the same call passes every check once learned", () => {
  expect(getCallEnvelope.survivors).toEqual(['data-object']);
  const older = exchange('getCall', 200, { data: [(payload('get-call.json') as { data: unknown }).data] });
  const learned: Readings = { ...readings, getCallEnvelope: detectGetCallEnvelope([older]).accepted };
  expect(learned.getCallEnvelope).toEqual(['data-array']);
  expect(checkExchange(older, checkContext(learned))).toEqual([]);
  // Under the current form's reading, the older form is an answer in another envelope.
  expect(checkExchange(older, checkContext(readings)).map((violation) => violation.requirement)).toEqual(['CALLS-GET-OK']);
});

test('the published Get Call agrees with the published list on every field both carry', () => {
  const [fetched] = callsIn(exchanges[1]!.exchange);
  const listed = calls.find(({ call, exchange: sent }) => sent.operation === 'listCalls' && call.sessionId === fetched!.call.sessionId)!;
  expect(disagreements(listed, fetched!)).toEqual([]);
});

test('under the open readings (nothing learned yet) the published calls pass too: no reading is assumed', () => {
  for (const { file, exchange: sent } of exchanges) expect(checkExchange(sent, checkContext()), file).toEqual([]);
});

test("under our reference's readings alone, the published calls fail, each naming the reading it follows instead", () => {
  const ours = checkContext({ ...OPEN_READINGS, minutes: ['sum-of-entries'], participantCount: ['entries'] });
  const found = checkExchange(exchanges[0]!.exchange, ours).map((violation) => `${violation.requirement}: ${violation.title}`);
  expect(found).toEqual([
    expect.stringMatching(
      /^CALL-MINUTES-SUM-OVER-PARTICIPANTS: .* follow the call-span reading, while the target's calls follow sum-of-entries$/,
    ),
    expect.stringMatching(/^CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES: .* counts joined-entries, while the target's calls count entries$/),
    expect.stringMatching(/^CALL-MINUTES-SUM-OVER-PARTICIPANTS: .* follow the call-span reading/),
  ]);
});

test('the users a completeness or onBehalfOf check may ask about are the ones who joined, whatever the target reads "took part" as', () => {
  const group = calls.find(({ call }) => call.receiverType === 'group')!;
  expect(participantsUnderEveryReading(group, OPEN_READINGS).sort()).toEqual(['cometchat-uid-2', 'cometchat-uid-8']);
});
