// A failing requirement is checked again before it is judged: Playwright retries the failed test,
// with the same seed, and a requirement that fails only sometimes is reported intermittent, with its
// counts, apart from one that fails every time. In front of a correct reference, a proxy breaks the
// answer to List Calls without a key (AUTH-EMPTY-KEY: it lists calls instead of refusing), on every
// other such request, or on all of them; only the test that sends that one request is run.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { proxyInFront } from '../runner/proxy-in-front.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

const GREP = 'AUTH-EMPTY-KEY GET /calls without';
const REQUIREMENT = 'AUTH-EMPTY-KEY';

/** A run of the one test, against the reference behind a proxy that breaks the keyless list requests `breaks` picks (by their number, from 0). */
async function runBreaking(breaks: (n: number) => boolean) {
  const reference = createServer({ seed: 6, calls: 300 });
  let keyless = 0;
  const proxy = await proxyInFront(await reference.listen(0), (incoming, outgoing) => {
    const listing = /^\/v3\/calls(\?|$)/.test(incoming.url ?? '');
    if (!listing || incoming.headers.apikey !== undefined || !breaks(keyless++)) return false;
    outgoing
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"data":[],"meta":{"pagination":{"total":0,"count":0,"current_page":1,"total_pages":0}}}');
    return true;
  });
  try {
    const reports = freshDir('report-intermittent');
    const run = await runScript(
      CLI.conformance,
      ['--grep', GREP, `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(proxy.base), REPORT_DIR: reports },
      SUITE_RUN_TIMEOUT_MS,
    );
    return { run, results: readReports(reports).results, html: readReports(reports).html, keyless };
  } finally {
    await proxy.close();
    await reference.close();
  }
}

test('a target that breaks a requirement on every other request is reported intermittent, with its counts, and fails the verdict', async () => {
  const { run, results, html, keyless } = await runBreaking((n) => n % 2 === 0);
  expect(keyless, 'the test was run again after it failed').toBe(2);
  const result = results.requirements.find((entry) => entry.id === REQUIREMENT);
  expect(result).toMatchObject({ status: 'intermittent', attempts: { violated: 1, judged: 2 } });
  expect(results.summary.intermittent).toEqual([REQUIREMENT]);
  expect(results.verdict).toBe('NON-CONFORMANT');
  expect(results.verdictReason).toContain(`${REQUIREMENT} (intermittent, 1 of 2 attempts)`);
  expect(results.failures).toEqual([
    expect.objectContaining({
      requirements: [REQUIREMENT],
      attempts: { failed: 1, total: 2 },
      message: expect.stringContaining('AUTH_ERR_EMPTY_APIKEY'),
    }),
  ]);
  expect(run.code).toBe(1);
  expect(html).toMatch(
    new RegExp(
      `<tr id="req-${REQUIREMENT}"[^>]*data-status="intermittent"[^>]*><td><span class="badge s-intermittent">≈ INTERMITTENT</span>`,
    ),
  );
});

test('a target that breaks it every time fails it, deterministically, after the retry', async () => {
  const { run, results, keyless } = await runBreaking(() => true);
  expect(keyless).toBe(2);
  expect(results.requirements.find((entry) => entry.id === REQUIREMENT)).toMatchObject({
    status: 'fail',
    attempts: { violated: 2, judged: 2 },
  });
  expect(results.summary.intermittent).toEqual([]);
  expect(results.failures).toEqual([expect.objectContaining({ attempts: { failed: 2, total: 2 } })]);
  expect(run.code).toBe(1);
});
