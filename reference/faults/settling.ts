// Faults a suite that lets late fields settle must still catch (core/checks/settling.ts: between
// two answers about a call not yet settled, hasRecording, a recording, minutes and leftAt may only
// arrive or grow; about a call settled on evidence, nothing may differ). A recording that goes again,
// a hasRecording that claims one no answer holds, and minutes that still move on calls long settled
// are not a pipeline running late: each disagrees with the list in a way settling cannot explain.
import type { Fault, ShownCall } from './fault.ts';
import { participantsOf, without, withParticipants } from './shown.ts';
import { callMinutes, type CallForTotals } from '../data/call-totals.ts';
import { DATA_NOW } from '../data/directory.ts';
import { REFERENCE_READINGS } from '../readings.ts';

/**
 * A call that ended this long before the data set's now has settled on any evidence: the suite's own
 * window (DEFAULT_SETTLE_SECONDS). The standing data set's ended calls all ended long before it.
 */
const LONG_SETTLED_SECONDS = 300;

const endedLongAgo = (call: ShownCall) =>
  call.status === 'ended' && typeof call.endedAt === 'number' && call.endedAt <= DATA_NOW - LONG_SETTLED_SECONDS;

/** Minutes rounded to the whole minute, up or down, the way a billing job that re-tallies old calls rounds them. */
function roundedEntries(call: ShownCall): ShownCall {
  return withParticipants(call, (participant) => {
    if (participant.isJoined !== true) return participant;
    const audio = Math.round(Number(participant.totalAudioMinutes));
    const video = Math.round(Number(participant.totalVideoMinutes));
    return {
      ...participant,
      totalAudioMinutes: audio,
      totalVideoMinutes: video,
      totalDurationInMinutes: audio + video,
      totalDuration: audio + video,
    };
  });
}

export const SETTLING_FAULTS: Fault[] = [
  {
    name: 'recording-disappears',
    description:
      'Get Call answers hasRecording false and no recording on calls whose recording List Calls shows: a retention job deleted it from the store Get Call reads.',
    requirements: ['CALLS-GET-MATCHES-LIST'],
    hooks: () => ({
      showCall: (call, where) =>
        where === 'get' && call.hasRecording === true ? { ...without(call, 'recordings'), hasRecording: false } : call,
    }),
  },
  {
    name: 'has-recording-without-recording',
    description:
      'Get Call answers hasRecording true, with no recording, on ended calls that have none (it reads whether recording was switched on), while List Calls says false.',
    requirements: ['CALLS-GET-MATCHES-LIST'],
    hooks: () => ({
      showCall: (call, where) =>
        where === 'get' && call.status === 'ended' && call.hasRecording === false && call.recordings === undefined
          ? { ...call, hasRecording: true }
          : call,
    }),
  },
  {
    name: 'minutes-change-after-settled',
    description:
      "Get Call answers calls that ended long ago with each entry's minutes rounded to whole minutes (up or down, its totals added up anew), while List Calls answers them exact.",
    requirements: ['CALLS-GET-MATCHES-LIST'],
    // The call's totals are recomputed by the server's readings, so that only the agreement breaks:
    // under the deployment's they are its span and stay, and the entries' minutes alone move.
    readings: REFERENCE_READINGS,
    hooks: ({ readings }) => ({
      showCall: (call, where) => {
        if (where !== 'get' || !endedLongAgo(call) || participantsOf(call).length === 0) return call;
        const rounded = roundedEntries(call);
        const { audio, video } = callMinutes(readings, rounded as unknown as CallForTotals);
        return { ...rounded, totalAudioMinutes: audio, totalVideoMinutes: video, totalDurationInMinutes: audio + video };
      },
    }),
  },
];
