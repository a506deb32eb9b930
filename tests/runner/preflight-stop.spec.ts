// The kill matrix asks each row's target what a user's run asks it first (tests/faults/preflight-stop.ts):
// a fault that refuses every key stops the row before its tests, as it stops a user's run (exit 2,
// one line naming API_KEY), and the row counts it as caught, saying how it was stopped, without
// starting Playwright; the clean reference is not stopped, and its preflight is not in its counts.
import { test, expect } from '@playwright/test';
import { findFault } from '../../reference/faults/catalog.ts';
import { createServer } from '../../reference/server.ts';
import { runRows } from '../faults/kill-matrix.ts';
import { preflightStop } from '../faults/preflight-stop.ts';
import { referenceTargetEnv } from './run-suite.ts';

test('a fault that refuses every key: the row is stopped before its tests with the preflight line, exit 2, and counted as caught', async () => {
  const fault = findFault('every-key-refused')!;
  const [row] = await runRows([{ fault, options: { retries: 0 } }], { workers: 1, timeoutMs: 60_000 });
  expect(row).toMatchObject({
    fault: 'every-key-refused',
    expected: 'fail',
    outcome: 'killed',
    verdict: 'stopped before the tests',
    exitCode: 2,
    testsRun: 0,
    missed: [],
    stopped: expect.stringMatching(
      /^Configuration error: API_KEY is not a key the target knows: GET \S+ with API_KEY answered status 401 with AUTH_ERR_APIKEY_NOT_FOUND/,
    ),
  });
  expect(row!.requests).toBe(1);
});

test('the clean reference is not stopped by the preflight, which knows its keys and its acting user', async () => {
  const reference = createServer({ calls: 50 });
  try {
    expect(await preflightStop(referenceTargetEnv(await reference.listen(0)))).toBeUndefined();
  } finally {
    await reference.close();
  }
});
