// A requirement broken where only another requirement's test can see it: the suite run as a user
// runs it, against a reference whose status filter drops large calls (fewer calls over all status
// values than unfiltered: filter completeness), and only the test of the status filter's totals.
// That test holds CALLS-LIST-FILTER-STATUS, which holds, so it passes; the completeness violation it
// met is credited, fails in every report with its own failure record, and Playwright's own exit
// code follows the verdict.
import { test, expect } from '@playwright/test';
import { readReports, freshDir, withReference } from './report-runs.ts';
import { referenceTargetEnv, runSuite } from '../runner/run-suite.ts';

test('a violation met by a test that holds another requirement fails its own requirement, the test passes, and npx playwright test still exits 1', async () => {
  const dir = freshDir('report-credited');
  const run = await withReference('status-drops-large-calls', (base) =>
    runSuite(['--project=conformance', '--grep', 'CALLS-LIST-FILTER-STATUS the totals'], { ...referenceTargetEnv(base), REPORT_DIR: dir }),
  );
  const { results, junit } = readReports(dir);

  expect(results.summary.tests).toMatchObject({ passed: 1, failed: 0 });
  expect(results.requirements.find((entry) => entry.id === 'CALLS-LIST-FILTER-STATUS')?.status).toBe('pass');
  expect(results.requirements.find((entry) => entry.id === 'CALLS-LIST-FILTER-COMPLETENESS')?.status).toBe('fail');
  expect(results.verdict).toBe('NON-CONFORMANT');
  expect(results.failures).toEqual([
    expect.objectContaining({
      credited: true,
      status: 'passed',
      requirements: ['CALLS-LIST-FILTER-COMPLETENESS'],
      message: expect.stringMatching(
        /^Found while testing "CALLS-LIST-FILTER-STATUS the totals[\s\S]*Expected: [\s\S]*Received: [\s\S]*curl /,
      ),
    }),
  ]);
  expect(junit).toMatch(/name="CALLS-LIST-FILTER-COMPLETENESS [^"]*">\n\s*<failure /);
  expect(run.stdout).toMatch(
    /^ {2}✘ CALLS-LIST-FILTER-COMPLETENESS \(MUST, fail\): met by 1 test\(s\); first: suite\/calls-list\/\S+ "CALLS-LIST-FILTER-STATUS the totals/m,
  );
  expect(run.stdout).toContain('Conformance verdict: NON-CONFORMANT.');
  expect(run.code).toBe(1);
});
