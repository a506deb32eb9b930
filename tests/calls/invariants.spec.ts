// The derived invariants of every call sampled: minutes add up, counts match entries, timestamps
// are ordered, never-joined participants look the part, at most 50 entries.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { CALL_INVARIANTS } from '../../fixtures/checks/index.ts';

const catalog = loadCatalog();

for (const { requirement: id, check } of CALL_INVARIANTS) {
  const text = catalog.byId.get(id)!.text.replace(/\.$/, '');
  test(`${id} ${text}, for every call sampled from the list and fetched alone`, requirement(id), async ({ api, verdict, checks, targetSample }) => {
    const calls = sampledCalls(targetSample);
    // Fetched calls (recorded ones among them: recordings may appear in Get Call only) are checked
    // as they arrive, by every invariant. Independent of each other, so they are sent together.
    const recorded = calls.filter(({ call }) => call.hasRecording === true).slice(0, 2);
    await Promise.all([...calls.slice(0, 2), ...recorded].map(({ call }) => api.getCall(String(call.sessionId))));
    verdict.enforce(calls.flatMap((call) => check(call, checks)));
  });
}

test('CALL-SESSION-ID-UNIQUE no list page the suite samples shows two calls with the same sessionId', requirement('CALL-SESSION-ID-UNIQUE'), async ({ verdict, targetSample, learnedViolations }) => {
  sampledCalls(targetSample);
  verdict.enforce(learnedViolations.filter((violation) => violation.requirement === 'CALL-SESSION-ID-UNIQUE'));
});
