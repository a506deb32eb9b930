// Faults in what a call's fields say together: sums, counts and the order of its timestamps. The
// ones on a call's minutes and counts run under both readings (../readings.ts), and those that
// recompute a count recompute it by the server's readings, so that they break only what they say.
import type { Fault, ShownCall } from './fault.ts';
import { participantsOf, recordingsOf, withParticipants, withRecordings } from './shown.ts';
import { REFERENCE_READINGS } from '../readings.ts';
import { timer } from '../data/calls.ts';
import { countedEntries } from '../data/call-totals.ts';

const number = (value: unknown) => (typeof value === 'number' ? value : 0);

export const INVARIANT_FAULTS: Fault[] = [
  {
    name: 'duration-leaves-out-video',
    description: "A video call's totalDurationInMinutes counts its audio minutes only.",
    requirements: ['CALL-DURATION-IS-AUDIO-PLUS-VIDEO'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) =>
        call.type === 'video' && number(call.totalVideoMinutes) > 0 ? { ...call, totalDurationInMinutes: call.totalAudioMinutes } : call,
    }),
  },
  {
    name: 'minutes-of-initiator-only',
    description:
      "A group call's audio and video totals are only its initiator's own minutes, which fit neither reading unless no one else joined (the sum) or the initiator stayed to the end (the span).",
    requirements: ['CALL-MINUTES-SUM-OVER-PARTICIPANTS'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => {
        const first = participantsOf(call)[0];
        if (call.receiverType !== 'group' || !first) return call;
        const audio = number(first.totalAudioMinutes);
        const video = number(first.totalVideoMinutes);
        return { ...call, totalAudioMinutes: audio, totalVideoMinutes: video, totalDurationInMinutes: audio + video };
      },
    }),
  },
  {
    name: 'negative-minutes-for-rejections',
    description: 'Participants who rejected the call show -1 audio minutes (and -1 in total), a sentinel leaking out.',
    requirements: ['CALL-MINUTES-NOT-NEGATIVE'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          participant.state === 'rejected'
            ? { ...participant, totalAudioMinutes: -1, totalDurationInMinutes: -1, totalDuration: -1 }
            : participant,
        ),
    }),
  },
  {
    name: 'total-participants-counts-users',
    description:
      'totalParticipants counts distinct users among the entries it counts, so a user on two devices counts once though listed twice.',
    requirements: ['CALL-TOTAL-PARTICIPANTS-COUNTS-ENTRIES'],
    readings: REFERENCE_READINGS,
    hooks: ({ readings }) => ({
      showCall: (call) => ({
        ...call,
        totalParticipants: new Set(countedEntries(readings, participantsOf(call)).map((participant) => participant.uid)).size,
      }),
    }),
  },
  {
    name: 'initiated-and-started-swapped',
    description: 'List Calls swaps initiatedAt and startedAt of ended calls, so they start before they were initiated.',
    requirements: ['CALL-STARTED-NOT-BEFORE-INITIATED'],
    hooks: () => ({
      showCall: (call, where) =>
        where === 'list' && call.status === 'ended' && call.startedAt !== call.initiatedAt
          ? { ...call, initiatedAt: call.startedAt, startedAt: call.initiatedAt }
          : call,
    }),
  },
  {
    name: 'ended-at-in-local-time',
    description: 'Calls that ended within an hour of starting show endedAt an hour early (local time, UTC-1), before they started.',
    requirements: ['CALL-ENDED-NOT-BEFORE-STARTED'],
    hooks: () => ({
      showCall: (call) =>
        typeof call.endedAt === 'number' && call.status === 'ended' && call.endedAt - number(call.startedAt) < 3600
          ? { ...call, endedAt: call.endedAt - 3600 }
          : call,
    }),
  },
  {
    name: 'never-joined-with-device',
    description: 'Participants who never joined carry a deviceId and a joinedAt, as if they had.',
    requirements: ['PARTICIPANT-NEVER-JOINED-SHAPE'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          participant.isJoined ? participant : { ...participant, deviceId: 'web', joinedAt: call.initiatedAt },
        ),
    }),
  },
  {
    name: 'participant-duration-in-seconds',
    description: "A joined participant's totalDuration is in seconds, not minutes, so it is not audio plus video minutes.",
    requirements: ['PARTICIPANT-DURATION-IS-AUDIO-PLUS-VIDEO'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          participant.isJoined ? { ...participant, totalDuration: Math.round(number(participant.totalDuration) * 60) } : participant,
        ),
    }),
  },
  {
    name: 'joined-and-left-swapped',
    description: 'Participants who joined from a second device show joinedAt and leftAt swapped.',
    requirements: ['PARTICIPANT-LEFT-NOT-BEFORE-JOINED'],
    hooks: () => ({
      showCall: (call) => {
        const seen = new Set<unknown>();
        return withParticipants(call, (participant) => {
          const again = seen.has(participant.uid);
          seen.add(participant.uid);
          return again && typeof participant.leftAt === 'number' && participant.leftAt !== participant.joinedAt
            ? { ...participant, joinedAt: participant.leftAt, leftAt: participant.joinedAt }
            : participant;
        });
      },
    }),
  },
  {
    name: 'recording-times-swapped',
    description: "Get Call shows a recording's startTime and endTime swapped.",
    requirements: ['RECORDING-END-NOT-BEFORE-START'],
    hooks: () => ({
      showCall: (call) =>
        withRecordings(call, (recording) =>
          recording.endTime !== recording.startTime
            ? { ...recording, startTime: recording.endTime, endTime: recording.startTime }
            : recording,
        ),
    }),
  },
  {
    name: 'recording-beside-has-recording-false',
    description:
      'Get Call shows a recorded call with hasRecording false beside its recordings, as a serializer that reads a flag the recording pipeline never sets.',
    requirements: ['RECORDING-MEANS-HAS-RECORDING'],
    hooks: () => ({
      showCall: (call) => (recordingsOf(call).length > 0 ? { ...call, hasRecording: false } : call),
    }),
  },
  {
    name: 'timer-counts-seconds-as-minutes',
    description: "An ended call's totalDuration shows its seconds as minutes: a call of 19 seconds shows 00:19:00.",
    requirements: ['CALL-TOTAL-DURATION-IS-ITS-DURATION'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => {
        if (call.status !== 'ended' || typeof call.totalDuration !== 'string') return call;
        const [hours = 0, minutes = 0, seconds = 0] = call.totalDuration.split(':').map(Number);
        return { ...call, totalDuration: timer((hours * 3600 + minutes * 60 + seconds) * 60) };
      },
    }),
  },
  {
    name: 'participant-cap-off-by-one',
    description:
      "Calls with more than 30 entries are padded with guests who never joined to 51 users, one past the cap of 50 (totalParticipants counts them by the server's readings).",
    requirements: ['CALL-PARTICIPANTS-AT-MOST-50'],
    readings: REFERENCE_READINGS,
    // It shows on calls of more than 30 entries only: the reference's 1,000 calls hold some, 300 none.
    calls: 1000,
    hooks: ({ readings }) => ({
      showCall: (call) => {
        const participants = participantsOf(call);
        if (participants.length <= 30) return call;
        const people = new Set(participants.map((participant) => participant.uid)).size;
        const padding: ShownCall[] = Array.from({ length: 51 - people }, (_, index) => ({
          uid: `guest-${index + 1}`,
          totalAudioMinutes: 0,
          totalVideoMinutes: 0,
          totalDurationInMinutes: 0,
          totalDuration: 0,
          isJoined: false,
          state: 'unanswered',
        }));
        const padded = [...participants, ...padding];
        return { ...call, participants: padded, totalParticipants: countedEntries(readings, padded).length };
      },
    }),
  },
];
