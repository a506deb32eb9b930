// A Playwright reporter for the kill matrix: one JSON line per finished test on stdout, naming its
// project (the matrix's row, matrix.config.ts), when it started and ended, and the requirements it
// reported as violated and as warnings, and one line when the run ends. The matrix reads them as
// they come: when each row first named what its fault breaks, and how long each row took.
import type { Reporter, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import { notesOf, type NoteKind } from '../../core/results/annotations.ts';
import { loadCatalog } from '../../openapi/catalog.ts';

export interface DetectionLine {
  /** The project (row) the test ran in; empty on the run's end line. */
  project: string;
  /** Epoch milliseconds when the test started and ended. */
  startedAt: number;
  at: number;
  status: TestResult['status'] | 'end';
  violations: string[];
  warnings: string[];
}

const idsOf = (result: TestResult, kind: NoteKind) =>
  notesOf(result.annotations, kind, loadCatalog().byId.keys()).map((note) => note.requirement);

export default class DetectionReporter implements Reporter {
  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.emit({
      project: test.parent.project()?.name ?? '',
      startedAt: result.startTime.getTime(),
      at: Date.now(),
      status: result.status,
      violations: idsOf(result, 'violation'),
      warnings: idsOf(result, 'warning'),
    });
  }

  onEnd(_result: FullResult): void {
    const now = Date.now();
    this.emit({ project: '', startedAt: now, at: now, status: 'end', violations: [], warnings: [] });
  }

  private emit(line: DetectionLine): void {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
