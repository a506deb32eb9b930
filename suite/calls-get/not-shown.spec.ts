import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { ENVELOPE_WORDS, getCallEnvelope, callsIn } from '../../core/checks/calls-in.ts';
import { recordingsIn } from '../../core/checks/invariants/recordings.ts';

test(
  'CALLS-GET-ENVELOPE reports how Get Call carries the call and with which status',
  requirement('CALLS-GET-ENVELOPE'),
  async ({ api, verdict, targetSample }) => {
    const [seen] = fetchableCalls(targetSample);
    const exchange = await api.getCall(String(seen!.call.sessionId));
    const envelope = getCallEnvelope(exchange.response.body)?.envelope;
    verdict.observe(
      'CALLS-GET-ENVELOPE',
      `status ${exchange.response.status}, the call ${envelope ? ENVELOPE_WORDS[envelope] : 'not found in the body'}`,
    );
    // Only the strict profile holds it to anything: the deployment's current form, {"data": call}.
    if (exchange.response.status !== 200 || envelope !== 'data-object') {
      verdict.enforce([
        {
          check: 'get_call_envelope',
          requirement: 'CALLS-GET-ENVELOPE',
          title: "the deployment's Get Call answers 200 with the call wrapped in data",
          expected: `status 200, the call ${ENVELOPE_WORDS['data-object']}`,
          received: `status ${exchange.response.status}, the call ${envelope ? ENVELOPE_WORDS[envelope] : 'not found in the body'}`,
          exchange,
        },
      ]);
    }
  },
);

test(
  'RECORDING-PLACEMENT reports where recording records appear in call responses',
  requirement('RECORDING-PLACEMENT'),
  async ({ api, verdict, targetSample }) => {
    const calls = fetchableCalls(targetSample);
    const recorded = calls.filter(({ call }) => call.hasRecording === true).slice(0, 3);
    test.skip(recorded.length === 0, 'No sampled call has a recording.');
    const places = new Set<string>();
    for (const seen of [
      ...recorded,
      ...(await Promise.all(recorded.map(({ call }) => api.getCall(String(call.sessionId))))).flatMap(callsIn),
    ]) {
      for (const found of recordingsIn(seen)) places.add(`${seen.exchange.operation}: ${found.pointer.replace(/\/\d+/g, '/N')}`);
    }
    verdict.observe(
      'RECORDING-PLACEMENT',
      places.size === 0
        ? 'no recording record found in list or Get Call responses of calls with hasRecording true'
        : [...places].join('; '),
    );
  },
);
