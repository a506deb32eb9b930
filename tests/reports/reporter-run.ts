// The conformance reporter run over hand-made test ends, as Playwright would call it, without a run:
// its folder, with the files it wrote. The console summary it prints when the run ends is kept out
// of the test's own output.
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import type { RunMetadata } from '../../core/results/report-model.ts';
import ConformanceReporter from '../../reports/conformance-reporter.ts';
import { METADATA_KEY } from '../../reports/run-metadata.ts';
import { freshDir } from '../fresh-dir.ts';

export async function reporterRun(name: string, metadata: RunMetadata, ends: ReadonlyArray<[TestCase, TestResult]>): Promise<string> {
  const dir = freshDir(name);
  const reporter = new ConformanceReporter({ outputFolder: dir });
  reporter.onBegin({ projects: [], metadata: { [METADATA_KEY]: metadata } } as unknown as FullConfig, {} as Suite);
  for (const [testCase, result] of ends) reporter.onTestEnd(testCase, result);
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await reporter.onEnd({ status: 'passed', startTime: new Date(), duration: 1 });
  } finally {
    process.stdout.write = write;
  }
  return dir;
}
