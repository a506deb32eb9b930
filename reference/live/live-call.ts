// One call of the living reference: call number n of those logged while the server runs. It is
// planned once, from its own random streams like the data set's calls (../data/calls.ts): who,
// when it is logged, how long it rings, how it ends, how long it lasts, who joins when, its
// recordings. What it shows at a moment is then a pure function of the plan and that moment, so
// every answer computed at one moment agrees with every other, and nothing is kept to race on.
// Some of a call settles after it ends, as a deployment's recording pipeline and billing tally finish
// seconds later (./settle-delay.ts): its recording shows only from a drawn delay after the end, and
// its minutes stand at the last tally until another. Both are drawn into the plan, so the state at a
// moment stays a pure function of the plan and the moment.
import type { Call, CallMode, CallStatus, CallType, Participant, Recording, StoredCall } from '../model.ts';
import type { CallSource } from '../data/calls.ts';
import { generateRecordings, MAX_PARTICIPANT_ENTRIES, mix, neverJoined, pickOther, timer, uuidFrom, weighted } from '../data/calls.ts';
import { callMinutes, countedEntries } from '../data/call-totals.ts';
import { createRandom } from '../data/random.ts';
import { DATA_NOW } from '../data/directory.ts';
import type { SettleDelay } from './settle-delay.ts';

/** How a live call ends: answered (it is then ongoing, and ended), or not answered in one of three ways. */
type Outcome = 'ended' | 'unanswered' | 'rejected' | 'canceled';
const OUTCOME_WEIGHTS: ReadonlyArray<[Outcome, number]> = [
  ['ended', 70],
  ['unanswered', 12],
  ['rejected', 9],
  ['canceled', 9],
];
/** A few seconds of ringing, then seconds to a minute or so of call: a run of ten seconds sees calls move. */
const RING_SECONDS: readonly [number, number] = [2, 8];
const TALK_SECONDS: readonly [number, number] = [4, 70];
/** No live call rings and talks for longer than this after it is logged; its late fields settle within the settle delay after. */
export const LONGEST_LIVE_CALL_SECONDS = RING_SECONDS[1] + TALK_SECONDS[1];
/** Distinct from the data set's salts, so that a live call's streams are not a data set call's. */
const LIVE_SALT = 0x2c1b3c6d;
/** The settling delays come from a stream of their own: drawing them changed no draw of the other two, so every call is as it was. */
const SETTLE_SALT = 0x68e31da4;

interface PlannedEntry {
  uid: string;
  /** When the entry joins and leaves (at most the call's end); both absent for an invitee who never joins. */
  joinAt?: number;
  leaveAt?: number;
  refusal?: 'unanswered' | 'rejected';
  /** Another device of a user already in the call: the entry is absent until it joins. */
  extraDevice: boolean;
  deviceId?: string;
  mid?: string;
}

export interface LivePlan {
  number: number;
  sessionId: string;
  type: CallType;
  mode: CallMode;
  group: boolean;
  receiver: string;
  initiator: string;
  invitees: readonly string[];
  initiatedAt: number;
  /** When the ringing stops: the call is answered (it starts) or ends unanswered, rejected or canceled. */
  answerAt: number;
  outcome: Outcome;
  /** When the call ends: answerAt for a call not answered. */
  endAt: number;
  /** The entries of an answered call. */
  entries: readonly PlannedEntry[];
  mid?: string;
  /** The recordings an answered call shows once they have settled (none for most). */
  recordings: readonly Recording[];
  /** When the recordings (and hasRecording true) show: endAt plus a delay drawn in the settle delay. */
  recordingsAt: number;
  /** When the final minutes show: until then an ended call shows its last tally (tallyAt). endAt plus a drawn delay. */
  totalsAt: number;
}

/**
 * The UNIX second at which live call `number` (from 1) is logged: the first whole second at or after
 * DATA_NOW + number / rate. The epsilon keeps a rate such as 0.2 from logging call 3 at 15.000…02 s.
 */
export const loggedAt = (number: number, rate: number): number => DATA_NOW + Math.ceil(number / rate - 1e-9);

/** How many live calls are logged by `now`: the largest number logged at or before it. */
export function loggedBy(now: number, rate: number): number {
  let count = Math.max(0, Math.floor((now - DATA_NOW) * rate) + 2);
  while (count > 0 && loggedAt(count, rate) > now) count -= 1;
  return count;
}

export function planLiveCall(
  source: CallSource,
  rate: number,
  number: number,
  withIdentifiers: boolean,
  settleDelay: SettleDelay,
): LivePlan {
  const random = createRandom(mix(source.seed ^ LIVE_SALT, number));
  const ids = createRandom(mix(source.seed ^ LIVE_SALT ^ 0x5bd1e995, number));
  const settling = createRandom(mix(source.seed ^ LIVE_SALT ^ SETTLE_SALT, number));
  const uuid = withIdentifiers ? () => uuidFrom(ids) : () => undefined;
  const outcome = weighted(random, OUTCOME_WEIGHTS);
  const group = random.chance(0.4) ? random.pick(source.groupsWithCallers) : undefined;
  const type = random.pick(['audio', 'video'] as const);
  const mode: CallMode = group ? random.pick(['call', 'meet', 'presenter'] as const) : random.chance(0.8) ? 'call' : 'meet';
  const initiator = group ? random.pick(group.members) : random.pick(source.uids);
  const receiver = group ? group.guid : pickOther(random, source.uids, initiator);
  const invitees = group
    ? random.sample(
        group.members.filter((uid) => uid !== initiator),
        random.int(1, Math.min(group.members.length - 1, MAX_PARTICIPANT_ENTRIES - 1)),
      )
    : [receiver];
  const initiatedAt = loggedAt(number, rate);
  const answerAt = initiatedAt + random.int(...RING_SECONDS);
  const answered = outcome === 'ended';
  const endAt = answered ? answerAt + random.int(...TALK_SECONDS) : answerAt;
  // The identifiers the index needs come first from the ids stream, the optional ones after.
  const sessionId = `v1.us.${ids.hex(14)}.${initiatedAt}${ids.hex(40)}`;
  const mid = answered ? uuid() : undefined;

  const entries: PlannedEntry[] = [];
  const join = (uid: string, joinAt: number, extraDevice: boolean) => {
    const leaveAt = random.chance(0.3) ? joinAt + random.int(0, endAt - joinAt) : endAt;
    entries.push({ uid, joinAt, leaveAt, extraDevice, deviceId: uuid(), mid: uuid() });
  };
  if (answered) {
    // The initiator stays to the end, so an ongoing call always has someone in it.
    entries.push({ uid: initiator, joinAt: answerAt, leaveAt: endAt, extraDevice: false, deviceId: uuid(), mid: uuid() });
    for (const uid of invitees) {
      if (entries.length >= MAX_PARTICIPANT_ENTRIES) break;
      if (!group || random.chance(0.75)) {
        // The receiver of a 1:1 call answers it; a group's members join during its first half.
        const joinAt = group ? answerAt + random.int(0, Math.floor((endAt - answerAt) / 2)) : answerAt;
        join(uid, joinAt, false);
        if (group && entries.length < MAX_PARTICIPANT_ENTRIES && random.chance(0.12))
          join(uid, Math.min(endAt, joinAt + random.int(0, 60)), true);
      } else {
        entries.push({ uid, refusal: random.chance(0.3) ? 'rejected' : 'unanswered', extraDevice: false });
      }
    }
  }
  const recordings = answered && random.chance(0.3) ? generateRecordings(random, ids, sessionId, answerAt, endAt) : [];
  // Both drawn for every call, whatever it shows, so that a call's delays do not depend on its outcome.
  const recordingsAt = endAt + settling.int(...settleDelay);
  const totalsAt = endAt + settling.int(...settleDelay);
  return {
    number,
    sessionId,
    type,
    mode,
    group: group !== undefined,
    receiver,
    initiator,
    invitees,
    initiatedAt,
    answerAt,
    outcome,
    endAt,
    entries,
    ...(mid !== undefined && { mid }),
    recordings,
    recordingsAt,
    totalsAt,
  };
}

/** The call as it shows at `now` (not before it is logged), with the readings the server follows. */
export function liveCallAt(plan: LivePlan, now: number, readings: CallSource['readings']): StoredCall {
  const ringing = now < plan.answerAt;
  const status: CallStatus = ringing ? 'initiated' : plan.outcome !== 'ended' ? plan.outcome : now < plan.endAt ? 'ongoing' : 'ended';
  const started = status === 'ongoing' || status === 'ended';
  const startedAt = started ? plan.answerAt : plan.initiatedAt;
  const endedAt = ringing || status === 'ongoing' ? undefined : plan.endAt;
  const tally = tallyAt(plan, status, now);
  // A call not answered (yet) lists who was called, as the data set's calls do.
  const participants = started
    ? plan.entries.flatMap((entry) => entryAt(entry, now, tally, plan))
    : [
        neverJoined(plan.initiator, 'ended'),
        ...plan.invitees.map((uid) => neverJoined(uid, status === 'rejected' ? 'rejected' : 'unanswered')),
      ];
  const { audio, video } = callMinutes(readings, { type: plan.type, status, startedAt, endedAt, participants }, now);
  // The recording and hasRecording true arrive together, once the pipeline has made it.
  const recordings = status === 'ended' && now >= plan.recordingsAt ? plan.recordings.map((recording) => ({ ...recording })) : [];
  const call: Call = {
    sessionId: plan.sessionId,
    type: plan.type,
    mode: plan.mode,
    receiverType: plan.group ? 'group' : 'user',
    receiver: plan.receiver,
    initiator: plan.initiator,
    status,
    totalAudioMinutes: audio,
    totalVideoMinutes: video,
    totalDurationInMinutes: audio + video,
    totalDuration: timer(started ? timerUntil(readings, endedAt, tally) - startedAt : 0),
    totalParticipants: countedEntries(readings, participants).length,
    hasRecording: recordings.length > 0,
    initiatedAt: plan.initiatedAt,
    startedAt,
    ...(endedAt !== undefined && { endedAt }),
    ...(started && plan.mid !== undefined && { mid: plan.mid }),
    participants,
  };
  return { call, recordings };
}

/** The moment from which the call shows the same at every moment: its end, and then its late fields settled. */
export const settledAt = (plan: LivePlan): number => Math.max(plan.endAt, plan.recordingsAt, plan.totalsAt);

/**
 * The moment a call's minutes count up to at `now`: now while it runs; once it has ended, the last
 * tally until the final one (totalsAt). The last tally is its last ongoing second, what an answer a
 * second before its end showed, so that minutes only ever grow: from the ongoing call's, to the
 * last tally's, to the final.
 */
function tallyAt(plan: LivePlan, status: CallStatus, now: number): number {
  return status === 'ended' && now < plan.totalsAt ? plan.endAt - 1 : now;
}

/**
 * Where the call's timer stops: at its tally under the reference's readings, as its minutes summed
 * over the entries do; under the deployment's, its minutes are its span, known from endedAt the
 * moment it ends, and its timer says the same span.
 */
const timerUntil = (readings: CallSource['readings'], endedAt: number | undefined, tally: number): number =>
  readings === 'deployment' && endedAt !== undefined ? endedAt : Math.min(tally, endedAt ?? tally);

/**
 * An entry of an answered call at `now`: not joined yet (an extra device is not listed until it
 * joins), in the call, or gone. Its minutes count up to the call's tally; an entry still in the call
 * when it ended shows its leftAt with the final tally, the moment the pipeline closes it.
 */
function entryAt(entry: PlannedEntry, now: number, tally: number, plan: LivePlan): Participant[] {
  if (entry.joinAt === undefined) return [neverJoined(entry.uid, entry.refusal ?? 'unanswered')];
  if (now < entry.joinAt) return entry.extraDevice ? [] : [neverJoined(entry.uid, 'unanswered')];
  const left = entry.leaveAt! <= now;
  const closed = left && (entry.leaveAt! < plan.endAt || now >= plan.totalsAt);
  const minutes = (Math.max(entry.joinAt, Math.min(tally, entry.leaveAt!)) - entry.joinAt) / 60;
  const audio = plan.type === 'audio' ? minutes : 0;
  const video = plan.type === 'video' ? minutes : 0;
  return [
    {
      uid: entry.uid,
      totalAudioMinutes: audio,
      totalVideoMinutes: video,
      totalDurationInMinutes: audio + video,
      totalDuration: audio + video,
      ...(entry.deviceId !== undefined && { deviceId: entry.deviceId }),
      isJoined: true,
      joinedAt: entry.joinAt,
      ...(closed && { leftAt: entry.leaveAt }),
      ...(entry.mid !== undefined && { mid: entry.mid }),
      state: left ? 'ended' : 'ongoing',
    },
  ];
}
