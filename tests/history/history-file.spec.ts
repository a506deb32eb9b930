// HISTORY_FILE on disk: lines it cannot read (not JSON, another tool's, another format's, too long,
// not UTF-8) are reported, skipped, and written back byte for byte; HISTORY_LIMIT drops the oldest
// runs; a write is whole (a temporary file renamed) and leaves nothing beside the file.
import { test, expect } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshDir } from '../fresh-dir.ts';
import { appendRun, MAX_LINE_BYTES, readHistory, runEntry } from '../../core/history/history-file.ts';
import { HISTORY_FORMAT, type HistoryRun } from '../../core/history/history-line.ts';

const runAt = (minute: number): HistoryRun => ({
  format: HISTORY_FORMAT,
  at: `2026-12-06T12:${String(minute).padStart(2, '0')}:00.000Z`,
  target: 'http://127.0.0.1:1/v3 (calls) and http://127.0.0.1:1/v3 (chat)',
  suite: '0.1.0',
  seed: minute,
  profile: 'spec',
  verdict: 'CONFORMANT',
  ms: 1000,
  mode: 'run',
  outcomes: {},
  readings: {},
  coverage: {},
});
const entry = (minute: number) => runEntry(runAt(minute), (text) => text);
const minutesIn = (path: string) => readHistory(path).entries.flatMap((each) => (each.kind === 'run' ? [each.run.seed] : []));

const FOREIGN = [
  'not json at all',
  '{"name":"login test","status":"passed","historyId":"abc"}',
  JSON.stringify({ ...runAt(0), format: 'calls-conformance-history/2' }),
  `{"padding":"${'x'.repeat(MAX_LINE_BYTES)}"}`,
];

test('lines it cannot read are reported and skipped, and kept byte for byte when a run is added', () => {
  const path = join(freshDir('history'), 'runs.jsonl');
  const invalidUtf8 = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
  const original = Buffer.concat([
    entry(1).bytes,
    Buffer.from(`\n${FOREIGN.join('\n')}\n`),
    invalidUtf8,
    Buffer.from('\n\n'),
    entry(2).bytes,
    Buffer.from('\n'),
  ]);
  writeFileSync(path, original);
  const read = readHistory(path);
  expect(read.problems).toEqual([
    `${path}:2 is not JSON text: skipped, and kept in the file`,
    `${path}:3 is not a line of this suite's history (no "format": "${HISTORY_FORMAT}"): another tool's?: skipped, and kept in the file`,
    `${path}:4 is a history line of another format (calls-conformance-history/2), from another version of the suite: skipped, and kept in the file`,
    `${path}:5 is longer than ${MAX_LINE_BYTES} bytes (${MAX_LINE_BYTES + 14}): skipped, and kept in the file`,
    `${path}:6 is not JSON text: skipped, and kept in the file`,
  ]);
  const appended = appendRun(path, entry(3), 100);
  expect(appended).toMatchObject({ written: true, problems: read.problems });
  expect(appended.runs.map((run) => run.seed)).toEqual([1, 2, 3]);
  const after = readFileSync(path);
  // Everything that was there is there, in its place (the empty line aside), and the run is last.
  for (const line of [...FOREIGN.map((text) => Buffer.from(text)), invalidUtf8]) expect(after.includes(line)).toBe(true);
  expect(after.subarray(0, entry(1).bytes.length).equals(entry(1).bytes)).toBe(true);
  expect(after.toString('latin1').trimEnd().split('\n').at(-1)).toBe(entry(3).bytes.toString('latin1'));
});

test('HISTORY_LIMIT drops the oldest runs and keeps every line it could not read; the write leaves nothing beside the file', () => {
  const dir = freshDir('history');
  const path = join(dir, 'nested', 'runs.jsonl');
  for (const minute of [1, 2, 3]) expect(appendRun(path, entry(minute), 5).written).toBe(true);
  writeFileSync(path, `${readFileSync(path, 'utf8')}${FOREIGN[0]}\n`);
  expect(appendRun(path, entry(4), 2).runs.map((run) => run.seed)).toEqual([3, 4]);
  expect(minutesIn(path)).toEqual([3, 4]);
  expect(readFileSync(path, 'utf8')).toContain(FOREIGN[0]);
  expect(readdirSync(join(dir, 'nested'))).toEqual(['runs.jsonl']);
  // Without the limit's effect, all four would be there: the limit is what dropped them.
  expect(appendRun(path, entry(5), 100).runs.map((run) => run.seed)).toEqual([3, 4, 5]);
});

test('a history it cannot read whole is left as it is, and the run still has its summary', () => {
  const dir = freshDir('history');
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  const refused = appendRun(folder, entry(1), 10);
  expect(refused.written).toBe(false);
  expect(refused.problems).toEqual([`${folder} is not a file; left as it is`]);
  expect(refused.runs.map((run) => run.seed)).toEqual([1]);
  expect(readHistory(join(dir, 'absent.jsonl'))).toEqual({ entries: [], problems: [], unreadable: false });
});

test("a run's line that would not read back as one is not written", () => {
  expect(() => runEntry(runAt(1), (text) => `${text}}`)).toThrow(/not JSON text/);
  expect(() => runEntry({ ...runAt(1), seed: -1 }, (text) => text)).toThrow(/"seed"/);
});
