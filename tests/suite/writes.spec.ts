// Mark-unread is the interface's only write: against a remote target it runs only when allowed.
import { test, expect } from '@playwright/test';
import { runSuite, specsOf } from '../runner/run-suite.ts';
import { startBrokenTarget } from './breaking-proxy.ts';

test('against a remote target without ALLOW_WRITES, every mark-unread test is skipped with the reason, and none is sent', async () => {
  const methods: string[] = [];
  const target = await startBrokenTarget({ request: (request) => (methods.push(request.method), request) });
  try {
    const { ALLOW_WRITES, GROUP_GUID, MESSAGE_ID, ACTING_UID, ...readOnly } = target.env;
    const run = await runSuite(['--project=conformance', '--reporter=json', '--grep', '@mark-unread'], readOnly);

    expect(run.code, run.stderr).toBe(0);
    const tests = specsOf(JSON.parse(run.stdout)).map((spec) => spec.tests[0]!);
    expect(tests.length).toBeGreaterThanOrEqual(10);
    for (const entry of tests) {
      expect(entry.results[0]!.status).toBe('skipped');
      expect(entry.annotations).toContainEqual(
        expect.objectContaining({ type: 'skip', description: expect.stringContaining('ALLOW_WRITES=true') }),
      );
    }
    expect(methods.filter((method) => method !== 'GET')).toEqual([]);
  } finally {
    await target.close();
  }
});
