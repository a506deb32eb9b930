// A reporter for the benchmark: when the runner began (the web server already up), when the first
// test started, when the run ended, and how many tests ran, written as one JSON line to the file
// BENCH_TIMING_FILE names. Epoch milliseconds, to compare with the benchmark's own clock.
import { writeFileSync } from 'node:fs';
import type { Reporter } from '@playwright/test/reporter';

export interface RunTiming {
  begin: number;
  firstTest: number | undefined;
  end: number;
  tests: number;
}

export default class TimingReporter implements Reporter {
  private begin = 0;
  private firstTest: number | undefined;
  private tests = 0;

  onBegin(): void {
    this.begin = Date.now();
  }

  onTestBegin(): void {
    this.firstTest ??= Date.now();
  }

  onTestEnd(): void {
    this.tests += 1;
  }

  onEnd(): void {
    const timing: RunTiming = { begin: this.begin, firstTest: this.firstTest, end: Date.now(), tests: this.tests };
    const file = process.env.BENCH_TIMING_FILE;
    if (file) writeFileSync(file, `${JSON.stringify(timing)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
