// A clean candidate answering Get Call from a read replica five seconds behind, beside a fresh primary,
// both over one living store (reference/two-doors.ts, a new call a second): the whole diff, as the
// command asks and judges it. Calls logged just before learning are not yet on the replica, so the
// plan asks Get Call only for calls still for longer than MAX_ANSWER_AGE (read-plan.ts), as the
// suite's own tests do; and an ongoing call's Get Call is compared as a listed one, on the fields it
// carries, not on minutes that grew between the asks (answer-differences.ts). Before, seed 2 or 6
// showed the candidate's 404 for a new call as a regression of AUTH-HEADER-NAME-CASE-INSENSITIVE or
// AUTH-APIKEY-HEADER, and its older minutes as behaviour changes.
import { test, expect } from '@playwright/test';
import { diffAgainstFault } from './fault-diff.ts';

for (const seed of [2, 6]) {
  test(`seed ${seed}: a clean candidate whose Get Call answers from a replica 5 s behind, on a living store, differs in nothing`, async () => {
    const outcome = await diffAgainstFault(undefined, seed, {
      aged: { live: 1, calls: 1000, answerAge: { get: { mode: 'replica', seconds: 5 } } },
    });
    const found = outcome.findings.map(
      ({ verdict, operation, path, kind, because }) => `${verdict} ${operation} ${path} ${kind} ${because.join(',')}`,
    );
    expect(found).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  });
}
