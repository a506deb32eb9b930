// Against a rate-limited target the suite slows down instead of failing: the reference with
// --rate-limit answers 429 with the deployment's headers, and a whole run still passes, whether the
// suite can pace itself by X-Rate-Limit-Remaining or only learns of the limit from a 429. A target
// whose limit never lifts within the bound gives an INCONCLUSIVE verdict, never a false FAIL.
import { test, expect } from '@playwright/test';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '../../reference/server.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

const LIMIT = 40;

/**
 * Runs the whole suite against the reference limited to LIMIT requests a second; counts what it
 * answered. The limit is well under the rate the suite reaches even on a busy machine, so that every
 * run uses up windows: a limit it seldom reaches would prove nothing, and only on a quiet machine.
 */
async function runRateLimited(hideRemaining: boolean) {
  const reference = createServer({ rateLimit: LIMIT });
  const answered = { limited: 0, exhausted: 0 };
  // A deployment that says only Retry-After (no X-Rate-Limit-Remaining) leaves the suite nothing to
  // pace by: it meets the limit, and must wait it out.
  if (hideRemaining) {
    reference.server.prependListener('request', (_req, res) => {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (name: string, value: string | number | readonly string[]) =>
        name.toLowerCase() === 'x-rate-limit-remaining' ? res : setHeader(name, value);
    });
  }
  reference.server.on('request', (_req, res) =>
    res.on('finish', () => {
      answered.limited += res.statusCode === 429 ? 1 : 0;
      answered.exhausted += res.getHeader('x-rate-limit-remaining') === '0' ? 1 : 0;
    }),
  );
  const base = await reference.listen(0);
  try {
    const dir = freshDir('report-rate-limited');
    const run = await runScript(
      CLI.conformance,
      [`--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(base), REPORT_DIR: dir },
      SUITE_RUN_TIMEOUT_MS,
    );
    return { run, results: readReports(dir).results, answered };
  } finally {
    await reference.close();
  }
}

test(`a whole run against the reference limited to ${LIMIT} requests a second passes, pacing itself by X-Rate-Limit-Remaining`, async () => {
  const { run, results, answered } = await runRateLimited(false);
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(results.verdict).toBe('CONFORMANT');
  expect(answered.exhausted, 'the run never used up a window, so it proves nothing').toBeGreaterThan(0);
  // Held at each exhausted window, a worker never asks into it; another worker may, once.
  expect(answered.limited).toBeLessThanOrEqual(answered.exhausted);
});

test('a whole run against a limit it cannot see coming passes too, having been answered 429 and waited', async () => {
  const { run, results, answered } = await runRateLimited(true);
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(results.verdict).toBe('CONFORMANT');
  expect(answered.limited, 'the run never met the limit, so it proves nothing').toBeGreaterThan(0);
});

test('a target that answers 429 and asks for an hour gives INCONCLUSIVE (exit 3), not a failure', async () => {
  const target = createHttpServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
    res.end('{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"slow down"}}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v3`;
  try {
    const dir = freshDir('report-limited-for-good');
    const run = await runScript(
      CLI.conformance,
      ['--grep', 'CALLS-GET-NOT-FOUND ', `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(base), REPORT_DIR: dir },
      SUITE_RUN_TIMEOUT_MS,
    );
    expect(run.code, run.stdout.slice(-3000)).toBe(3);
    const { results } = readReports(dir);
    expect(results.verdict).toBe('INCONCLUSIVE');
    expect(results.summary.mustFailed).toEqual([]);
    expect(results.verdictReason).toContain('kept answering 429');
  } finally {
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  }
});
