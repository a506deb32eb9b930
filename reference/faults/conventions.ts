// Faults against SHOULD requirements (the suite warns, it does not fail) and against the deployed
// conventions that only the `strict` profile holds a target to.
import type { Fault } from './fault.ts';
import { errorAnswer, errorCodeOf, participantsOf, withParticipants, without } from './shown.ts';

const NUMERIC_PARAMETERS = ['participantsCount', 'startedAt', 'endedAt', 'page', 'perPage'];

export const SHOULD_FAULTS: Fault[] = [
  {
    name: 'server-error-on-malformed-numbers',
    description: 'List Calls answers 500 instead of 400 when a numeric parameter is malformed.',
    requirements: ['ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'],
    hooks: () => ({
      answer: (request, answer) => {
        const details = (answer.body as { error?: { details?: Record<string, unknown> } }).error?.details ?? {};
        return request.operation === 'listCalls' && answer.status === 400 && NUMERIC_PARAMETERS.some((name) => name in details)
          ? errorAnswer(500, 'ERR_INTERNAL', 'NumberFormatException')
          : answer;
      },
    }),
  },
  {
    name: 'mid-missing-while-ongoing',
    description: 'List Calls leaves mid out of ongoing calls.',
    requirements: ['CALL-MID-ON-STARTED-CALLS'],
    hooks: () => ({
      showCall: (call, where) => (where === 'list' && call.status === 'ongoing' ? without(call, 'mid') : call),
    }),
  },
  {
    name: 'initiator-joins-before-initiated',
    description: "The initiator's joinedAt is a minute before the call was initiated (the client's clock).",
    requirements: ['PARTICIPANT-JOINED-WITHIN-CALL'],
    hooks: () => ({
      showCall: (call) =>
        withParticipants(call, (participant, index) =>
          index === 0 && typeof participant.joinedAt === 'number' && typeof call.initiatedAt === 'number'
            ? { ...participant, joinedAt: call.initiatedAt - 60 }
            : participant,
        ),
    }),
  },
  {
    name: 'second-device-same-id',
    description: "A participant's second device shows the deviceId of the first.",
    requirements: ['CALL-MULTI-DEVICE-DISTINCT-DEVICES'],
    hooks: () => ({
      showCall: (call) => {
        const first = new Map<unknown, unknown>();
        for (const participant of participantsOf(call))
          if (participant.isJoined && !first.has(participant.uid)) first.set(participant.uid, participant.deviceId);
        return withParticipants(call, (participant) =>
          participant.isJoined ? { ...participant, deviceId: first.get(participant.uid) } : participant,
        );
      },
    }),
  },
];

export const STRICT_FAULTS: Fault[] = [
  {
    name: 'not-found-status-400',
    description: "Unknown call ids answer status 400 (with the right code), not the deployment's 404.",
    requirements: ['ERROR-STATUS-CODES'],
    profile: 'strict',
    hooks: () => ({
      answer: (_request, answer) => (errorCodeOf(answer) === 'ERR_CALL_SESSION_NOT_FOUND' ? { ...answer, status: 400 } : answer),
    }),
  },
  {
    name: 'error-body-flat',
    description: 'Errors are {"code", "message"} at the top level, without the deployment\'s "error" object.',
    requirements: ['ERROR-BODY-SHAPE'],
    profile: 'strict',
    hooks: () => ({
      answer: (_request, answer) =>
        answer.status >= 400 && !answer.raw ? { ...answer, body: (answer.body as { error: unknown }).error } : answer,
    }),
  },
  {
    name: 'get-call-without-envelope',
    description: 'Get Call answers the call itself, without the deployment\'s "data" envelope.',
    requirements: ['CALLS-GET-ENVELOPE'],
    profile: 'strict',
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && answer.status === 200 ? { ...answer, body: (answer.body as { data: unknown }).data } : answer,
    }),
  },
  {
    name: 'page-parameters-ignored',
    description: 'List Calls ignores page and perPage: it always answers the first 100 calls.',
    requirements: ['PAGINATION-PAGE-PARAMETERS'],
    profile: 'strict',
    hooks: () => ({ listQuery: (query) => ({ ...query, page: 1, perPage: 100 }) }),
  },
];
