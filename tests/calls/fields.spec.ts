// The field constraints of Call and Participant, one test per requirement, each holding every list
// fetched to learn the target, and a call fetched alone (once per worker: the fixture
// fetchedAloneViolations), to its part of the OpenAPI document. (The envelope,
// recordings and the mark-unread result have their tests beside their operations.)
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';

const FIELD_REQUIREMENTS = loadCatalog().requirements.filter(
  (entry) => entry.kind === 'field' && /^#\/components\/schemas\/(Call|Participant|CallType|CallMode|CallStatus|ReceiverType|ParticipantState|Timer)\b/.test(entry.schema ?? ''),
);

for (const field of FIELD_REQUIREMENTS) {
  test(`${field.id} ${field.text.replace(/\.$/, '')}, in every call sampled from the list and fetched alone`, requirement(field.id), async ({ verdict, targetSample, learnedViolations, fetchedAloneViolations }) => {
    sampledCalls(targetSample);
    // The call fetched alone is judged as if this test had fetched it: this field here, every other
    // requirement it breaks credited to that requirement's test.
    verdict.recordBackground(fetchedAloneViolations);
    // Of the lists, only this field's violations: the others fail their own tests.
    verdict.enforce(learnedViolations.filter((violation) => violation.requirement === field.id));
  });
}
