import { test, requirement } from '../../fixtures/index.ts';
import { errorCode, errorStatus, noServerError } from '../../core/checks/errors.ts';
import { unknownSessionId } from '../../core/arbitraries/identifiers.ts';

test(
  'CALLS-GET-NOT-FOUND for any unknown session id (any characters, reserved URL characters, very long), Get Call answers ERR_CALL_SESSION_NOT_FOUND',
  requirement('CALLS-GET-NOT-FOUND'),
  async ({ api, verdict, property, targetSample }) => {
    const known = new Set(targetSample.calls.map(({ call }) => String(call.sessionId)));

    await property(unknownSessionId(known), async (sessionId) => {
      const exchange = await api.getCall(sessionId);
      verdict.enforce([
        ...noServerError(exchange, 'Get Call with an unknown session id'),
        ...errorCode(exchange, 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND'),
        ...errorStatus(exchange, 'ERR_CALL_SESSION_NOT_FOUND', 'an unknown session id'),
      ]);
    });
  },
);
