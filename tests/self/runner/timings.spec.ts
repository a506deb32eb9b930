// `npm run self-test-times` (tests/self/timings.ts): Playwright's JSON report, summed by self-test folder,
// the faults project as the kill matrix, every retry counted, rendered as the table docs/self-tests.md shows.
import { test, expect } from '@playwright/test';
import { failedTests, renderTable, slowestFiles, timesByFolder } from '../timings.ts';

const report = {
  config: { rootDir: '/project/tests' },
  stats: { duration: 9000, expected: 3, unexpected: 0, flaky: 0, skipped: 0 },
  suites: [
    {
      specs: [
        { file: 'self/checks/dates.spec.ts', tests: [{ projectName: 'self', results: [{ duration: 1500 }] }] },
        { file: 'self/checks/pagination.spec.ts', tests: [{ projectName: 'self', results: [{ duration: 500 }, { duration: 1000 }] }] },
      ],
      suites: [
        { specs: [{ file: 'self/faults/kill-matrix.spec.ts', tests: [{ projectName: 'faults', results: [{ duration: 60_000 }] }] }] },
      ],
    },
  ],
};

test('test time is summed by folder, every attempt counted, the faults project as the kill matrix, slowest first', () => {
  expect(timesByFolder(report, '/project/tests/self')).toEqual([
    { folder: 'kill matrix (faults)', tests: 1, seconds: 60 },
    { folder: 'checks', tests: 2, seconds: 3 },
  ]);
});

test('the slowest self-test files are listed by the summed time of their tests, the kill matrix left out', () => {
  expect(slowestFiles(report, '/project/tests/self', 5)).toEqual([
    { folder: 'checks/dates.spec.ts', tests: 1, seconds: 1.5 },
    { folder: 'checks/pagination.spec.ts', tests: 1, seconds: 1.5 },
  ]);
  expect(slowestFiles(report, '/project/tests/self', 1)).toHaveLength(1);
});

test('the table gives each step its wall time and each folder its tests and seconds', () => {
  const table = renderTable(timesByFolder(report, '/project/tests/self'), { typecheck: 12.4, lint: 40 }, 'today');
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
