// `npm run self-test-times` (tests/self/timings.ts): Playwright's JSON report, summed by self-test folder,
// the faults project as the kill matrix, every retry counted, rendered as the table docs/self-tests.md shows.
import { test, expect } from '@playwright/test';
import { renderTable, timesByFolder } from '../timings.ts';

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

test('the table gives each step its wall time and each folder its tests and seconds', () => {
  const table = renderTable(timesByFolder(report, '/project/tests/self'), { typecheck: 12.4, lint: 40 }, 'today');
  expect(table).toContain('| typecheck (wall) | | 12 |');
  expect(table).toContain('| kill matrix (faults) | 1 | 60 |');
  expect(table).toContain('| checks | 2 | 3 |');
  expect(table).toMatch(/^Measured today by `npm run self-test-times`/);
});
