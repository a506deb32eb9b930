// Which envelope Get Call carries its call in, read off the answers the suite already has: the
// calls fetched alone while learning (target-sample.ts fetchAlone), so it costs no request. An
// envelope survives when every answer that carries a call uses it. When answers differ, none
// survives and Get Call is judged by the envelope most answers use, so that each answer in another
// fails CALLS-GET-OK. An answer with no recognisable call (an error, a data array of 0 or 2+ items)
// says nothing of the envelope: the schema check fails it on its own.
import { ENVELOPE_WORDS, GET_CALL_ENVELOPES, getCallEnvelope, isSuccess, type GetCallEnvelope } from '../checks/calls-in.ts';
import { shown } from '../checks/violation.ts';
import type { Exchange } from '../transport/exchange.ts';
import { openDetection, ruleOut, type Detection } from './detection.ts';

export function detectGetCallEnvelope(answers: readonly Exchange[]): Detection<GetCallEnvelope> {
  const detection = openDetection('get-call-envelope', GET_CALL_ENVELOPES);
  const followed = new Map<GetCallEnvelope, number>(GET_CALL_ENVELOPES.map((envelope) => [envelope, 0]));
  let carrying = 0;
  for (const exchange of answers) {
    if (exchange.operation !== 'getCall' || !isSuccess(exchange) || !exchange.response.isJson) continue;
    const found = getCallEnvelope(exchange.response.body);
    if (!found) continue;
    carrying += 1;
    followed.set(found.envelope, followed.get(found.envelope)! + 1);
    for (const envelope of GET_CALL_ENVELOPES) {
      if (envelope !== found.envelope)
        ruleOut(detection, envelope, `call ${shown(found.call.sessionId)} was answered ${ENVELOPE_WORDS[found.envelope]}`, exchange);
    }
  }
  // Stable sort: a tie goes to the first envelope listed, the deployment's current form.
  const mostFollowed = [...GET_CALL_ENVELOPES].sort((a, b) => followed.get(b)! - followed.get(a)!)[0]!;
  detection.accepted = detection.survivors.length > 0 ? [...detection.survivors] : [mostFollowed];
  detection.evidence =
    answers.length === 0 ? 'no call was fetched alone' : `${answers.length} Get Call answers, ${carrying} of which carry a call`;
  return detection;
}
