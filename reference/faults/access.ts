// Faults in authentication, in the fullAccess rule of mark-unread, in its result, and in the
// format of answers: the error codes swapped, a check skipped, a header matched case-sensitively.
import type { Fault } from './fault.ts';
import { errors } from '../errors.ts';
import { errorAnswer, errorCodeOf } from './shown.ts';

const unread = 'markGroupConversationAsUnread';

export const ACCESS_FAULTS: Fault[] = [
  {
    name: 'get-call-without-auth',
    description: 'Get Call skips authentication: no key, or any key, is accepted.',
    requirements: ['AUTH-EMPTY-KEY', 'AUTH-INVALID-KEY'],
    hooks: () => ({ authenticate: (_req, operation, next) => (operation === 'getCall' ? 'readOnly' : next()) }),
  },
  {
    name: 'every-key-refused',
    description: 'Every key, a valid one too, is refused with AUTH_ERR_APIKEY_NOT_FOUND, as if the target knew none.',
    requirements: ['AUTH-APIKEY-HEADER'],
    // The suite cannot tell this target from a wrong API_KEY: the run stops before its tests, exit 2.
    hooks: () => ({
      authenticate: (req, _operation, next) => {
        if (String(req.headers.apikey ?? '').trim() !== '') throw errors.apiKeyNotFound();
        return next();
      },
    }),
  },
  {
    name: 'invalid-key-reported-as-empty',
    description: 'An invalid key gets AUTH_ERR_EMPTY_APIKEY instead of AUTH_ERR_APIKEY_NOT_FOUND.',
    requirements: ['AUTH-INVALID-KEY'],
    hooks: () => ({
      answer: (_request, answer) =>
        errorCodeOf(answer) === 'AUTH_ERR_APIKEY_NOT_FOUND'
          ? errorAnswer(401, 'AUTH_ERR_EMPTY_APIKEY', 'The apikey header is missing or empty.')
          : answer,
    }),
  },
  {
    name: 'missing-key-reported-as-invalid',
    description: 'A request without the apikey header gets AUTH_ERR_APIKEY_NOT_FOUND instead of AUTH_ERR_EMPTY_APIKEY.',
    requirements: ['AUTH-EMPTY-KEY'],
    hooks: () => ({
      answer: (_request, answer) =>
        errorCodeOf(answer) === 'AUTH_ERR_EMPTY_APIKEY'
          ? errorAnswer(401, 'AUTH_ERR_APIKEY_NOT_FOUND', 'The API key is not valid.')
          : answer,
    }),
  },
  {
    name: 'header-name-case-sensitive',
    description: 'The key is read only from a header spelled exactly "apikey"; "ApiKey" or "APIKEY" count as no key.',
    requirements: ['AUTH-HEADER-NAME-CASE-INSENSITIVE'],
    hooks: () => ({
      authenticate: (req, _operation, next) => {
        const names = req.rawHeaders.filter((_, index) => index % 2 === 0);
        if (names.some((name) => name.toLowerCase() === 'apikey') && !names.includes('apikey')) throw errors.emptyApiKey();
        return next();
      },
    }),
  },
  {
    name: 'key-prefix-accepted',
    description: 'A key is accepted when it starts with a valid key, so a valid key with characters added passes.',
    requirements: ['AUTH-INVALID-KEY'],
    hooks: ({ keys }) => ({
      authenticate: (req, _operation, next) => {
        const key = String(req.headers.apikey ?? '');
        if (key.startsWith(keys.fullAccess)) return 'fullAccess';
        if (key.startsWith(keys.readOnly)) return 'readOnly';
        return next();
      },
    }),
  },
  {
    name: 'chat-key-from-other-header',
    description: 'Mark-unread reads its key from "x-api-key", not "apikey", so a valid key in apikey is refused.',
    requirements: ['AUTH-APIKEY-HEADER'],
    hooks: () => ({
      authenticate: (req, operation, next) => {
        if (operation === unread && req.headers['x-api-key'] === undefined) throw errors.emptyApiKey();
        return next();
      },
    }),
  },
  {
    name: 'restricted-key-marks-unread',
    description: 'Mark-unread accepts a key without fullAccess scope.',
    requirements: ['CHAT-UNREAD-REQUIRES-FULL-ACCESS'],
    hooks: () => ({ requireFullAccess: () => undefined }),
  },
  {
    name: 'unread-success-as-string',
    description: 'The mark-unread result shows success as the string "true".',
    requirements: ['CHAT-UNREAD-RESULT-SHAPE'],
    hooks: () => ({
      answer: (request, answer) => {
        const data = (answer.body as { data?: Record<string, unknown> }).data;
        return request.operation === unread && answer.status === 200 && data
          ? { ...answer, body: { data: { ...data, success: 'true' } } }
          : answer;
      },
    }),
  },
  {
    name: 'unread-204-no-content',
    description: 'Mark-unread answers 204 No Content, with no result body.',
    requirements: ['CHAT-UNREAD-OK'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === unread && answer.status === 200
          ? { status: 204, body: undefined, raw: { contentType: 'text/plain', text: '' } }
          : answer,
    }),
  },
  {
    name: 'bad-request-as-html',
    description: "Bad requests get the web framework's HTML error page instead of a JSON body.",
    requirements: ['HTTP-JSON-BODIES'],
    hooks: () => ({
      answer: (_request, answer) =>
        answer.status === 400
          ? {
              ...answer,
              raw: {
                contentType: 'text/html; charset=utf-8',
                text: '<!DOCTYPE html><html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1></body></html>',
              },
            }
          : answer,
    }),
  },
  {
    name: 'not-found-message-latin1',
    description: 'Get Call\'s 404 is the right JSON error with a message in Latin-1 ("clé"): bytes that are not UTF-8.',
    requirements: ['HTTP-JSON-BODIES'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && answer.status === 404
          ? {
              ...answer,
              raw: {
                contentType: 'application/json',
                text: Buffer.from(
                  JSON.stringify({ error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'Session inconnue (clé absente).' } }),
                  'latin1',
                ),
              },
            }
          : answer,
    }),
  },
  {
    name: 'not-found-json-as-text',
    description: "Get Call's 404 carries the right JSON error, labelled text/plain.",
    requirements: ['HTTP-JSON-BODIES'],
    hooks: () => ({
      answer: (request, answer) =>
        request.operation === 'getCall' && answer.status === 404
          ? { ...answer, raw: { contentType: 'text/plain; charset=utf-8', text: JSON.stringify(answer.body) } }
          : answer,
    }),
  },
];
