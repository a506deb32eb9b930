// The product's conformance reporter, once per project of a kill-matrix run (matrix.config.ts): each
// project judged its own target, so each gets the report a run of its own would have written, into
// REPORT_DIR/<project>/, from its own tests and its own metadata. The verdict is the product's
// (build-report.ts through ConformanceReporter), not one of the matrix's own making.
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import ConformanceReporter from '../../reports/conformance-reporter.ts';
import { environment, reportDirectory } from '../../core/run/config.ts';
import { reportFolderOf } from './matrix-plan.ts';

export default class PerProjectReporter implements Reporter {
  private readonly reporters = new Map<string, ConformanceReporter>();
  private readonly base = reportDirectory(environment());

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    for (const project of config.projects) {
      const reporter = new ConformanceReporter({ outputFolder: join(this.base, reportFolderOf(project.name)) });
      reporter.onBegin({ ...config, metadata: project.metadata }, suite);
      this.reporters.set(project.name, reporter);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name;
    if (project !== undefined) this.reporters.get(project)?.onTestEnd(test, result);
  }

  /** An error of the run belongs to every project's report: none can say it was not theirs. */
  onError(error: TestError): void {
    for (const reporter of this.reporters.values()) reporter.onError(error);
  }

  async onEnd(result: FullResult): Promise<void> {
    // Each writes its files and prints its summary; the run's own status is the matrix's to judge.
    for (const reporter of this.reporters.values()) await reporter.onEnd(result);
  }
}
