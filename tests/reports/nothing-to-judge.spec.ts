// An invariant of what not every call shows passes only where a call showed it. Against a target of
// three calls, none with a recording, the recording requirements are reported not judged, saying
// why, never passed; against the reference's 1,000 calls, the same tests judge and pass.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { readReports, freshDir } from './report-runs.ts';
import { referenceTargetEnv, runSuite } from '../runner/run-suite.ts';

const RECORDING_REQUIREMENTS = ['RECORDING-FIELDS', 'RECORDING-END-NOT-BEFORE-START', 'RECORDING-MEANS-HAS-RECORDING'];

async function statusesAgainst(calls: number) {
  const reference = createServer({ calls });
  const base = await reference.listen(0);
  const dir = freshDir('report-nothing-to-judge');
  try {
    await runSuite(['--project=conformance', '--grep', 'RECORDING-'], { ...referenceTargetEnv(base), REPORT_DIR: dir });
  } finally {
    await reference.close();
  }
  const { results } = readReports(dir);
  return RECORDING_REQUIREMENTS.map((id) => results.requirements.find((entry) => entry.id === id)!);
}

test('a target whose calls show no recording: the recording requirements are not judged, saying why, rather than passed', async () => {
  for (const entry of await statusesAgainst(3)) {
    expect(entry.status, entry.id).toBe('skip');
    expect(entry.reason, entry.id).toMatch(
      /^Not judged: none of the \d+ calls sampled and fetched is a call that shows a recording record\.$/,
    );
  }
});

test('a target whose calls show recordings: the same requirements are judged, and pass', async () => {
  for (const entry of await statusesAgainst(1_000)) expect(entry.status, entry.id).toBe('pass');
});
