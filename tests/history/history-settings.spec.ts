// HISTORY_FILE and HISTORY_LIMIT as the configuration reads them: a bad value stops the run with one
// line naming the variable; a history where a run's reports would replace or empty it is refused.
import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../core/run/config.ts';
import { freshDir } from '../fresh-dir.ts';

const errorOf = (env: Record<string, string>) => {
  try {
    loadConfig({ CONFORMANCE_SEED: '1', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
  }
  throw new Error(`no configuration error for ${JSON.stringify(env)}`);
};

test('unset, there is no history; set, its file and a limit of 100 runs unless HISTORY_LIMIT says otherwise', () => {
  expect(loadConfig({ CONFORMANCE_SEED: '1' }).history).toBeUndefined();
  expect(loadConfig({ CONFORMANCE_SEED: '1', HISTORY_FILE: 'runs.jsonl' }).history).toEqual({ file: 'runs.jsonl', limit: 100 });
  expect(loadConfig({ CONFORMANCE_SEED: '1', HISTORY_FILE: 'runs.jsonl', HISTORY_LIMIT: '7' }).history?.limit).toBe(7);
});

for (const limit of ['0', 'ten', '10001', '-3'])
  test(`HISTORY_LIMIT=${limit} is refused with one line naming it`, () => {
    expect(errorOf({ HISTORY_FILE: 'runs.jsonl', HISTORY_LIMIT: limit }).message).toBe(
      `HISTORY_LIMIT must be an integer from 1 to 10000: the most runs the history keeps (got "${limit}")`,
    );
  });

test('HISTORY_FILE naming a folder, a report file of REPORT_DIR or a file under its test-results/ is refused', () => {
  const dir = freshDir('history-settings');
  expect(errorOf({ HISTORY_FILE: dir }).message).toBe(`HISTORY_FILE must name a file, not a folder (got "${dir}")`);
  for (const file of [join(dir, 'results.json'), join(dir, 'test-results', 'runs.jsonl')])
    expect(errorOf({ REPORT_DIR: dir, HISTORY_FILE: file }).variable).toBe('HISTORY_FILE');
  expect(loadConfig({ CONFORMANCE_SEED: '1', REPORT_DIR: dir, HISTORY_FILE: join(dir, 'runs.jsonl') }).history?.file).toBe(
    join(dir, 'runs.jsonl'),
  );
});
