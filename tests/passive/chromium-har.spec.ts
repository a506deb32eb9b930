// A HAR as Playwright's recordHar writes it, from a real Chromium (Debian's /usr/bin/chromium,
// never a browser download): the page and the browser context's own request client fetch calls
// from the reference with a key, and the HAR it writes is judged without a violation, the key in
// no output. The suite's own traffic cannot be recorded this way (APIRequestContext has no
// recordHar; recording-forwarder.ts records it on the wire instead), so this test holds the reader
// to the format Playwright and Chromium really write.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { launchChromium, skipWithoutChromium } from '../chromium.ts';

test("a HAR recorded by Playwright's recordHar in Chromium is read and judged: no violation, no key in any output", async () => {
  skipWithoutChromium();
  const reference = createServer({ calls: 200 });
  const base = await reference.listen(0);
  const dir = freshDir('passive-chromium');
  const har = join(dir, 'chromium.har');
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      recordHar: { path: har, content: 'embed' },
      extraHTTPHeaders: { apikey: reference.keys.fullAccess },
    });
    const page = await context.newPage();
    await page.goto(`${base}/calls?status=ended`);
    const listed = JSON.parse(await page.locator('body').innerText()) as { data: Array<{ sessionId: string }> };
    await page.goto(`${base}/calls/${encodeURIComponent(listed.data[0]!.sessionId)}`);
    await context.request.get(`${base}/calls?type=video`);
    await context.close();
  } finally {
    await browser.close();
    await reference.close();
  }
  const reportDir = freshDir('passive-chromium-report');
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: reportDir });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const { results } = readReports(reportDir);
  expect(results.passive?.exchanges).toBeGreaterThanOrEqual(2);
  expect(results.verdict).toBe(`NO VIOLATIONS IN ${results.passive?.exchanges} EXCHANGES`);
  const outputs = [run.stdout, run.stderr, ...readdirSync(reportDir).map((file) => readFileSync(join(reportDir, file), 'utf8'))].join('\n');
  expect(outputs).not.toContain(reference.keys.fullAccess);
});
