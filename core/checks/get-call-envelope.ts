// get_call_envelope_consistency: Get Call carries every call in the envelope the target was found
// to use (learning/get-call-envelope.ts). The specification does not show the envelope, so any of
// the three is accepted, but one target's "details of one call" are one shape: an answer in another
// envelope than the rest is not the call a client of that target reads.
import type { Exchange } from '../transport/exchange.ts';
import { ENVELOPE_WORDS, getCallEnvelope, isSuccess } from './calls-in.ts';
import type { Readings } from './readings.ts';
import type { Violation } from './violation.ts';

export function getCallEnvelopeConsistency(exchange: Exchange, context: { readings: Readings }): Violation[] {
  if (exchange.operation !== 'getCall' || !isSuccess(exchange) || !exchange.response.isJson) return [];
  const found = getCallEnvelope(exchange.response.body);
  const accepted = context.readings.getCallEnvelope;
  if (!found || accepted.includes(found.envelope)) return [];
  return [
    {
      check: 'get_call_envelope_consistency',
      requirement: 'CALLS-GET-OK',
      title: `Get Call answered the call ${found.envelope}, where the target answers ${accepted.join(' or ')}`,
      expected: `the call ${accepted.map((envelope) => ENVELOPE_WORDS[envelope]).join(' or ')}, as the target's other Get Call answers`,
      received: `the call ${ENVELOPE_WORDS[found.envelope]}`,
      exchange,
    },
  ];
}

/** How Get Call carried the call: its status and the envelope the call was found in. */
export function getCallCarriage(exchange: Exchange): string {
  const envelope = getCallEnvelope(exchange.response.body)?.envelope;
  return `status ${exchange.response.status}, the call ${envelope ? ENVELOPE_WORDS[envelope] : 'not found in the body'}`;
}

/**
 * CALLS-GET-ENVELOPE, which the specification does not show: the deployment's current form, status
 * 200 with the call wrapped in data. Only the strict profile holds a target to it.
 */
export function deployedGetCallEnvelope(exchange: Exchange): Violation[] {
  if (exchange.response.status === 200 && getCallEnvelope(exchange.response.body)?.envelope === 'data-object') return [];
  return [
    {
      check: 'get_call_envelope',
      requirement: 'CALLS-GET-ENVELOPE',
      title: "the deployment's Get Call answers 200 with the call wrapped in data",
      expected: `status 200, the call ${ENVELOPE_WORDS['data-object']}`,
      received: getCallCarriage(exchange),
      exchange,
    },
  ];
}
