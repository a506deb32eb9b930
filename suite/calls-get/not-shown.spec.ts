import { test, requirement, fetchableCalls } from '../../fixtures/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';
import { deployedGetCallEnvelope, getCallCarriage } from '../../core/checks/get-call-envelope.ts';
import { recordingsIn } from '../../core/checks/invariants/recordings.ts';

test(
  'CALLS-GET-ENVELOPE reports how Get Call carries the call and with which status',
  requirement('CALLS-GET-ENVELOPE'),
  async ({ api, verdict, targetSample }) => {
    const [seen] = fetchableCalls(targetSample);
    const exchange = await api.getCall(String(seen!.call.sessionId));
    verdict.observe('CALLS-GET-ENVELOPE', getCallCarriage(exchange));
    // Only the strict profile holds it to anything: the deployment's current form, {"data": call}.
    verdict.enforce(deployedGetCallEnvelope(exchange));
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
