// A target whose busiest call has 100,000 participant entries, each missing its state and minutes
// (issue 46, item 2: such a page made the run spin for 15 minutes and more, with no report). The
// suite's tests that meet it give their verdict with the reports: every entry judged, a few of each
// requirement's violations described and the rest counted. A part of the suite, the tests of the
// call's invariants and of one filter, keeps the self-test short; the whole suite against it is the
// bench's to time (`npm run bench -- --answer-size-only`).
import { test, expect } from '@playwright/test';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { freshDir, readReports, runConformance } from '../reports/report-runs.ts';
import { startLargeAnswerTarget } from './large-answer-target.ts';
import { STACK_TRACE } from './stack-trace.ts';

const ENTRIES = 100_000;
const GREP = 'CALL-PARTICIPANTS-AT-MOST-50|CALLS-LIST-FILTER-STATUS ';

test(`a call of ${ENTRIES.toLocaleString('en')} participant entries each missing fields: NON-CONFORMANT with the reports, each requirement's violations described a few times and counted`, async () => {
  test.setTimeout(300_000);
  const target = await startLargeAnswerTarget(ENTRIES);
  try {
    expect(target.firstPageBytes).toBeGreaterThan(3_000_000);
    const reports = freshDir('report-large-answer');
    const run = await runConformance(reports, ['--grep', GREP], { ...referenceTargetEnv(target.base) });
    const { results } = readReports(reports);
    expect(results.verdict, run.stdout.slice(-3000)).toBe('NON-CONFORMANT');
    expect(target.shown()).toBeGreaterThan(0);
    const status = (id: string) => results.requirements.find((requirement) => requirement.id === id)?.status;
    for (const id of ['CALL-PARTICIPANTS-AT-MOST-50', 'PARTICIPANT-FIELD-STATE', 'PARTICIPANT-FIELD-TOTAL-AUDIO-MINUTES'])
      expect(status(id), id).toBe('fail');
    // No test was cut short by the answer: each ended with its own outcome.
    expect(results.requirements.filter((requirement) => requirement.status === 'error').map((requirement) => requirement.id)).toEqual([]);
    const failure = results.failures.find((entry) => entry.requirements.includes('PARTICIPANT-FIELD-STATE'));
    // Described five times, and the rest counted: the 99,995 others of the answer, and of every answer that showed the call.
    const more = /…and (\d+) more violations/.exec(failure?.message ?? '');
    expect(more, failure?.message.slice(-500)).not.toBeNull();
    expect(Number(more![1])).toBeGreaterThanOrEqual(ENTRIES - 5);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(STACK_TRACE);
  } finally {
    await target.close();
  }
});
