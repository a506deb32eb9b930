// Error statuses and body shapes are not shown by the specification: reported in the spec profile,
// held to the deployment's (401/403/404, {"error": {"code", "message"}}) by the strict profile.
import { test, requirementOn } from '../../fixtures/index.ts';
import { errorCode, errorStatus, errorAnswerSeen, errorCodesIn } from '../../core/checks/errors.ts';
import { codePlace, provokeErrors } from './error-answers.ts';

test(
  'ERROR-STATUS-CODES reports the HTTP status of each error code',
  requirementOn(['listCalls', 'getCall'], 'ERROR-STATUS-CODES'),
  async ({ api, verdict }) => {
    for (const { code, situation, exchange } of await provokeErrors(api)) {
      verdict.observe('ERROR-STATUS-CODES', errorAnswerSeen(exchange, code, situation));
      verdict.record(errorStatus(exchange, code, situation));
    }
    verdict.enforce();
  },
);

test(
  'ERROR-BODY-SHAPE reports where error bodies carry the code',
  requirementOn(['listCalls', 'getCall'], 'ERROR-BODY-SHAPE'),
  async ({ api, verdict }) => {
    // The body itself is held to the deployment's Error schema as it arrives (strict profile).
    for (const { code, situation, exchange } of await provokeErrors(api)) {
      const place = codePlace(exchange.response.body, code);
      verdict.observe('ERROR-BODY-SHAPE', place === undefined ? errorAnswerSeen(exchange, code, situation) : `${code}: code at ${place}`);
    }
    verdict.enforce();
  },
);

test(
  'ERRORS-OTHER reports the codes met beyond the three named ones',
  requirementOn('listCalls', 'ERRORS-OTHER'),
  async ({ api, verdict }) => {
    const probes = await Promise.all([
      api.listCalls({ type: 'fax' }),
      api.listCalls({ participantsCount: 'many' }),
      api.listCalls({}, { onBehalfOf: 'a-user-no-target-knows-0000' }),
    ]);
    const other = probes.flatMap((exchange) =>
      errorCodesIn(exchange.response.body).map((code) => `${code} (status ${exchange.response.status})`),
    );
    verdict.observe('ERRORS-OTHER', other.length === 0 ? 'no other code met' : [...new Set(other)].join(', '));
  },
);

test(
  'HTTP-JSON-BODIES success and error answers of the read operations are JSON',
  requirementOn(['listCalls', 'getCall'], 'HTTP-JSON-BODIES'),
  async ({ api, verdict, targetSample }) => {
    const sessionId = targetSample.calls[0]?.call.sessionId;
    // Each answer is held to the JSON check as it arrives; the codes show the errors are errors.
    const [, , errors] = await Promise.all([
      api.listCalls(),
      typeof sessionId === 'string' ? api.getCall(sessionId) : undefined,
      provokeErrors(api),
    ]);
    for (const { code, exchange } of errors) verdict.record(errorCode(exchange, code, requirementOf(code)));
    verdict.enforce();
  },
);

function requirementOf(code: string): string {
  return code === 'AUTH_ERR_EMPTY_APIKEY'
    ? 'AUTH-EMPTY-KEY'
    : code === 'AUTH_ERR_APIKEY_NOT_FOUND'
      ? 'AUTH-INVALID-KEY'
      : 'CALLS-GET-NOT-FOUND';
}

test('RATE-LIMITS reports the rate-limit headers the target sends', requirementOn('listCalls', 'RATE-LIMITS'), async ({ api, verdict }) => {
  const exchange = await api.listCalls();
  const headers = Object.entries(exchange.response.headers).filter(([name]) => /rate-?limit|retry-after/i.test(name));
  verdict.observe(
    'RATE-LIMITS',
    headers.length === 0 ? 'no rate-limit headers' : headers.map(([name, value]) => `${name}: ${value}`).join(', '),
  );
});
