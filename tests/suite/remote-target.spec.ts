// A target across a network: the reference behind a proxy that holds each request for 20 ms. The
// default run keeps several requests waiting together, never more than MAX_IN_FLIGHT, and sends the
// same requests, every one, as a run that sends them one at a time (MAX_IN_FLIGHT=1), with the same
// verdict. How much faster it is, is the benchmark's to say (npm run bench), not a timed test's.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { startLatencyProxy } from '../bench/latency-proxy.ts';
import { referenceTargetEnv, runSuite, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { freshDir, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

test('against a target 20 ms away, requests wait together up to MAX_IN_FLIGHT, and the run sends exactly the requests of a run that sends one at a time', async () => {
  const reference = createServer({ seed: 5, calls: 600 });
  const proxy = await startLatencyProxy(await reference.listen(0), 20);
  try {
    const run = async (env: Record<string, string>) => {
      proxy.reset();
      const reports = freshDir('report-remote');
      const result = await runSuite(
        ['--project=conformance'],
        { ...referenceTargetEnv(proxy.base), CONFORMANCE_SEED: SELF_TEST_SEED, CONFORMANCE_RUNS: '5', REPORT_DIR: reports, ...env },
        SUITE_RUN_TIMEOUT_MS,
      );
      expect(result.code, result.stdout.slice(-3000)).toBe(0);
      return { verdict: readReports(reports).results.verdict, seen: proxy.seen(), most: proxy.mostInFlight() };
    };
    const alone = await run({ MAX_IN_FLIGHT: '1' });
    const together = await run({ MAX_IN_FLIGHT: '6' });

    expect(alone.verdict).toBe('CONFORMANT');
    expect(together.verdict).toBe('CONFORMANT');
    expect(alone.most).toBe(1);
    expect(together.most).toBeGreaterThan(2);
    expect(together.most).toBeLessThanOrEqual(6);
    expect(together.seen.length).toBe(alone.seen.length);
    expect([...together.seen].sort()).toEqual([...alone.seen].sort());
  } finally {
    await proxy.close();
    await reference.close();
  }
});
