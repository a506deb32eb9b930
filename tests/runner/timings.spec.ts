// `npm run self-test-times` (tests/timings.ts): Playwright's JSON report, summed by self-test folder,
// the faults project as the kill matrix, every retry counted, rendered as the table docs/self-tests.md shows.
import { test, expect } from '@playwright/test';
import { freshDir } from '../fresh-dir.ts';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childrenCpuSeconds, failedTests, renderTable, slowestFiles, timesByFolder } from '../timings.ts';

const report = {
  config: { rootDir: '/project/tests' },
  stats: { duration: 9000, expected: 3, unexpected: 0, flaky: 0, skipped: 0 },
  suites: [
    {
      specs: [
        { file: 'checks/dates.spec.ts', tests: [{ projectName: 'self', results: [{ duration: 1500 }] }] },
        { file: 'checks/pagination.spec.ts', tests: [{ projectName: 'self', results: [{ duration: 500 }, { duration: 1000 }] }] },
      ],
      suites: [{ specs: [{ file: 'faults/kill-matrix.spec.ts', tests: [{ projectName: 'faults', results: [{ duration: 60_000 }] }] }] }],
    },
  ],
};

test('test time is summed by folder, every attempt counted, the faults project as the kill matrix, slowest first', () => {
  expect(timesByFolder(report, '/project/tests')).toEqual([
    { folder: 'kill matrix (faults)', tests: 1, seconds: 60 },
    { folder: 'checks', tests: 2, seconds: 3 },
  ]);
});

test('the slowest self-test files are listed by the summed time of their tests, the kill matrix left out', () => {
  expect(slowestFiles(report, '/project/tests', 5)).toEqual([
    { folder: 'checks/dates.spec.ts', tests: 1, seconds: 1.5 },
    { folder: 'checks/pagination.spec.ts', tests: 1, seconds: 1.5 },
  ]);
  expect(slowestFiles(report, '/project/tests', 1)).toHaveLength(1);
});

test('the CPU of finished children is read from the stat line, a command name with spaces and parentheses included', () => {
  const stat = join(freshDir('stat'), 'stat');
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  writeFileSync(stat, '4242 (npm run (x) y) S 1 4242 4242 0 -1 4194560 100 200 0 0 150 30 12345 678 20 0 1 0');
  expect(childrenCpuSeconds(stat)).toBeCloseTo(130.23, 5);
  expect(childrenCpuSeconds(join(stat, 'none'))).toBeUndefined();
  // This process's own grows by what a child that works for half a second of CPU used.
  const before = childrenCpuSeconds()!;
  spawnSync(process.execPath, ['-e', 'const end = process.cpuUsage().user + 500_000; while (process.cpuUsage().user < end);']);
  expect(childrenCpuSeconds()! - before).toBeGreaterThanOrEqual(0.4);
});

test('the table gives each step its wall time and each folder its tests and seconds', () => {
  const table = renderTable(timesByFolder(report, '/project/tests'), { typecheck: 12.4, lint: 40 }, 'today', {
    'self and faults projects': 1800.4,
  });
  expect(table).toContain('| self and faults projects (CPU) | | 1800 |');
  expect(table).toContain('| typecheck (wall) | | 12 |');
  expect(table).toContain('| kill matrix (faults) | 1 | 60 |');
  expect(table).toContain('| checks | 2 | 3 |');
  expect(table).toMatch(/^Measured today by `npm run self-test-times`/);
});

test('a failed test is named with its place and the first line of its last error; passed, flaky and skipped ones are not', () => {
  const withFailures = {
    ...report,
    suites: [
      {
        specs: [
          {
            file: 'self/reports/lines.spec.ts',
            title: 'a line is safe',
            line: 12,
            tests: [
              {
                projectName: 'self',
                status: 'unexpected',
                results: [
                  { duration: 1, error: { message: 'first try' } },
                  { duration: 1, error: { message: '\nError: spawnSync bash ENOENT\n  at x' } },
                ],
              },
            ],
          },
          {
            file: 'self/a.spec.ts',
            title: 'flaky',
            line: 3,
            tests: [{ projectName: 'self', status: 'flaky', results: [{ duration: 1 }] }],
          },
          {
            file: 'self/b.spec.ts',
            title: 'fine',
            line: 4,
            tests: [{ projectName: 'self', status: 'expected', results: [{ duration: 1 }] }],
          },
        ],
      },
    ],
  };
  expect(failedTests(withFailures)).toEqual(['self/reports/lines.spec.ts:12 a line is safe: Error: spawnSync bash ENOENT']);
  expect(failedTests(report)).toEqual([]);
});
