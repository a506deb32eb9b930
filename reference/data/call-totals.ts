// A call's minute totals and its count of participants, by the readings the server follows
// (../readings.ts): the one place where the two readings differ. Participants' own minutes are the
// same under both, each entry's own time in the call, so the totals are computed from the entries.
import type { CallStatus, CallType, Participant } from '../model.ts';
import type { ReferenceReadings } from '../readings.ts';
import { DATA_NOW } from './directory.ts';

export interface Minutes {
  audio: number;
  video: number;
}

/** What a call's totals are computed from: its type, status, times and participant entries. */
export interface CallForTotals {
  type: CallType;
  status: CallStatus;
  startedAt: number;
  endedAt?: number;
  participants: ReadonlyArray<Pick<Participant, 'isJoined' | 'totalAudioMinutes' | 'totalVideoMinutes'>>;
}

/** `now` is the moment an ongoing call is measured up to: the data set's now, or a living reference's clock (../live/). */
export const callMinutes = (readings: ReferenceReadings, call: CallForTotals, now = DATA_NOW): Minutes =>
  readings === 'deployment' ? minutesOfCallSpan(call, now) : minutesSummedOverEntries(call.participants);

/** The entries totalParticipants counts: every one under `entries`, the joined ones under `deployment` (each device still one). */
export const countedEntries = <Entry extends { isJoined?: unknown }>(
  readings: ReferenceReadings,
  participants: readonly Entry[],
): readonly Entry[] => (readings === 'deployment' ? participants.filter((participant) => participant.isJoined === true) : participants);

/** The `sum-of-entries` reading: the sums of the entries' own minutes. */
export function minutesSummedOverEntries(participants: CallForTotals['participants']): Minutes {
  // A loop rather than map and reduce: it runs for every call the server indexes at start-up.
  let audio = 0;
  let video = 0;
  for (const participant of participants) {
    audio += participant.totalAudioMinutes;
    video += participant.totalVideoMinutes;
  }
  return { audio, video };
}

/**
 * The `call-span` reading, the deployment's: the call's own span in the field of its type, up to
 * its end, or up to `now` (the data set's now by default) while it is ongoing. A call that never
 * started, or that nobody joined, has 0 minutes.
 */
export function minutesOfCallSpan(call: CallForTotals, now = DATA_NOW): Minutes {
  const until = call.status === 'ended' ? call.endedAt : call.status === 'ongoing' ? now : undefined;
  const minutes = until === undefined || !call.participants.some((participant) => participant.isJoined) ? 0 : (until - call.startedAt) / 60;
  return call.type === 'audio' ? { audio: minutes, video: 0 } : { audio: 0, video: minutes };
}
