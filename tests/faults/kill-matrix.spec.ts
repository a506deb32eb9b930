// The kill matrix (`npm run kill-matrix` runs it alone, `npm test` after the self project): the
// conformance suite, run as a child process against the clean reference (it must pass the whole
// suite with no warning, on several seeds, under each of its readings, standing still and living)
// and against each fault of the catalog under each reading it runs under, standing and living (it
// must fail naming every MUST the fault breaks, or warn for a SHOULD fault, and leave no requirement
// it judged in error). Which tests each row runs, and why that is enough, is in matrix-rows.ts. A
// fault that survives fails here by name, so a check cannot be weakened, nor a fault added, without
// this noticing.
// Rows are judged in batches: one Playwright run of the suite per batch, a project per row, each
// against its own reference (runRows). The first test of a batch runs it; the batch's rows are kept
// on disk, so a test after a failed one (Playwright starts a new worker) reads them instead of running again.
// The README's bounded line against the clean reference living is a self-test of its own
// (tests/suite/bounded-run.spec.ts), where a door counts its requests and its rate.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type TestInfo } from '@playwright/test';
import { RUN_TIMEOUT_MS, runRows, type MatrixRow } from './kill-matrix.ts';
import { saveRow } from './matrix-files.ts';
import { rowsDir } from './rows-dir.ts';
import { matrixBatches, sampleKey, type MatrixBatch } from './matrix-rows.ts';

const whole = process.env.KILL_MATRIX_WHOLE === 'all' ? 'all' : 'sample';
const BATCHES = matrixBatches({ whole, key: whole === 'all' ? '' : sampleKey() });

/** Room for a batch: its rows one worker after another, on a slow, shared machine. */
const batchTimeout = (batch: MatrixBatch) =>
  Math.max(RUN_TIMEOUT_MS, (batch.rows.length / batch.workers) * (batch.rowSeconds ?? 90) * 1000);

/** This process's batches, by title; on disk for the process that follows a failed test. */
const running = new Map<string, Promise<MatrixRow[]>>();

function rowsOf(batch: MatrixBatch, testInfo: TestInfo): Promise<MatrixRow[]> {
  const file = join(rowsDir(testInfo), '..', 'kill-matrix-batches', `${batch.title.replace(/[^A-Za-z0-9-]+/g, '_')}.json`);
  let rows = running.get(batch.title);
  if (rows) return rows;
  rows = existsSync(file)
    ? Promise.resolve(JSON.parse(readFileSync(file, 'utf8')) as MatrixRow[])
    : runRows(batch.rows, { workers: batch.workers, timeoutMs: batchTimeout(batch) }).then((done) => {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, JSON.stringify(done));
        return done;
      });
  running.set(batch.title, rows);
  return rows;
}

for (const batch of BATCHES) {
  test.describe(batch.title, () => {
    // In order, in one worker: the first test runs the batch, the others read its rows.
    test.describe.configure({ mode: 'default' });
    batch.rows.forEach((plan, index) => {
      test(plan.title, async ({}, testInfo) => {
        testInfo.setTimeout(batchTimeout(batch) + 60_000);
        const row = (await rowsOf(batch, testInfo))[index]!;
        saveRow(rowsDir(testInfo), row);
        const hint =
          row.tests === 'whole suite'
            ? ''
            : ` (the row ran its fault's own tests alone: where another requirement's test sees the fault, name it in ALSO_SEEN_BY, matrix-rows.ts; KILL_MATRIX_WHOLE=all runs every fault whole)`;
        expect(row.outcome, `${row.fault} ${row.outcome}: ${row.problem}${hint}`).toBe(plan.expected);
        if (plan.learns) expect(row.learned[plan.learns.subject]).toEqual(plan.learns.candidates);
      });
    });
  });
}
