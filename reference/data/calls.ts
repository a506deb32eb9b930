// Calls of every type, mode, status and receiver type, with participants who joined (some from
// several devices), never joined, or rejected, and recordings. Every call is consistent with the
// specification: minutes add up, timers match, timestamps are ordered, at most 50 entries. The
// call's totals follow the readings of the source (../readings.ts); nothing else depends on them.
import type { Call, CallMode, CallStatus, Group, Participant, ParticipantState, Recording, StoredCall } from '../model.ts';
import type { ReferenceReadings } from '../readings.ts';
import { createRandom, type Random } from './random.ts';
import { DATA_EPOCH, DATA_NOW, DATA_SPAN_SECONDS, type Directory } from './directory.ts';
import { callMinutes, countedEntries } from './call-totals.ts';

export const MAX_PARTICIPANT_ENTRIES = 50;

const STATUS_WEIGHTS: ReadonlyArray<[CallStatus, number]> = [
  ['ended', 50],
  ['unanswered', 12],
  ['rejected', 10],
  ['canceled', 10],
  ['ongoing', 9],
  ['initiated', 9],
];

export interface CallSource {
  seed: number;
  readings: ReferenceReadings;
  uids: readonly string[];
  groupsWithCallers: readonly Group[];
}

export function callSource(seed: number, directory: Directory, readings: ReferenceReadings): CallSource {
  return {
    seed,
    readings,
    uids: directory.users.map((user) => user.uid),
    groupsWithCallers: directory.groups.filter((group) => group.members.length >= 2),
  };
}

/**
 * Call number `index` of the data set, generated from its own random streams so that any call can
 * be rebuilt alone: the store indexes calls without keeping them, and materialises a page on demand.
 * Structure (who, when, how long) and identifiers (deviceId, mid, rid) come from separate streams,
 * so `withIdentifiers: false` yields the same call without the costly random strings.
 */
export function generateCall(source: CallSource, index: number, withIdentifiers: boolean): StoredCall {
  const random = createRandom(mix(source.seed, index));
  const ids = createRandom(mix(source.seed ^ 0x5bd1e995, index));
  // The first calls walk through every status and receiver type so that even a handful covers them.
  const status = index < 12 ? STATUS_WEIGHTS[index % 6]![0] : weighted(random, STATUS_WEIGHTS);
  const toGroup = index < 12 ? index >= 6 : random.chance(0.4);
  const group = toGroup ? random.pick(source.groupsWithCallers) : undefined;
  const plan = { status, group, uids: source.uids, index, readings: source.readings };
  const uuid = withIdentifiers ? () => uuidFrom(ids) : () => undefined;
  const sessionId = `v1.us.${ids.hex(14)}`; // completed below with initiatedAt, as the deployment does
  return buildCall(random, plan, sessionId, ids, uuid);
}

interface CallPlan {
  status: CallStatus;
  group: Group | undefined;
  uids: readonly string[];
  index: number;
  readings: ReferenceReadings;
}

interface CallParties {
  type: Call['type'];
  mode: CallMode;
  initiator: string;
  receiver: string;
  invitees: readonly string[];
}

interface CallTimes {
  started: boolean;
  initiatedAt: number;
  startedAt: number;
  endedAt: number | undefined;
  /** When the call's participants stop counting: its end, or now while it runs. */
  until: number;
}

// The draws from `random` happen in a fixed order (parties, times, participants, recordings): each
// seed's data must stay the same, so that order is part of the data.
function buildCall(random: Random, plan: CallPlan, sessionPrefix: string, ids: Random, uuid: () => string | undefined): StoredCall {
  const parties = pickParties(random, plan);
  const times = pickTimes(random, plan.status);
  // Identifiers that the index needs come first from the ids stream, the optional ones after.
  const sessionId = `${sessionPrefix}.${times.initiatedAt}${ids.hex(40)}`;
  const callMid = times.started ? uuid() : undefined;
  const participants = times.started ? joinedParticipants(random, uuid, plan, parties, times) : unstartedParticipants(plan.status, parties);
  const { endedAt, startedAt } = times;
  const recordings = plan.status === 'ended' && random.chance(0.3) ? generateRecordings(random, ids, sessionId, startedAt, endedAt!) : [];
  const call = assembleCall(plan, parties, times, participants, { sessionId, callMid, hasRecording: recordings.length > 0 });
  return { call, recordings };
}

function pickParties(random: Random, plan: CallPlan): CallParties {
  const { group } = plan;
  const type = plan.index < 2 ? (['audio', 'video'] as const)[plan.index]! : random.pick(['audio', 'video'] as const);
  const mode = pickMode(random, plan);
  const initiator = group ? random.pick(group.members) : random.pick(plan.uids);
  const receiver = group ? group.guid : pickOther(random, plan.uids, initiator);
  const invitees = group
    ? random.sample(
        group.members.filter((uid) => uid !== initiator),
        random.int(1, Math.min(group.members.length - 1, 49)),
      )
    : [receiver];
  return { type, mode, initiator, receiver, invitees };
}

function pickMode(random: Random, plan: CallPlan): CallMode {
  if (!plan.group) return random.chance(0.8) ? 'call' : 'meet';
  return plan.index < 9 ? (['call', 'meet', 'presenter'] as const)[plan.index % 3]! : random.pick(['call', 'meet', 'presenter'] as const);
}

function pickTimes(random: Random, status: CallStatus): CallTimes {
  const started = status === 'ongoing' || status === 'ended';
  const initiatedAt =
    status === 'ongoing' || status === 'initiated'
      ? DATA_NOW - random.int(started ? 120 : 5, started ? 7200 : 60)
      : DATA_EPOCH + random.int(0, DATA_SPAN_SECONDS - 2 * 86_400);
  const ringSeconds = random.int(1, 30);
  const startedAt = started ? initiatedAt + ringSeconds : initiatedAt;
  const endedAt =
    status === 'ended'
      ? startedAt + random.int(10, 7200)
      : status === 'ongoing' || status === 'initiated'
        ? undefined
        : initiatedAt + ringSeconds;
  return { started, initiatedAt, startedAt, endedAt, until: endedAt ?? DATA_NOW };
}

function joinedParticipants(
  random: Random,
  uuid: () => string | undefined,
  plan: CallPlan,
  parties: CallParties,
  times: CallTimes,
): Participant[] {
  const { group, status } = plan;
  const { type } = parties;
  const { startedAt, until } = times;
  const participants: Participant[] = [joined(random, uuid, parties.initiator, type, startedAt, until, status)];
  for (const uid of parties.invitees) {
    if (participants.length >= MAX_PARTICIPANT_ENTRIES) break;
    if (!group || random.chance(0.75)) {
      const joinedAt = startedAt + random.int(0, Math.max(0, Math.floor((until - startedAt) / 4)));
      participants.push(joined(random, uuid, uid, type, joinedAt, until, status));
      // Another device of the same user: a separate participant entry (spec 1.6).
      if (group && participants.length < MAX_PARTICIPANT_ENTRIES && random.chance(0.12)) {
        participants.push(joined(random, uuid, uid, type, Math.min(until, joinedAt + random.int(0, 60)), until, status));
      }
    } else {
      participants.push(neverJoined(uid, random.chance(0.3) ? 'rejected' : 'unanswered'));
    }
  }
  return participants;
}

function unstartedParticipants(status: CallStatus, parties: CallParties): Participant[] {
  const inviteeState: ParticipantState = status === 'rejected' ? 'rejected' : 'unanswered';
  return [neverJoined(parties.initiator, 'ended'), ...parties.invitees.map((uid) => neverJoined(uid, inviteeState))];
}

function assembleCall(
  plan: CallPlan,
  parties: CallParties,
  times: CallTimes,
  participants: Participant[],
  extra: { sessionId: string; callMid: string | undefined; hasRecording: boolean },
): Call {
  const { status, group, readings } = plan;
  const { type, mode, receiver, initiator } = parties;
  const { started, initiatedAt, startedAt, endedAt, until } = times;
  const { audio: totalAudioMinutes, video: totalVideoMinutes } = callMinutes(readings, { type, status, startedAt, endedAt, participants });
  return {
    sessionId: extra.sessionId,
    type,
    mode,
    receiverType: group ? 'group' : 'user',
    receiver,
    initiator,
    status,
    totalAudioMinutes,
    totalVideoMinutes,
    totalDurationInMinutes: totalAudioMinutes + totalVideoMinutes,
    totalDuration: timer(started ? until - startedAt : 0),
    totalParticipants: countedEntries(readings, participants).length,
    hasRecording: extra.hasRecording,
    initiatedAt,
    startedAt,
    ...(endedAt !== undefined && { endedAt }),
    ...(extra.callMid !== undefined && { mid: extra.callMid }),
    participants,
  };
}

function joined(
  random: Random,
  uuid: () => string | undefined,
  uid: string,
  type: Call['type'],
  joinedAt: number,
  until: number,
  status: CallStatus,
): Participant {
  const deviceId = uuid();
  const mid = uuid();
  const stillIn = status === 'ongoing' && random.chance(0.7);
  const leftAt = stillIn ? undefined : joinedAt + random.int(0, until - joinedAt);
  const minutes = ((leftAt ?? DATA_NOW) - joinedAt) / 60;
  const audio = type === 'audio' ? minutes : 0;
  const video = type === 'video' ? minutes : 0;
  return {
    uid,
    totalAudioMinutes: audio,
    totalVideoMinutes: video,
    totalDurationInMinutes: audio + video,
    totalDuration: audio + video,
    ...(deviceId !== undefined && { deviceId }),
    isJoined: true,
    joinedAt,
    ...(leftAt !== undefined && { leftAt }),
    ...(mid !== undefined && { mid }),
    state: stillIn ? 'ongoing' : 'ended',
  };
}

export function neverJoined(uid: string, state: ParticipantState): Participant {
  return { uid, totalAudioMinutes: 0, totalVideoMinutes: 0, totalDurationInMinutes: 0, totalDuration: 0, isJoined: false, state };
}

export function generateRecordings(random: Random, ids: Random, sessionId: string, startedAt: number, endedAt: number): Recording[] {
  const count = random.int(1, 2);
  const recordings: Recording[] = [];
  let from = startedAt;
  for (let i = 0; i < count && from < endedAt; i += 1) {
    const startTime = from + random.int(0, Math.floor((endedAt - from) / 2));
    const endTime = startTime + random.int(0, endedAt - startTime);
    const rid = `rec-${ids.hex(16)}`;
    const recording_url = `https://recordings.reference.invalid/${sessionId}/${rid}.mp4`;
    recordings.push({ rid, duration: (endTime - startTime) / 60, startTime, endTime, recording_url });
    from = endTime;
  }
  return recordings;
}

export function timer(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

export function weighted<T>(random: Random, weights: ReadonlyArray<[T, number]>): T {
  let roll = random.next() * weights.reduce((total, [, weight]) => total + weight, 0);
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weights[weights.length - 1]![0];
}

export function pickOther(random: Random, uids: readonly string[], not: string): string {
  let uid = random.pick(uids);
  while (uid === not) uid = random.pick(uids);
  return uid;
}

/** Mixes the seed and a call's index into the seed of that call's own stream (murmur3's finaliser). */
export function mix(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ index;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export const uuidFrom = (random: Random) => {
  const h = random.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
