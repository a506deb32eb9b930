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
