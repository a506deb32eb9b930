// Faults in Get Call: the wrong call, a call that disagrees with the list, the wrong answer for
// some unknown ids only, onBehalfOf refused, a read that changes what the next read shows, and an
// envelope that is not one (some calls bare and others in data, or a data array of two).
import type { Answer, AnsweredRequest, Fault } from './fault.ts';
import { errorAnswer, errorCodeOf } from './shown.ts';

const notFound = (answer: Answer) => errorCodeOf(answer) === 'ERR_CALL_SESSION_NOT_FOUND';
const requestedId = (path: string) => decodeURIComponent(path.slice('/v3/calls/'.length));
/** Get Call's success in the reference's default envelope, {"data": call}, the one these faults rewrite. */
const wrappedCall = (request: AnsweredRequest, answer: Answer): unknown =>
  request.operation === 'getCall' && answer.status === 200 && !answer.raw ? (answer.body as { data?: unknown }).data : undefined;
/** Half the calls, by the last character of their id: the same calls on every read. */
const evenId = (sessionId: string) => parseInt(sessionId.slice(-1), 36) % 2 === 0;

export const GET_CALL_FAULTS: Fault[] = [
  {
    name: 'get-answers-next-call',
    description: 'Get Call answers with the call listed after the requested one (an off-by-one in the lookup).',
    requirements: ['CALLS-GET-OK'],
    hooks: ({ store }) => {
      const rows = store.data.rows;
      const position = new Map(rows.map((row, index) => [row.sessionId, index]));
      return {
        findCall: (sessionId, next) => (position.has(sessionId) ? rows[(position.get(sessionId)! + 1) % rows.length] : next(sessionId)),
      };
    },
  },
  {
    name: 'get-shows-canceled-as-ended',
    description: 'Get Call shows canceled calls with status "ended", while List Calls says "canceled".',
    requirements: ['CALLS-GET-MATCHES-LIST'],
    hooks: () => ({ showCall: (call, where) => (where === 'get' && call.status === 'canceled' ? { ...call, status: 'ended' } : call) }),
  },
  {
    name: 'not-found-500-for-unusual-characters',
    description:
      'Unknown ids holding characters other than letters, digits, "." and "-" crash the lookup: 500 instead of ERR_CALL_SESSION_NOT_FOUND.',
    requirements: ['CALLS-GET-NOT-FOUND'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && notFound(answer) && /[^A-Za-z0-9.-]/.test(requestedId(request.path))
          ? errorAnswer(500, 'ERR_INTERNAL', 'Lookup failed.')
          : answer,
    }),
  },
  {
    name: 'not-found-400-for-long-ids',
    description: 'Unknown ids longer than 64 characters are refused as ERR_BAD_REQUEST instead of ERR_CALL_SESSION_NOT_FOUND.',
    requirements: ['CALLS-GET-NOT-FOUND'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && notFound(answer) && requestedId(request.path).length > 64
          ? errorAnswer(400, 'ERR_BAD_REQUEST', 'sessionId is too long.')
          : answer,
    }),
  },
  {
    name: 'not-found-as-empty-call',
    description:
      'Unknown ids shaped like real ones ("v1." and a region) answer 200 with an empty call instead of ERR_CALL_SESSION_NOT_FOUND.',
    requirements: ['CALLS-GET-NOT-FOUND'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && notFound(answer) && /^v1\.[a-z]{2}\./.test(requestedId(request.path))
          ? { status: 200, body: { data: {} } }
          : answer,
    }),
  },
  {
    name: 'get-on-behalf-of-initiator-only',
    description: 'Get Call with onBehalfOf finds the call only for its initiator, not for the other participants.',
    requirements: ['CALLS-GET-ON-BEHALF-OF'],
    hooks: () => ({
      answer: (request, answer) => {
        const onBehalfOf = request.headers.onbehalfof;
        const call = (answer.body as { data?: { initiator?: unknown } }).data;
        return request.operation === 'getCall' && answer.status === 200 && onBehalfOf !== undefined && call?.initiator !== onBehalfOf
          ? errorAnswer(404, 'ERR_CALL_SESSION_NOT_FOUND', 'The call session does not exist.')
          : answer;
      },
    }),
  },
  {
    name: 'get-ignores-on-behalf-of',
    description: 'Get Call ignores onBehalfOf: any user is answered any call, while List Calls keeps to the scope.',
    requirements: ['CALLS-GET-ON-BEHALF-OF-SCOPE'],
    hooks: () => ({ inScope: () => true }),
  },
  {
    name: 'get-call-envelope-mixed',
    description:
      'Get Call answers calls whose id ends in an even digit bare, and the others wrapped in data: two envelopes for one operation.',
    requirements: ['CALLS-GET-OK'],
    hooks: () => ({
      answer: (request, answer) => {
        const call = wrappedCall(request, answer);
        return call !== undefined && evenId(requestedId(request.path)) ? { ...answer, body: call } : answer;
      },
    }),
  },
  {
    name: 'get-call-data-array-of-two',
    description:
      'Get Call answers {"data": [call, call]}, the call twice in a data array (a join that doubles its row): not the details of one call.',
    requirements: ['CALLS-GET-OK'],
    hooks: () => ({
      answer: (request, answer) => {
        const call = wrappedCall(request, answer);
        return call === undefined ? answer : { ...answer, body: { data: [call, call] } };
      },
    }),
  },
  {
    name: 'get-counts-views',
    description: 'Each Get Call counts a view and shows the count in metaData, so reading changes what the next read shows.',
    requirements: ['CALLS-READ-ONLY'],
    hooks: () => {
      const views = new Map<string, number>();
      return {
        showCall: (call, where, row) => {
          if (where !== 'get') return call;
          const count = (views.get(row.sessionId) ?? 0) + 1;
          views.set(row.sessionId, count);
          return { ...call, metaData: [{ views: count }] };
        },
      };
    },
  },
];
