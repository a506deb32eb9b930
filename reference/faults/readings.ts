// Faults in what the specification leaves to a reading (../readings.ts): call minutes that fit
// neither the sum over the entries nor the call's span, counts that fit neither every entry nor the
// joined ones, and targets that follow one reading for 1:1 calls and the other for group calls. A
// suite that accepts either reading must still catch them, so they run under both of the reference's.
import { NO_FAULT, type Fault, type ShownCall } from './fault.ts';
import type { CallRow } from '../data/generate.ts';
import { allRows, pageOfRows } from './list-rows.ts';
import { participantsOf } from './shown.ts';
import { countedEntries, minutesOfCallSpan, minutesSummedOverEntries, type CallForTotals, type Minutes } from '../data/call-totals.ts';
import { REFERENCE_READINGS } from '../readings.ts';

/** A fault runs alone, so the call it rewrites is the reference's own, with every field the totals are computed from. */
const asCall = (call: ShownCall) => call as unknown as CallForTotals;

const withMinutes = (call: ShownCall, { audio, video }: Minutes): ShownCall => ({
  ...call,
  totalAudioMinutes: audio,
  totalVideoMinutes: video,
  totalDurationInMinutes: audio + video,
});

export const READING_FAULTS: Fault[] = [
  {
    name: 'call-minutes-fit-neither-reading',
    description:
      "Ended calls that someone joined show one minute more than they should, fitting neither the sum over their entries nor the call's span.",
    requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => {
        if (call.status !== 'ended' || !participantsOf(call).some((participant) => participant.isJoined === true)) return call;
        const field = call.type === 'audio' ? 'totalAudioMinutes' : 'totalVideoMinutes';
        return { ...call, [field]: Number(call[field]) + 1, totalDurationInMinutes: Number(call.totalDurationInMinutes) + 1 };
      },
    }),
  },
  {
    name: 'call-minutes-readings-mixed',
    description:
      "One-to-one calls show the call's span as their minutes and group calls the sum over their entries, whatever the server's reading.",
    requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) =>
        withMinutes(
          call,
          call.receiverType === 'group' ? minutesSummedOverEntries(asCall(call).participants) : minutesOfCallSpan(asCall(call)),
        ),
    }),
  },
  {
    name: 'total-participants-fits-neither-count',
    description:
      'Group calls count their initiator twice: totalParticipants is the number of entries plus one, neither every entry nor the joined ones.',
    requirements: ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => (call.receiverType === 'group' ? { ...call, totalParticipants: participantsOf(call).length + 1 } : call),
    }),
  },
  {
    name: 'total-participants-readings-mixed',
    description:
      "Group calls' totalParticipants counts every entry and one-to-one calls' only the joined ones, whatever the server's reading.",
    requirements: ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => ({
        ...call,
        totalParticipants: countedEntries(call.receiverType === 'group' ? 'entries' : 'deployment', participantsOf(call)).length,
      }),
    }),
  },
  {
    name: 'participants-count-mixes-readings',
    description:
      'participantsCount=n returns the group calls of n entries of any kind but the one-to-one calls of n joined entries: no one count for the filter.',
    requirements: ['CALLS-LIST-FILTER-PARTICIPANTS-COUNT'],
    // Under the deployment's readings the clean filter counts joined entries, so only group calls
    // change; under the `entries` reading it is run as no fault, to keep one fault of one reading.
    readings: ['deployment'],
    hooks: ({ store, readings }) =>
      readings === 'entries'
        ? NO_FAULT
        : {
            listRows: (filters, page, perPage, next) => {
              const { participantsCount, ...others } = filters;
              if (participantsCount === undefined) return next(filters, page, perPage);
              const counted = (row: CallRow) => {
                const { participants } = store.materialize(row).call;
                return row.receiverType === 'group' ? participants.length : participants.filter((entry) => entry.isJoined).length;
              };
              return pageOfRows(
                allRows(next, others).filter((row) => counted(row) === participantsCount),
                page,
                perPage,
              );
            },
          },
  },
];
