// The console while the suite runs (CONFORMANCE_CONSOLE=compact, the default): how many tests are
// done and how many failed, never each failure in full. The conformance reporter then prints one
// line per failed requirement and the verdict, and the report holds every failure with its
// Expected/Received and curl line; CONFORMANCE_CONSOLE=verbose gives Playwright's list instead.
// On a terminal the progress is one line rewritten in place; in a CI log, a line at each quarter of
// the run, and another when a test ends PROGRESS_EVERY_MS or more after the last line, so that a
// long run against a slow target still shows it is moving without filling the log.
// The counts are those of results.json's summary.tests: each test once, by how its last attempt
// ended (a known failure's test that failed is failed there too, whatever Playwright expected).
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { TestStatus } from '../core/results/report-model.ts';
import { visibleLine } from '../core/results/visible.ts';
import { environment } from '../core/run/config.ts';
import { redactorFor, type Redactor } from './redact.ts';

const PROGRESS_EVERY_MS = 15_000;

const STATUS_WORDS: ReadonlyArray<[TestStatus, string]> = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['timedOut', 'timed out'],
  ['skipped', 'skipped'],
  ['interrupted', 'interrupted'],
];

interface ConsoleReporterOptions {
  /** A verdict follows (the conformance reporter's), and says the errors outside the tests: they are not said twice. */
  verdictFollows?: boolean;
}

/** "40/110 tests: 38 passed, 1 failed, 1 skipped": only the counts that are not zero. */
export function describeProgress(done: number, total: number, statuses: ReadonlyMap<TestStatus, number>): string {
  const counts = STATUS_WORDS.flatMap(([status, word]) => ((statuses.get(status) ?? 0) > 0 ? [`${statuses.get(status)} ${word}`] : []));
  return `${done}/${total} tests${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`;
}

/** "Running 110 test(s) using 3 worker(s)": never more workers than tests, as Playwright starts no more. */
export function describeStart(tests: number, workers: number): string {
  return `Running ${tests} test(s) using ${Math.min(tests, workers)} worker(s) (progress only; CONFORMANCE_CONSOLE=verbose lists every test)`;
}

/** The first line of a runner error, without the stack: the verdict says the rest. */
export const firstLineOf = (text: string) =>
  text
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? text;

export default class ConsoleReporter implements Reporter {
  private total = 0;
  private readonly statuses = new Map<string, TestStatus>();
  private readonly started = Date.now();
  private lastLineAt = Date.now();
  private quarter = 0;
  private readonly tty = process.stdout.isTTY === true;
  private readonly verdictFollows: boolean;
  private readonly redact: Redactor = consoleRedactor();

  constructor(options: ConsoleReporterOptions = {}) {
    this.verdictFollows = options.verdictFollows ?? false;
  }

  printsToStdio(): boolean {
    return true;
  }

  /** A run stopped before its tests (an unreachable target) has none to announce: the verdict says why. */
  onBegin(config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    if (this.total > 0) this.write(`${describeStart(this.total, config.workers)}\n`);
  }

  /** A retried test counts once, with its status so far: done when it will not run again. */
  onTestEnd(test: TestCase, result: TestResult): void {
    const final =
      result.status === 'passed' || result.status === 'skipped' || result.retry >= test.retries || result.status === 'interrupted';
    if (!final) return;
    this.statuses.set(test.id, result.status);
    const done = this.statuses.size;
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
    if (!this.verdictFollows)
      this.write(`Error: ${visibleLine(firstLineOf(this.redact(error.message ?? error.value ?? 'an unknown error')))}\n`);
  }

  /** The last line of progress, in place of the terminal's running one. */
  onEnd(result: FullResult): void {
    if (this.total === 0) return;
    this.write(
      `${this.tty && this.statuses.size > 0 ? '\r\x1b[K' : ''}${describeProgress(this.statuses.size, this.total, this.counts())} in ${seconds(result.duration)}\n`,
    );
  }

  private counts(): Map<TestStatus, number> {
    const counts = new Map<TestStatus, number>();
    for (const status of this.statuses.values()) counts.set(status, (counts.get(status) ?? 0) + 1);
    return counts;
  }

  /** On a terminal, the progress line is left for the next line to start below it. */
  private endLine(): void {
    if (this.tty && this.statuses.size > 0) this.write('\n');
  }

  private write(text: string): void {
    process.stdout.write(text);
    this.lastLineAt = Date.now();
  }
}

/**
 * A runner's error may quote a key (a call log prints request headers): the console shows it as the
 * reports do. An environment it cannot read (a bad ENV_FILE, refused before any test) still leaves
 * the apikey pattern, rather than no console at all.
 */
function consoleRedactor(): Redactor {
  try {
    return redactorFor(environment());
  } catch {
    return redactorFor({});
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
