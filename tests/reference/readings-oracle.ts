// The two readings of the call fields the specification leaves open, restated from its words rather
// than taken from the reference's code, for calls as the reference shows them: the reference's own
// (`entries`: minutes summed over the entries, every entry counted) and the deployment's (`deployment`:
// the call's own span in the field of its type, only the joined entries counted).
import { DATA_NOW } from '../../reference/data/directory.ts';
import type { ReferenceReadings } from '../../reference/readings.ts';

export interface CallShown {
  type: string;
  status: string;
  startedAt: number;
  endedAt?: number;
  receiverType: string;
  participants: Array<{ uid: string; isJoined: boolean; totalAudioMinutes: number; totalVideoMinutes: number; leftAt?: number }>;
}

type MinuteField = 'totalAudioMinutes' | 'totalVideoMinutes';

export const fieldOfType = (call: CallShown): MinuteField => (call.type === 'audio' ? 'totalAudioMinutes' : 'totalVideoMinutes');

export const joinedEntries = (call: CallShown) => call.participants.filter((participant) => participant.isJoined);

/** The call's span in minutes: to its end once ended, to the data set's now while ongoing; 0 when it never started or nobody joined. */
function spanMinutes(call: CallShown): number {
  if (joinedEntries(call).length === 0) return 0;
  if (call.status === 'ended') return (call.endedAt! - call.startedAt) / 60;
  if (call.status === 'ongoing') return (DATA_NOW - call.startedAt) / 60;
  return 0;
}

const summedMinutes = (call: CallShown, field: MinuteField) =>
  call.participants.reduce((total, participant) => total + participant[field], 0);

/** The minute fields a call shows when they are its span. */
export function spanTotals(call: CallShown) {
  const span = spanMinutes(call);
  const [audio, video] = call.type === 'audio' ? [span, 0] : [0, span];
  return { totalAudioMinutes: audio, totalVideoMinutes: video, totalDurationInMinutes: audio + video };
}

/** The minute fields a call shows when they are the sums over its entries. */
export function summedTotals(call: CallShown) {
  const [audio, video] = [summedMinutes(call, 'totalAudioMinutes'), summedMinutes(call, 'totalVideoMinutes')];
  return { totalAudioMinutes: audio, totalVideoMinutes: video, totalDurationInMinutes: audio + video };
}

/** The entries totalParticipants counts under the readings. */
export const countedEntries = (call: CallShown, readings: ReferenceReadings) =>
  readings === 'deployment' ? joinedEntries(call) : call.participants;

/** The four fields the readings decide, as a call shows them under the readings. */
export const totalsUnder = (call: CallShown, readings: ReferenceReadings) => ({
  ...(readings === 'deployment' ? spanTotals(call) : summedTotals(call)),
  totalParticipants: countedEntries(call, readings).length,
});
