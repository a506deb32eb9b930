// The console while the suite runs (CONFORMANCE_CONSOLE=compact, the default): how many tests are
// done and how many failed, never each failure in full. The conformance reporter then prints one
// line per failed requirement and the verdict, and the report holds every failure with its
// Expected/Received and curl line; CONFORMANCE_CONSOLE=verbose gives Playwright's list instead.
// On a terminal the progress is one line rewritten in place; in a CI log, a line at each quarter of
// the run, and another when a test ends PROGRESS_EVERY_MS or more after the last line, so that a
// long run against a slow target still shows it is moving without filling the log.
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { visibleLine } from '../core/results/visible.ts';

const PROGRESS_EVERY_MS = 15_000;

type Outcome = ReturnType<TestCase['outcome']>;

/** "40/110 tests: 38 passed, 1 failed, 1 skipped": only the counts that are not zero. */
export function describeProgress(done: number, total: number, outcomes: ReadonlyMap<Outcome, number>): string {
  const names: Array<[Outcome, string]> = [
    ['expected', 'passed'],
    ['unexpected', 'failed'],
    ['flaky', 'flaky'],
    ['skipped', 'skipped'],
  ];
  const counts = names.flatMap(([outcome, name]) => ((outcomes.get(outcome) ?? 0) > 0 ? [`${outcomes.get(outcome)} ${name}`] : []));
  return `${done}/${total} tests${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`;
}

/** The first line of a runner error, without the stack: the verdict says the rest. */
export const firstLineOf = (text: string) =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? text;

export default class ConsoleReporter implements Reporter {
  private total = 0;
  private readonly outcomes = new Map<string, Outcome>();
  private readonly started = Date.now();
  private lastLineAt = Date.now();
  private quarter = 0;
  private readonly tty = process.stdout.isTTY === true;

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    const workers = config.workers;
    this.write(`Running ${this.total} test(s) using ${workers} worker(s) (progress only; CONFORMANCE_CONSOLE=verbose lists every test)\n`);
  }

  /** A retried test counts once, with its outcome so far: done when it will not run again. */
  onTestEnd(test: TestCase, result: TestResult): void {
    const final =
      result.status === 'passed' || result.status === 'skipped' || result.retry >= test.retries || result.status === 'interrupted';
    if (!final) return;
    this.outcomes.set(test.id, test.outcome());
    const done = this.outcomes.size;
    const line = `  ${describeProgress(done, this.total, this.counts())} (${seconds(Date.now() - this.started)})`;
    if (this.tty) return void this.write(`\r\x1b[K${line}`);
    const quarter = this.total === 0 ? 4 : Math.floor((done * 4) / this.total);
    if (done < this.total && (quarter > this.quarter || Date.now() - this.lastLineAt >= PROGRESS_EVERY_MS)) {
      this.quarter = quarter;
      this.write(`${line}\n`);
    }
  }

  onError(error: TestError): void {
    this.endLine();
    this.write(`Error: ${visibleLine(firstLineOf(error.message ?? error.value ?? 'an unknown error'))}\n`);
  }

  /** The last line of progress, in place of the terminal's running one. */
  onEnd(result: FullResult): void {
    if (this.total === 0) return;
    this.write(
      `${this.tty && this.outcomes.size > 0 ? '\r\x1b[K' : ''}${describeProgress(this.outcomes.size, this.total, this.counts())} in ${seconds(result.duration)}\n`,
    );
  }

  private counts(): Map<Outcome, number> {
    const counts = new Map<Outcome, number>();
    for (const outcome of this.outcomes.values()) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    return counts;
  }

  /** On a terminal, the progress line is left for the next line to start below it. */
  private endLine(): void {
    if (this.tty && this.outcomes.size > 0) this.write('\n');
  }

  private write(text: string): void {
    process.stdout.write(text);
    this.lastLineAt = Date.now();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
