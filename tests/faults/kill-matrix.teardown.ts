// After the faults project: gathers the rows into kill-matrix/kill-matrix.json and kill-matrix.md,
// and prints the mutation score.
import { test } from '@playwright/test';
import { loadRows, MATRIX_DIR, scoreLine, writeMatrix } from './matrix-files.ts';
import { rowsDir } from './rows-dir.ts';

test('write the kill matrix', async ({}, testInfo) => {
  const rows = loadRows(rowsDir(testInfo));
  test.skip(rows.length === 0, 'No fault ran in this run, so there is no matrix to write.');
  const starts = rows.map((row) => Date.parse(row.startedAt));
  const ends = rows.map((row) => Date.parse(row.startedAt) + row.seconds * 1000);
  const wallSeconds = (Math.max(...ends) - Math.min(...starts)) / 1000;
  const summary = writeMatrix(MATRIX_DIR, rows, wallSeconds);
  process.stdout.write(`${scoreLine(summary)} Matrix: kill-matrix/kill-matrix.md\n`);
});
