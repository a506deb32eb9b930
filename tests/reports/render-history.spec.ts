// The History section of index.html on a long history: thirty runs of the whole catalog shown (the
// oldest left out), well under the 1 MB a page may weigh, every value from the file escaped, and
// no script; a target's other runs in the same file are left out.
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../openapi/catalog.ts';
import { encodeOutcomes, HISTORY_FORMAT, type HistoryRun } from '../../core/history/history-line.ts';
import { GRID_RUNS, historySummary } from '../../core/history/history-summary.ts';
import { historyCatalog } from '../../core/history/record-run.ts';
import { renderHistory } from '../../reports/render-history.ts';

const HOSTILE = '<script>alert(1)</script>"\'&';

function runsOfTheWholeCatalog(count: number, target: string): HistoryRun[] {
  const ids = loadCatalog().requirements.map((requirement) => requirement.id);
  return Array.from({ length: count }, (_, index) => ({
    format: HISTORY_FORMAT,
    at: `2026-12-06T12:00:${String(index % 60).padStart(2, '0')}.000Z`,
    target,
    suite: `0.1.0 ${HOSTILE}`,
    seed: index,
    profile: 'spec',
    verdict: HOSTILE,
    ms: 1000,
    mode: 'run',
    outcomes: encodeOutcomes([...ids, 'REMOVED-SINCE'].map((id, at) => ({ id, status: (at + index) % 3 === 0 ? 'fail' : 'pass' }))),
    readings: {},
    coverage: {},
  }));
}

test('thirty runs of the whole catalog: one row per requirement, escaped, without script, well under 1 MB', () => {
  const runs = [...runsOfTheWholeCatalog(5, 'another target'), ...runsOfTheWholeCatalog(GRID_RUNS + 10, HOSTILE)];
  const summary = historySummary('history.jsonl', runs, historyCatalog(), [`history.jsonl:3 ${HOSTILE}`])!;
  expect(summary.runs).toBe(runs.length);
  expect(summary.shown).toHaveLength(GRID_RUNS);
  expect(summary.shown[0]!.seed).toBe(10);
  expect(summary.grid).toHaveLength(loadCatalog().requirements.length + 1);
  expect(summary.grid.at(-1)!.id).toMatch(/^#[0-9a-z]{5}$/);
  const html = renderHistory(summary);
  const bytes = Buffer.byteLength(html);
  test.info().annotations.push({ type: 'measured', description: `History section: ${bytes} bytes` });
  expect(bytes).toBeLessThan((1024 * 1024) / 4);
  expect(html).not.toContain('<script');
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
  expect(html.match(/<tr data-requirement=/g)).toHaveLength(summary.grid.length);
});
