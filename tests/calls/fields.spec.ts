// The field constraints of Call and Participant, one test per requirement, each holding every list
// the worker fetched, and a call fetched alone, to its part of the OpenAPI document. (The envelope,
// recordings and the mark-unread result have their tests beside their operations.)
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';

const FIELD_REQUIREMENTS = loadCatalog().requirements.filter(
  (entry) => entry.kind === 'field' && /^#\/components\/schemas\/(Call|Participant|CallType|CallMode|CallStatus|ReceiverType|ParticipantState|Timer)\b/.test(entry.schema ?? ''),
);

for (const field of FIELD_REQUIREMENTS) {
  test(`${field.id} ${field.text.replace(/\.$/, '')}, in every call sampled from the list and fetched alone`, requirement(field.id), async ({ api, verdict, targetSample, learnedViolations }) => {
    const calls = sampledCalls(targetSample);
    // The fetched call is checked as it arrives, every field of it, like every response.
    await api.getCall(String(calls[0]!.call.sessionId));
    // Of what the worker fetched, only this field's violations: the others fail their own tests.
    verdict.enforce(learnedViolations.filter((violation) => violation.requirement === field.id));
  });
}
