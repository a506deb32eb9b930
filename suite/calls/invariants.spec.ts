// The derived invariants of every call sampled: minutes add up, counts match entries, timestamps
// are ordered, never-joined participants look the part, at most 50 entries.
import { test, requirement, sampledCalls } from '../../fixtures/index.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { CALL_INVARIANTS } from '../../core/checks/index.ts';
import { callsIn } from '../../core/checks/calls-in.ts';

const catalog = loadCatalog();

// These send nothing. Run fully parallel, every worker reached them at once (tests are handed out
// in file order) and no request was in flight for about a second of a remote run; in order on one
// worker, they run while the other workers keep the target busy.
// Nor are they retried: they judge the answers recorded once per run, so a second attempt judges
// the same answers and cannot tell an intermittent failure from a deterministic one; it would only
// cost a worker's restart per failed field (sixteen of them against a list of wrapped calls).
test.describe.configure({ mode: 'default', retries: 0 });

for (const { requirement: id, check, judges } of CALL_INVARIANTS) {
  const text = catalog.byId.get(id)!.text.replace(/\.$/, '');
  test(
    `${id} ${text}, for every call sampled from the list and fetched alone`,
    requirement(id),
    async ({ verdict, checks, targetSample }) => {
      const calls = sampledCalls(targetSample);
      // The calls fetched alone (recorded ones among them: recordings may appear in Get Call only)
      // were fetched once per run, while learning the target.
      const fetched = targetSample.fetched.flatMap((exchange) => callsIn(exchange));
      const all = [...calls, ...fetched];
      // An invariant of what not every call shows passes only where some call showed it. Every call
      // is still checked: which calls it judges decides whether it is judged, never what it finds.
      const judged = judges ? all.filter((call) => judges.calls(call, checks)).length : all.length;
      test.skip(judged === 0, `Not judged: none of the ${all.length} calls sampled and fetched is ${judges?.what ?? 'a call'}.`);
      verdict.enforce(all.flatMap((call) => check(call, checks)));
    },
  );
}

test(
  'CALL-SESSION-ID-UNIQUE no list page the suite samples shows two calls with the same sessionId',
  requirement('CALL-SESSION-ID-UNIQUE'),
  async ({ verdict, targetSample, learnedViolations }) => {
    sampledCalls(targetSample);
    verdict.enforce(learnedViolations.filter((violation) => violation.requirement === 'CALL-SESSION-ID-UNIQUE'));
  },
);
