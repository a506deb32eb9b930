// The whole suite against the embedded reference answering Get Call in each envelope the suite
// accepts (REFERENCE_GET_ENVELOPE): under the spec profile each is CONFORMANT and the report names
// the envelope learned, in its Readings section and on the requirements judged under it; under the
// strict profile, which requires the deployment's current {"data": call}, the array and the bare
// call fail the envelope requirement, and only it.
import { test, expect } from '@playwright/test';
import { GET_ENVELOPES } from '../../reference/get-envelope.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS } from './report-runs.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

for (const envelope of GET_ENVELOPES) {
  test(`the reference answering Get Call ${envelope}: npm run conformance exits 0, CONFORMANT, and reports ${envelope} as the envelope it learned`, async () => {
    const dir = freshDir(`report-get-${envelope}`);
    const run = await runConformance(dir, [], { REFERENCE_GET_ENVELOPE: envelope });
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    const { results, html } = readReports(dir);
    expect(results.verdict).toBe('CONFORMANT');
    expect(results.summary.requirements.error).toBe(0);
    const reading = results.readings.find((entry) => entry.subject === 'get-call-envelope');
    expect(reading?.candidates.filter((candidate) => candidate.status === 'accepted').map((candidate) => candidate.id)).toEqual([envelope]);
    for (const id of ['CALLS-GET-OK', 'CALLS-GET-ENVELOPE']) {
      expect(results.requirements.find((entry) => entry.id === id)?.readings, id).toEqual([
        { subject: 'get-call-envelope', accepted: [envelope] },
      ]);
    }
    if (envelope !== 'data-object') expect(results.run.target).toContain(`Get Call answering ${envelope}`);
    expect(html).toMatch(
      new RegExp(`<div class="reading" id="reading-get-call-envelope"[\\s\\S]*?data-candidate="${envelope}" data-status="accepted"`),
    );
  });
}

for (const envelope of GET_ENVELOPES.filter((entry) => entry !== 'data-object')) {
  test(`the reference answering Get Call ${envelope}, under the strict profile: the run fails CALLS-GET-ENVELOPE and nothing else`, async () => {
    const dir = freshDir(`report-get-${envelope}-strict`);
    const run = await runConformance(dir, [], { REFERENCE_GET_ENVELOPE: envelope, CONFORMANCE_PROFILE: 'strict' });
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    const { results } = readReports(dir);
    expect(results.verdict).toBe('NON-CONFORMANT');
    expect(results.summary.mustFailed).toEqual(['CALLS-GET-ENVELOPE']);
    expect(results.summary.requirements.error).toBe(0);
  });
}
