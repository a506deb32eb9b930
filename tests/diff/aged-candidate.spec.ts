// A clean candidate answering from a read replica behind a fresh primary, both over one living store
// (reference/two-doors.ts, a new call a second): the whole diff, as the command asks and judges it.
// - Get Call five seconds behind: calls logged just before learning are not yet on the replica, so
//   the plan asks Get Call only for calls still for longer than MAX_ANSWER_AGE (read-plan.ts), as the
//   suite's own tests do; and an ongoing call's Get Call is compared as a listed one, on the fields it
//   carries, not on minutes that grew between the asks (answer-differences.ts). Before, seed 2 or 6
//   showed the candidate's 404 for a new call as a regression of AUTH-HEADER-NAME-CASE-INSENSITIVE or
//   AUTH-APIKEY-HEADER, and its older minutes as behaviour changes.
// - Lists ten seconds behind: the candidate's later pages slide by the calls that arrived meanwhile,
//   settled calls crossing their edges, and its page after the last counts fewer (page-shift.ts, the
//   growth of the unfiltered list in growing-list.ts). Before, seeds 1, 2 and 6 each showed a
//   membership and a total behaviour change (exit 1).
// - And behind the same replica, a candidate whose pages overlap is still a regression where its own
//   pages, naming one total, share a call, though each of its answers differs from the primary's by
//   the slide alone (diff-outcome.ts's findings across requests). Where the store moves between its
//   pages, an overlap of one call is what an arrival makes: the pages cannot tell it from the fault.
import { test, expect } from '@playwright/test';
import { diffAgainstFault } from './fault-diff.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import type { AnswerAges } from '../../reference/answer-age.ts';
import type { Fault } from '../../reference/faults/fault.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { HEAD_START_SECONDS } from '../../reference/live/living-calls.ts';

test.describe.configure({ mode: 'parallel', timeout: 120_000 });

const aged = async (fault: Fault | undefined, seed: number, answerAge: AnswerAges) => {
  const outcome = await diffAgainstFault(fault, seed, { aged: { live: 1, calls: 1000, answerAge } });
  const found = outcome.findings.map(
    ({ verdict, operation, path, kind, because }) => `${verdict} ${operation} ${path} ${kind} ${because.join(',')}`,
  );
  return { found, exitCode: outcome.exitCode };
};

for (const seed of [2, 6]) {
  test(`seed ${seed}: a clean candidate whose Get Call answers from a replica 5 s behind, on a living store, differs in nothing`, async () => {
    expect(await aged(undefined, seed, { get: { mode: 'replica', seconds: 5 } })).toEqual({ found: [], exitCode: 0 });
  });
}

for (const seed of [1, 2, 6]) {
  test(`seed ${seed}: a clean candidate whose lists answer from a replica 10 s behind, on a living store, differs in nothing`, async () => {
    expect(await aged(undefined, seed, { list: { mode: 'replica', seconds: 10 } })).toEqual({ found: [], exitCode: 0 });
  });
}

// Time held still 15 minutes into the store's life, so that every run sees the same: the candidate's
// replica ten seconds behind holds ten calls fewer, its pages slide by them and name its own one
// total (MAX_ANSWER_AGE=60 says answers so old are allowed). Its pages then overlap on its own
// answers, which is what the finding rests on: no pair of answers differs beyond the slide.
test('behind a list replica 10 s behind, a candidate whose pages overlap is a regression of PAGINATION-PAGES-PARTITION; a clean one differs in nothing', async () => {
  const clock = () => DATA_NOW + HEAD_START_SECONDS + 900;
  const held = (fault: Fault | undefined) =>
    diffAgainstFault(fault, 1, {
      aged: { live: 1, calls: 1000, clock, maxAnswerAge: 60, answerAge: { list: { mode: 'replica', seconds: 10 } } },
    });
  const overlap = await held(findFault('pages-overlap-from-page-2'));
  expect(overlap.findings.map(({ verdict, path, because }) => `${verdict} ${path} ${because.join(',')}`)).toEqual([
    'regression data[] PAGINATION-PAGES-PARTITION',
  ]);
  expect(overlap.exitCode).toBe(1);
  const clean = await held(undefined);
  expect(clean.findings).toEqual([]);
  expect(clean.exitCode).toBe(0);
});
