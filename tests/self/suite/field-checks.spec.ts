// The field tests hold a call fetched alone (Get Call) to the contract besides the lists learned
// from the target. It is fetched once per worker, not once per test: a whole worker's field tests
// send one Get Call, and a field Get Call breaks while List Calls shows it right still fails its test.
import { test, expect } from '@playwright/test';
import { createServer } from '../../../reference/server.ts';
import type { Fault } from '../../../reference/faults/fault.ts';
import { referenceTargetEnv, runSuite, specsOf } from '../runner/run-suite.ts';

/** Get Call (never List Calls) shows startedAt as an ISO 8601 string instead of UNIX seconds. */
const STARTED_AT_AS_ISO_IN_GET_CALL: Fault = {
  name: 'started-at-as-iso-in-get-call',
  description: 'Get Call shows startedAt as an ISO 8601 string; List Calls shows UNIX seconds.',
  requirements: ['CALL-FIELD-STARTED-AT'],
  hooks: () => ({
    showCall: (call, where) => (where === 'get' && typeof call.startedAt === 'number' ? { ...call, startedAt: new Date(call.startedAt * 1000).toISOString() } : call),
  }),
};

/** A reference on loopback that counts the Get Call requests reaching it. */
async function countingReference(fault?: Fault) {
  const reference = createServer({ seed: 5, calls: 300, ...(fault && { fault }) });
  const getCalls: string[] = [];
  reference.server.on('request', (incoming) => {
    if (/^\/v3\/calls\/[^?]/.test(incoming.url ?? '')) getCalls.push(incoming.url ?? '');
  });
  const base = await reference.listen(0);
  return { base, getCalls, close: () => reference.close() };
}

const FIELD_TESTS = 'CALL-FIELD-|PARTICIPANT-FIELD-';

test('one worker\'s field tests send one Get Call between them, and all pass against the reference', async () => {
  const target = await countingReference();
  try {
    const run = await runSuite(['--project=conformance', '--reporter=json', '--workers=1', '--grep', FIELD_TESTS], referenceTargetEnv(target.base));
    expect(run.code, run.stderr).toBe(0);
    const results = specsOf(JSON.parse(run.stdout)).map((spec) => spec.tests[0]!.results[0]!.status);
    expect(results.length).toBeGreaterThanOrEqual(20);
    expect(results.every((status) => status === 'passed')).toBe(true);
    expect(target.getCalls).toHaveLength(1);
  } finally {
    await target.close();
  }
});

test('a field that only Get Call shows wrong fails its field test, from the call fetched alone', async () => {
  const target = await countingReference(STARTED_AT_AS_ISO_IN_GET_CALL);
  try {
    const run = await runSuite(['--project=conformance', '--reporter=json', '--grep', 'CALL-FIELD-STARTED-AT '], referenceTargetEnv(target.base));
    expect(run.code).toBe(1);
    const [spec] = specsOf(JSON.parse(run.stdout));
    const attempts = spec!.tests[0]!.results;
    for (const result of attempts) {
      expect(result.status).toBe('failed');
      expect(result.error?.message).toContain('CALL-FIELD-STARTED-AT');
      expect(result.error?.message).toMatch(/GET \S*\/v3\/calls\/[^?\s]/);
    }
    // A failed test is tried again in a new worker, which fetches its own.
    expect(target.getCalls).toHaveLength(attempts.length);
  } finally {
    await target.close();
  }
});
