// A run against the reference with a fault: `npm run conformance` exits 1 with a NON-CONFORMANT
// verdict, and each of the three reports names the requirements the fault breaks. The HTML report
// is then opened in a real browser (Debian's chromium), which must show the verdict and the matrix.
import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { loadCatalog } from '../../openapi/catalog.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { launchChromium, openOffline, skipWithoutChromium } from '../chromium.ts';
import { freshDir, once, readReports, runConformance, SUITE_RUN_TIMEOUT_MS, withReference } from './report-runs.ts';

const FAULT = 'get-answers-next-call';
const declared = findFault(FAULT)!.requirements;
const catalog = loadCatalog();
/** Debian's package; Playwright's own browser downloads are not used (they cannot be fetched here). */

test.describe.configure({ mode: 'default' });
test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

const faultyRun = once(async () => {
  const dir = freshDir('report-faulty');
  const run = await withReference(FAULT, (base) => runConformance(dir, [], referenceTargetEnv(base)));
  return { run, dir, reports: readReports(dir) };
});

test(`npm run conformance against the reference with the fault ${FAULT} exits 1 and reports it NON-CONFORMANT`, async () => {
  const { run, reports } = await faultyRun();
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain('Conformance verdict: NON-CONFORMANT.');
  const { results } = reports;
  expect(results.verdict).toBe('NON-CONFORMANT');
  expect(results.exitCode).toBe(1);
  for (const id of declared) {
    expect(results.summary.mustFailed).toContain(id);
    expect(results.requirements.find((entry) => entry.id === id)?.status).toBe('fail');
  }
  const failure = results.failures.find((entry) => entry.requirements.some((id) => declared.includes(id)));
  expect(failure?.message).toMatch(/Expected: [\s\S]*Received: [\s\S]*Reproduce with:\s+curl /);
  // Run through the command line, the rerun line names it (core/results/replay-command.ts says why).
  expect(failure?.rerun).toMatch(/^CONFORMANCE_SEED=\d+ npm run conformance -- run suite\/\S+\.spec\.ts:\d+$/);
});

test('the JUnit report of the faulty run has a failure for each requirement the fault breaks', async () => {
  const { junit, results } = (await faultyRun()).reports;
  for (const id of declared) expect(junit).toMatch(new RegExp(`name="${id} \\[MUST\\][^"]*">\\n\\s*<failure `));
  expect(junit).toContain(`failures="${results.summary.requirements.fail}"`);
  expect(junit).toContain('<property name="verdict" value="NON-CONFORMANT"/>');
});

test('the HTML report opens offline in Chromium and shows the verdict, the matrix and the failures', async ({}, testInfo) => {
  skipWithoutChromium();
  const { dir, reports } = await faultyRun();
  const browser = await launchChromium();
  try {
    // Self-contained: the report may load nothing but itself.
    const { page, requested } = await openOffline(browser, join(dir, 'index.html'));

    await expect(page.locator('#verdict')).toHaveText('✘ NON-CONFORMANT');
    await expect(page.locator('#verdict')).toBeVisible();
    await expect(page.locator('table.matrix tr[data-requirement]')).toHaveCount(catalog.requirements.length);
    await expect(page.locator('table.glance a.tile')).toHaveCount(catalog.requirements.length);
    for (const id of declared) {
      const row = page.locator(`table.matrix tr[data-requirement="${id}"]`);
      await expect(row).toContainText('✘ FAIL');
      await expect(page.locator(`table.glance a.tile[href="#req-${id}"]`)).toHaveText('✘');
      // From the failed requirement to its failure, with Expected/Received.
      await row.locator('.see-failure a').first().click();
      await expect(page.locator('article.failure:target')).toContainText('Expected:');
    }
    await expect(page.locator('#failures article.failure')).toHaveCount(reports.results.failures.length);
    await expect(page.locator('#failures')).toContainText('Reproduce with:');
    await expect(page.locator('#requests svg rect')).toHaveCount(2 * reports.results.operations.length);
    // What the suite learned of the target, each subject with the reading it judged by.
    expect(reports.results.readings.map((reading) => reading.subject)).toEqual([
      'call-minutes',
      'participant-count',
      'participants-count-filter',
      'took-part',
      'started-at-filter',
      'ended-at-filter',
      'page-selection',
      'get-call-envelope',
      'call-timer',
    ]);
    await expect(page.locator('#readings .reading')).toHaveCount(reports.results.readings.length);
    // The reference's timers are its calls' spans, where its minutes are the entries' sums.
    await expect(page.locator('#reading-call-timer tr[data-status="accepted"]')).toContainText('call-span');
    await expect(page.locator('#reading-call-timer tr[data-status="ruled-out"]')).toContainText('call-minutes');
    await expect(page.locator('#reading-call-minutes tr[data-status="accepted"]')).toContainText('sum-of-entries');
    await expect(page.locator('#reading-call-minutes tr[data-status="ruled-out"]')).toContainText('Ruled out: call');
    await page.locator('table.matrix tr[data-requirement="CALL-MINUTES-SUM-OVER-PARTICIPANTS"] .judged-under a').click();
    await expect(page.locator('.reading:target')).toHaveAttribute('data-subject', 'call-minutes');
    // Colour is never the only sign: every outcome badge spells its outcome.
    for (const text of await page.locator('table.matrix .badge').allTextContents())
      expect(text).toMatch(/^. (PASS|FAIL|WARN|ERROR|SKIP|UNCOVERED|NOT TESTABLE)$/);

    const screenshot = testInfo.outputPath('conformance-report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach('conformance report (faulty run)', { path: screenshot, contentType: 'image/png' });

    // Printable: the print layout hides the navigation and still leads with the verdict.
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('nav')).toBeHidden();
    await expect(page.locator('#verdict')).toBeVisible();
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // The JUnit report is well-formed XML, as the browser's own parser reads it.
    const parsed = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      return { errors: doc.getElementsByTagName('parsererror').length, cases: doc.getElementsByTagName('testcase').length };
    }, reports.junit);
    // One test case per requirement the interface can show: the not-testable ones are properties of their section.
    const notTestable = reports.results.requirements.filter((requirement) => requirement.status === 'not-testable');
    expect(parsed).toEqual({ errors: 0, cases: catalog.requirements.length - notTestable.length });
    expect(requested).toEqual([]);
  } finally {
    await browser.close();
  }
});
