// A HAR of the suite's own run against the reference (clean or with a fault of the catalog),
// recorded on the wire by a forwarder between the two (recording-forwarder.ts says why not recordHar).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceTargetEnv, SELF_TEST_SEED } from '../runner/run-suite.ts';
import { freshDir, runConformance, withReference } from '../reports/report-runs.ts';
import { harOf, startRecordingForwarder } from './recording-forwarder.ts';

export interface RecordedRun {
  har: string;
  entries: number;
  /** The suite's own exit code on that run. */
  suiteCode: number | null;
}

export async function recordSuiteHar(fault: string | undefined, args: string[] = []): Promise<RecordedRun> {
  const dir = freshDir('passive-har');
  return withReference(fault, async (base) => {
    const forwarder = await startRecordingForwarder(base, { base64Every: 7 });
    try {
      const run = await runConformance(join(dir, 'suite-report'), args, {
        ...referenceTargetEnv(forwarder.base),
        CONFORMANCE_SEED: SELF_TEST_SEED,
      });
      const har = join(dir, fault === undefined ? 'reference.har' : `${fault}.har`);
      writeFileSync(har, JSON.stringify(harOf(forwarder.entries)));
      return { har, entries: forwarder.entries.length, suiteCode: run.code };
    } finally {
      await forwarder.close();
    }
  });
}
