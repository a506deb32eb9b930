// Faults in the shape of a call: a field missing, mistyped, or outside its enumeration, each on the
// calls where real serializers tend to slip, not everywhere.
import type { Fault } from './fault.ts';
import {
  decimalString,
  inMilliseconds,
  isoDate,
  minutesAsTimer,
  participantsOf,
  withParticipants,
  withRecordings,
  without,
} from './shown.ts';
import { REFERENCE_READINGS } from '../readings.ts';

export const FIELD_FAULTS: Fault[] = [
  {
    name: 'type-outside-enum',
    description: 'Presenter-mode video calls show type "screenshare", which is not audio or video.',
    requirements: ['CALL-FIELD-TYPE'],
    hooks: () => ({ showCall: (call) => (call.mode === 'presenter' && call.type === 'video' ? { ...call, type: 'screenshare' } : call) }),
  },
  {
    name: 'mode-outside-enum',
    description: 'Meet-mode calls to a user show mode "conference", which is not call, meet or presenter.',
    requirements: ['CALL-FIELD-MODE'],
    hooks: () => ({ showCall: (call) => (call.mode === 'meet' && call.receiverType === 'user' ? { ...call, mode: 'conference' } : call) }),
  },
  {
    name: 'receiver-type-outside-enum',
    description: 'Group calls in presenter mode show receiverType "broadcast", which is not user or group.',
    requirements: ['CALL-FIELD-RECEIVER-TYPE'],
    hooks: () => ({
      showCall: (call) => (call.mode === 'presenter' && call.receiverType === 'group' ? { ...call, receiverType: 'broadcast' } : call),
    }),
  },
  {
    name: 'status-outside-enum',
    description: 'Unanswered calls show status "missed", which is not one of the six statuses.',
    requirements: ['CALL-FIELD-STATUS'],
    hooks: () => ({ showCall: (call) => (call.status === 'unanswered' ? { ...call, status: 'missed' } : call) }),
  },
  {
    name: 'session-id-null-while-ongoing',
    description: 'List Calls shows sessionId null for ongoing calls, as if the id were assigned when the call ends.',
    requirements: ['CALL-FIELD-SESSION-ID'],
    hooks: () => ({ showCall: (call, where) => (where === 'list' && call.status === 'ongoing' ? { ...call, sessionId: null } : call) }),
  },
  {
    name: 'receiver-missing-for-groups',
    description: 'List Calls leaves receiver out of group calls.',
    requirements: ['CALL-FIELD-RECEIVER'],
    hooks: () => ({
      showCall: (call, where) => (where === 'list' && call.receiverType === 'group' ? without(call, 'receiver') : call),
    }),
  },
  {
    name: 'initiator-missing-for-ended-calls',
    description: 'List Calls leaves initiator out of calls that have ended.',
    requirements: ['CALL-FIELD-INITIATOR'],
    hooks: () => ({
      showCall: (call, where) => (where === 'list' && call.status === 'ended' ? without(call, 'initiator') : call),
    }),
  },
  {
    name: 'call-minutes-as-strings',
    description: 'A video call\'s three minute totals arrive as decimal strings ("12.50"), not numbers.',
    requirements: ['CALL-FIELD-TOTAL-AUDIO-MINUTES', 'CALL-FIELD-TOTAL-VIDEO-MINUTES', 'CALL-FIELD-TOTAL-DURATION-IN-MINUTES'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) =>
        call.type !== 'video'
          ? call
          : {
              ...call,
              totalAudioMinutes: decimalString(call.totalAudioMinutes),
              totalVideoMinutes: decimalString(call.totalVideoMinutes),
              totalDurationInMinutes: decimalString(call.totalDurationInMinutes),
            },
    }),
  },
  {
    name: 'timer-without-hours',
    description: 'Calls shorter than an hour show totalDuration as MM:SS instead of HH:MM:SS.',
    requirements: ['CALL-FIELD-TOTAL-DURATION-TIMER'],
    hooks: () => ({
      showCall: (call) =>
        typeof call.totalDuration === 'string' && call.totalDuration.startsWith('00:')
          ? { ...call, totalDuration: call.totalDuration.slice(3) }
          : call,
    }),
  },
  {
    name: 'total-participants-as-string',
    description: 'Group calls show totalParticipants as a string ("12").',
    requirements: ['CALL-FIELD-TOTAL-PARTICIPANTS'],
    readings: REFERENCE_READINGS,
    hooks: () => ({
      showCall: (call) => (call.receiverType === 'group' ? { ...call, totalParticipants: String(call.totalParticipants) } : call),
    }),
  },
  {
    name: 'has-recording-as-string',
    description: 'Calls with a recording show hasRecording as the string "true".',
    requirements: ['CALL-FIELD-HAS-RECORDING'],
    hooks: () => ({ showCall: (call) => (call.hasRecording === true ? { ...call, hasRecording: 'true' } : call) }),
  },
  {
    name: 'call-times-as-iso-dates',
    description: 'Ended calls show initiatedAt, startedAt and endedAt as ISO 8601 strings, not UNIX seconds.',
    requirements: ['CALL-FIELD-INITIATED-AT', 'CALL-FIELD-STARTED-AT', 'CALL-FIELD-ENDED-AT'],
    hooks: () => ({
      showCall: (call) =>
        call.status !== 'ended'
          ? call
          : { ...call, initiatedAt: isoDate(call.initiatedAt), startedAt: isoDate(call.startedAt), endedAt: isoDate(call.endedAt) },
    }),
  },
  {
    name: 'media-ids-null-after-end',
    description: 'Ended calls show mid null, for the call and for each participant.',
    requirements: ['CALL-FIELD-MID', 'PARTICIPANT-FIELD-MID'],
    hooks: () => ({
      showCall: (call) =>
        call.status !== 'ended'
          ? call
          : withParticipants({ ...call, mid: null }, (participant) => (participant.isJoined ? { ...participant, mid: null } : participant)),
    }),
  },
  {
    name: 'participants-keyed-by-uid',
    description: 'Group calls show participants as an object keyed by uid instead of an array.',
    requirements: ['CALL-FIELD-PARTICIPANTS'],
    hooks: () => ({
      showCall: (call) =>
        call.receiverType !== 'group'
          ? call
          : {
              ...call,
              participants: Object.fromEntries(participantsOf(call).map((participant) => [String(participant.uid), participant])),
            },
    }),
  },
  {
    name: 'participant-uid-missing-when-never-joined',
    description: 'Participants who never joined carry no uid.',
    requirements: ['PARTICIPANT-FIELD-UID'],
    hooks: () => ({
      showCall: (call) => withParticipants(call, (participant) => (participant.isJoined ? participant : without(participant, 'uid'))),
    }),
  },
  {
    name: 'participant-minutes-as-strings',
    description: "Joined participants' audio, video and total minutes arrive as decimal strings.",
    requirements: [
      'PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES',
      'PARTICIPANT-FIELD-TOTAL-VIDEO-MINUTES',
      'PARTICIPANT-FIELD-TOTAL-DURATION-IN-MINUTES',
    ],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          !participant.isJoined
            ? participant
            : {
                ...participant,
                totalAudioMinutes: decimalString(participant.totalAudioMinutes),
                totalVideoMinutes: decimalString(participant.totalVideoMinutes),
                totalDurationInMinutes: decimalString(participant.totalDurationInMinutes),
              },
        ),
    }),
  },
  {
    name: 'participant-duration-as-timer',
    description: "A participant's totalDuration is printed as a HH:MM:SS timer, like the call's, instead of minutes.",
    requirements: ['PARTICIPANT-FIELD-TOTAL-DURATION-NUMBER'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) => ({ ...participant, totalDuration: minutesAsTimer(participant.totalDuration) })),
    }),
  },
  {
    name: 'participant-legacy-types',
    description: 'Joined participants of video calls show deviceId as a number and isJoined as 1.',
    requirements: ['PARTICIPANT-FIELD-DEVICE-ID', 'PARTICIPANT-FIELD-IS-JOINED'],
    hooks: () => ({
      showCall: (call) =>
        call.type !== 'video'
          ? call
          : withParticipants(call, (participant, index) =>
              participant.isJoined ? { ...participant, deviceId: 1000 + index, isJoined: 1 } : participant,
            ),
    }),
  },
  {
    name: 'participant-times-as-iso-dates',
    description: "Participants' joinedAt and leftAt arrive as ISO 8601 strings.",
    requirements: ['PARTICIPANT-FIELD-JOINED-AT', 'PARTICIPANT-FIELD-LEFT-AT'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          participant.isJoined
            ? { ...participant, joinedAt: isoDate(participant.joinedAt), leftAt: isoDate(participant.leftAt) }
            : participant,
        ),
    }),
  },
  {
    name: 'participant-times-in-milliseconds',
    description:
      'The entries of a user who joined from a second device show joinedAt and leftAt in milliseconds (13 digits), as the media server logs them.',
    requirements: ['PARTICIPANT-FIELD-JOINED-AT', 'PARTICIPANT-FIELD-LEFT-AT'],
    hooks: () => ({
      showCall: (call) => {
        const seen = new Set<unknown>();
        return withParticipants(call, (participant) => {
          const again = participant.isJoined && seen.has(participant.uid);
          seen.add(participant.uid);
          return again
            ? { ...participant, joinedAt: inMilliseconds(participant.joinedAt), leftAt: inMilliseconds(participant.leftAt) }
            : participant;
        });
      },
    }),
  },
  {
    name: 'ended-at-in-milliseconds',
    description: 'Group calls that ended show endedAt in milliseconds (13 digits); every other time stays in seconds.',
    requirements: ['CALL-FIELD-ENDED-AT'],
    hooks: () => ({
      showCall: (call) =>
        call.receiverType === 'group' && call.status === 'ended' ? { ...call, endedAt: inMilliseconds(call.endedAt) } : call,
    }),
  },
  {
    name: 'participant-state-outside-enum',
    description: 'Participants who left show state "left", which is not one of the four states.',
    requirements: ['PARTICIPANT-FIELD-STATE'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant) =>
          participant.isJoined && participant.state === 'ended' ? { ...participant, state: 'left' } : participant,
        ),
    }),
  },
  {
    name: 'recording-duration-as-timer',
    description: "Get Call shows a recording's duration as a HH:MM:SS string and leaves out its recording_url.",
    requirements: ['RECORDING-FIELDS'],
    hooks: () => ({
      showCall: (call) =>
        withRecordings(call, (recording) => ({ ...without(recording, 'recording_url'), duration: minutesAsTimer(recording.duration) })),
    }),
  },
];
