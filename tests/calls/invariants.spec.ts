// The derived invariants of every call sampled: minutes add up, counts match entries, timestamps
// are ordered, never-joined participants look the part, at most 50 entries.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { CALL_INVARIANTS } from '../../fixtures/checks/index.ts';
import { callsIn } from '../../fixtures/checks/calls-in.ts';

const catalog = loadCatalog();

for (const { requirement: id, check } of CALL_INVARIANTS) {
  const text = catalog.byId.get(id)!.text.replace(/\.$/, '');
  test(`${id} ${text}, for every call sampled from the list and fetched alone`, requirement(id), async ({ api, verdict, checks, targetSample }) => {
    const calls = sampledCalls(targetSample);
    // Fetched calls (recorded ones among them: recordings may appear in Get Call only) are checked
    // as they arrive, by every invariant.
    const recorded = calls.filter(({ call }) => call.hasRecording === true).slice(0, 2);
    for (const { call } of [...calls.slice(0, 2), ...recorded]) await api.getCall(String(call.sessionId));
    verdict.enforce(calls.flatMap((call) => check(call, checks)));
  });
}

test('CALL-SESSION-ID-UNIQUE no two calls seen in list responses share a sessionId', requirement('CALL-SESSION-ID-UNIQUE'), async ({ verdict, targetSample, paging }) => {
  sampledCalls(targetSample);
  const exchanges = [...targetSample.exchanges.slice(0, 1), ...paging.exchanges];
  for (const exchange of exchanges) {
    const ids = callsIn(exchange).map(({ call }) => call.sessionId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (repeated.length === 0) continue;
    verdict.record([{ check: 'session_id_unique', requirement: 'CALL-SESSION-ID-UNIQUE', title: `one list page repeats sessionIds`, expected: 'distinct sessionIds', received: `repeated ${JSON.stringify(repeated.slice(0, 5))}`, exchange }]);
  }
  verdict.enforce();
});
