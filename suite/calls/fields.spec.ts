// The field constraints of Call and Participant, one test per requirement, each holding every list
// the run sampled, and the calls it fetched alone, to its part of the OpenAPI document. Both were
// fetched once per run, while learning the target (learning/target-sample.ts): every field test
// judges the same answers, so none asks for them again. (The envelope, recordings and the
// mark-unread result have their tests beside their operations.)
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';

const FIELD_REQUIREMENTS = loadCatalog().requirements.filter(
  (entry) =>
    entry.kind === 'field' &&
    /^#\/components\/schemas\/(Call|Participant|CallType|CallMode|CallStatus|ReceiverType|ParticipantState|Timer)\b/.test(
      entry.schema ?? '',
    ),
);

// These send nothing. Run fully parallel, every worker reached them at once (tests are handed out
// in file order) and no request was in flight for about a second of a remote run; in order, in a
// few groups, they run while the other workers keep the target busy. A few groups, not one: each
// failed test ends its worker, and against a list of wrapped calls, where fifteen fields fail, one
// group made a chain of fifteen worker starts (22 s of a 32 s run) while the other workers idled.
// Nor are they retried: they judge the answers recorded once per run, so a second attempt judges
// the same answers and cannot tell an intermittent failure from a deterministic one.
const GROUPS = 3;

for (let group = 0; group < GROUPS; group += 1) {
  test.describe(() => {
    test.describe.configure({ mode: 'default', retries: 0 });
    for (const field of FIELD_REQUIREMENTS.filter((_, index) => index % GROUPS === group)) fieldTest(field);
  });
}

function fieldTest(field: (typeof FIELD_REQUIREMENTS)[number]) {
  test(
    `${field.id} ${field.text.replace(/\.$/, '')}, in every call sampled from the list and fetched alone`,
    requirement(field.id),
    async ({ verdict, targetSample, learnedViolations }) => {
      // Without a page of calls this test is blocked; a field the learned answers break still fails,
      // credited by CALLS-LIST-OK's test, which judges them all (and a failed test costs a worker).
      sampledCalls(targetSample);
      // Of what the run learned, only this field's violations: the others fail their own tests.
      verdict.enforce(learnedViolations.filter((violation) => violation.requirement === field.id));
    },
  );
}
