// A Playwright reporter for the kill matrix: one JSON line per finished test on stdout, naming the
// requirements it reported as violated and as warnings, and one line when the run ends. The matrix
// reads them as they come, so it can stop a run once a fault has been caught.
import type { Reporter, FullResult, TestCase, TestResult } from '@playwright/test/reporter';

export interface DetectionLine {
  /** Epoch milliseconds when the test ended. */
  at: number;
  status: TestResult['status'] | 'end';
  violations: string[];
  warnings: string[];
}

const idsOf = (result: TestResult, type: string) =>
  result.annotations.filter((annotation) => annotation.type === type).map((annotation) => (annotation.description ?? '').split(' ')[0]!);

export default class DetectionReporter implements Reporter {
  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    this.emit({ at: Date.now(), status: result.status, violations: idsOf(result, 'violation'), warnings: idsOf(result, 'warning') });
  }

  onEnd(_result: FullResult): void {
    this.emit({ at: Date.now(), status: 'end', violations: [], warnings: [] });
  }

  private emit(line: DetectionLine): void {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
