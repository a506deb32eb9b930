// The checks that hold for every exchange, whatever the test sent: the body is JSON, it matches
// the contract, a list's pagination agrees with itself, its calls have distinct sessionIds, and
// every call in it keeps the invariants, judged under the readings the target follows (Get Call's
// envelope among them).
import type { Contract } from '../../openapi/contract.ts';
import type { Exchange } from '../transport/exchange.ts';
import { callsIn, type SeenCall } from './calls-in.ts';
import { getCallEnvelopeConsistency } from './get-call-envelope.ts';
import { jsonBody } from './json-body.ts';
import { paginationConsistency } from './pagination.ts';
import { responseSchemaConformance } from './response-schema.ts';
import { sessionIdUnique } from './session-ids.ts';
import type { SchemaRequirementIndex } from './schema-requirements.ts';
import { describedPerRequirement, type Violation } from './violation.ts';
import { answerKey, memoryInProcess, REMEMBERED_FROM_CHARS, type AnswerMemory } from './answer-memory.ts';
import type { Readings } from './readings.ts';
import {
  callDurationIsAudioPlusVideo,
  callMinutesSumOverParticipants,
  minutesNotNegative,
  participantDurationIsAudioPlusVideo,
} from './invariants/minutes.ts';
import {
  hasMultiDeviceJoin,
  hasNeverJoined,
  multiDeviceDistinctDevices,
  neverJoinedShape,
  participantsAtMost50,
  totalParticipantsCountsEntries,
} from './invariants/participants.ts';
import { endedNotBeforeStarted, joinedWithinCall, leftNotBeforeJoined, startedNotBeforeInitiated } from './invariants/timestamps.ts';
import { isListedStartedCall, midOnStartedCalls } from './invariants/media-id.ts';
import { recordingEndNotBeforeStart, recordingFields, recordingMeansHasRecording, recordingsIn } from './invariants/recordings.ts';
import { callTotalDurationIsItsDuration, timerJudged } from './invariants/timer.ts';

export interface ExchangeContext {
  contract: Contract;
  schemaRequirements: SchemaRequirementIndex;
  /** The readings the target follows where the specification's words allow several (learned before the tests). */
  readings: Readings;
  /** The target's clock as earlier answers showed it (checks/settling.ts); each answer's own is used beside it. */
  clock?: number;
  /** SETTLE_SECONDS (DEFAULT_SETTLE_SECONDS when not given). */
  settleSeconds?: number;
  /** Where big answers' findings are kept beyond this process: the run's workers share them (answer-memory.ts). */
  answers?: AnswerMemory;
}

/** A call invariant: the requirement it holds, its check, and, where it holds of some calls only, which. */
export interface CallInvariant {
  requirement: string;
  check: (seen: SeenCall, context: ExchangeContext) => Violation[];
  /** For an invariant about something not every call shows: whether this call shows it, and what that is. */
  judges?: { calls: (seen: SeenCall, context: ExchangeContext) => boolean; what: string };
}

const showsRecording = { calls: (seen: SeenCall) => recordingsIn(seen).length > 0, what: 'a call that shows a recording record' };

/** Each call invariant, by the requirement it holds. */
export const CALL_INVARIANTS: readonly CallInvariant[] = [
  { requirement: 'CALL-DURATION-IS-AUDIO-PLUS-VIDEO', check: callDurationIsAudioPlusVideo },
  { requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', check: callMinutesSumOverParticipants },
  { requirement: 'CALL-MINUTES-NOT-NEGATIVE', check: minutesNotNegative },
  { requirement: 'PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO', check: participantDurationIsAudioPlusVideo },
  { requirement: 'CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES', check: totalParticipantsCountsEntries },
  { requirement: 'CALL-PARTICIPANTS-AT-MOST-50', check: participantsAtMost50 },
  {
    requirement: 'PARTICIPANT-NEVER-JOINED-SHAPE',
    check: neverJoinedShape,
    judges: { calls: hasNeverJoined, what: 'a call with a participant that never joined' },
  },
  {
    requirement: 'CALL-MULTI-DEVICE-DISTINCT-DEVICES',
    check: multiDeviceDistinctDevices,
    judges: { calls: hasMultiDeviceJoin, what: 'a call a user joined with several entries' },
  },
  { requirement: 'CALL-STARTED-NOT-BEFORE-INITIATED', check: startedNotBeforeInitiated },
  { requirement: 'CALL-ENDED-NOT-BEFORE-STARTED', check: endedNotBeforeStarted },
  { requirement: 'PARTICIPANT-LEFT-NOT-BEFORE-JOINED', check: leftNotBeforeJoined },
  { requirement: 'PARTICIPANT-JOINED-WITHIN-CALL', check: joinedWithinCall },
  {
    requirement: 'CALL-MID-ON-STARTED-CALLS',
    check: midOnStartedCalls,
    judges: { calls: isListedStartedCall, what: 'a listed call that started' },
  },
  { requirement: 'RECORDING-FIELDS', check: (seen, context) => recordingFields(seen, context.contract), judges: showsRecording },
  { requirement: 'RECORDING-END-NOT-BEFORE-START', check: recordingEndNotBeforeStart, judges: showsRecording },
  { requirement: 'RECORDING-MEANS-HAS-RECORDING', check: recordingMeansHasRecording, judges: showsRecording },
  {
    requirement: 'CALL-TOTAL-DURATION-IS-ITS-DURATION',
    check: callTotalDurationIsItsDuration,
    judges: { calls: timerJudged, what: "an ended call settled on the evidence of the target's clock, with a timer in HH:MM:SS" },
  },
];

export function checkCall(seen: SeenCall, context: ExchangeContext): Violation[] {
  // A loop, not flatMap: the passive judge runs every invariant on every call it sees, and nearly all find nothing.
  const violations: Violation[] = [];
  for (const { check } of CALL_INVARIANTS) {
    const found = check(seen, context);
    if (found.length > 0) violations.push(...found);
  }
  return violations;
}

export function checkExchange(exchange: Exchange, context: ExchangeContext): Violation[] {
  return [...jsonBody(exchange), ...answerFindings(exchange, context)];
}

/**
 * What the answer's body shows, judged: its schema, its envelope and pagination, its calls. Every
 * entry of every call is judged; what one answer breaks of one requirement is described at most
 * DESCRIBED_PER_REQUIREMENT times and counted beyond (violation.ts), so every test that meets a page
 * of 100,000 broken entries keeps a few violations of it, not 100,000.
 */
function judgeAnswer(exchange: Exchange, context: ExchangeContext): Violation[] {
  return describedPerRequirement([
    ...responseSchemaConformance(exchange, context),
    ...getCallEnvelopeConsistency(exchange, context),
    ...paginationConsistency(exchange),
    ...sessionIdUnique(exchange),
    ...callsIn(exchange).flatMap((seen) => checkCall(seen, context)),
  ]);
}

/**
 * A big answer is judged once per context and memory (answer-memory.ts): what judgeAnswer reads of
 * an exchange is its operation, its status and its body, parsed from its text, so an answer met
 * again is found to break what it broke before, now shown by the exchange that carried it.
 */
const inProcess = new WeakMap<ExchangeContext, AnswerMemory>();

function answerFindings(exchange: Exchange, context: ExchangeContext): Violation[] {
  if (exchange.response.text.length < REMEMBERED_FROM_CHARS) return judgeAnswer(exchange, context);
  let memory = inProcess.get(context);
  if (!memory) inProcess.set(context, (memory = memoryInProcess(context.answers)));
  const { answers: _answers, contract: _contract, schemaRequirements: _schemaRequirements, ...judgedBy } = context;
  const key = answerKey(exchange, judgedBy);
  const found = memory.recall(key);
  if (found !== undefined) return found.map((violation) => ({ ...violation, exchange }));
  const violations = judgeAnswer(exchange, context);
  // Only what is this exchange's own can be handed to the next one; anything else is not remembered.
  if (violations.every((violation) => violation.exchange === exchange))
    memory.keep(
      key,
      violations.map(({ exchange: _exchange, ...violation }) => violation),
    );
  return violations;
}
