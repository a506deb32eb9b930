// A flaky network is not the target's failure: in front of a correct reference, a proxy answers some
// requests 503 and resets the connection of others. The run retries them with backoff and still
// ends CONFORMANT; the report counts every request sent, retries included.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { proxyInFront } from '../runner/proxy-in-front.ts';
import { preflightRequests, referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

test('503s and connection resets on some requests are retried, and the run is still CONFORMANT', async () => {
  const reference = createServer({ seed: 9, calls: 500 });
  const seen = { requests: 0, unavailable: 0, reset: 0 };
  const proxy = await proxyInFront(await reference.listen(0), (incoming, outgoing) => {
    const n = seen.requests++;
    if (n % 23 === 11) {
      seen.unavailable += 1;
      outgoing.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"ERR_UNAVAILABLE"}}');
      return true;
    }
    if (n % 37 === 19) {
      seen.reset += 1;
      incoming.socket.destroy();
      return true;
    }
    return false;
  });
  try {
    const reports = freshDir('report-flaky');
    const run = await runScript(
      CLI.conformance,
      ['--grep', 'CALLS-GET|AUTH-|CALLS-LIST-OK ', `--output=${freshDir('artefacts')}`],
      { ...referenceTargetEnv(proxy.base), REPORT_DIR: reports },
      SUITE_RUN_TIMEOUT_MS,
    );

    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    const results = readReports(reports).results;
    expect(results.verdict).toBe('CONFORMANT');
    expect(seen.unavailable).toBeGreaterThan(3);
    expect(seen.reset).toBeGreaterThan(2);
    // Every request that reached the proxy is counted, the faulted ones too, besides the preflight's.
    expect(results.summary.requests).toBe(seen.requests - preflightRequests(referenceTargetEnv(proxy.base)));
  } finally {
    await proxy.close();
    await reference.close();
  }
});
