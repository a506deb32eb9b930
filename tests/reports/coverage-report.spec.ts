// The coverage of a run in every report, from a hand-made tally: the HTML report's section (the
// dimensions, the filters and their values, the filter pairs, the operations' answers, and every
// item not covered with why), the markdown table of the short summaries, and compare's "coverage
// lost", which never changes its exit code. A text the traffic chose (a `by`, a `why`) is escaped.
import { test, expect } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../openapi/catalog.ts';
import { coverageOf, type Coverage } from '../../core/coverage/model.ts';
import { emptyTally, tallyObservation } from '../../core/coverage/tally.ts';
import type { FilterName } from '../../core/checks/filters.ts';
import type { ConformanceReport } from '../../core/results/report-model.ts';
import { buildReport } from '../../reports/build-report.ts';
import { compareRuns, describeComparison } from '../../reports/compare.ts';
import { coverageTable } from '../../reports/coverage-summary.ts';
import { htmlEscape, renderHtml } from '../../reports/render-html.ts';
import { renderCoverage } from '../../reports/render-coverage.ts';
import { renderPassiveSummary } from '../../passive/passive-report.ts';
import { CLI, freshDir } from './report-runs.ts';
import { launchChromium, openOffline, skipWithoutChromium } from '../chromium.ts';
import { runScript } from '../runner/run-suite.ts';
import { metadata, testRecord } from './report-records.ts';

const HOSTILE = '<script>alert(1)</script>';
const BY_AUDIO = 'suite/calls-list/filter-narrowing.spec.ts:12';
/** Debian's package; Playwright's own browser downloads are not used (they cannot be fetched here). */

/**
 * A run of ten calls: type=audio kept 4 of them (covered) or, with `audioKeptAll`, all 10 (tried on
 * data that cannot tell); type=video kept all 10 (cannot tell); status=ended kept none, in an
 * exchange whose name is a script (cannot tell); mode+receiverType kept 2 (covered); one Get Call not found.
 */
function coverageOfRun(audioKeptAll = false): Coverage {
  const tally = emptyTally();
  const list = (filters: Partial<Record<FilterName, string>>, total: number, by: string) =>
    tallyObservation(tally, { operation: 'listCalls', status: 200, key: 'given', filters, total, pages: 1, page: 1 }, by);
  list({}, 10, 'suite/calls-list/all.spec.ts:1');
  list({ type: 'audio' }, audioKeptAll ? 10 : 4, BY_AUDIO);
  list({ type: 'video' }, 10, 'suite/calls-list/filter-narrowing.spec.ts:20');
  list({ mode: 'meet', receiverType: 'group' }, 2, 'suite/calls-list/filter-pairs.spec.ts:7');
  list({ status: 'ended' }, 0, HOSTILE);
  tallyObservation(
    tally,
    { operation: 'getCall', status: 404, key: 'given', code: 'ERR_CALL_SESSION_NOT_FOUND' },
    'suite/calls-get/not-found.spec.ts:3',
  );
  return coverageOf(tally, { allowWrites: false });
}

const catalog = loadCatalog();
const report: ConformanceReport = {
  ...buildReport(catalog, {
    metadata,
    tests: [testRecord({ requirements: ['CALLS-GET-OK'] })],
    startedAt: new Date('2026-11-21T10:00:00Z'),
    durationMs: 1000,
    runnerStatus: 'passed',
    runnerErrors: [],
  }),
  coverage: coverageOfRun(),
};
const coverage = report.coverage!;
const html = renderHtml(report);
const section = renderCoverage(coverage);
/** The lines of the list of what is not covered, and the one that names an item. */
const lines = () => section.match(/<li>.*?<\/li>/g) ?? [];
const lineOf = (id: string) => lines().find((line) => line.includes(`data-item="${id}"`));
/** The mark of an item, wherever it is shown: its id, its state, and its hover text. */
const markOf = (id: string) =>
  new RegExp(`<span class="cv cv-(\\w+)" data-item="${id.replace(/[+]/g, '\\+')}" data-state="\\1" title="([^"]*)">`);

test("values outside a filter's type are shown with the statuses they got, and the filters never tried so", () => {
  const tally = emptyTally();
  tallyObservation(
    tally,
    { operation: 'listCalls', status: 400, key: 'given', filters: { hasRecording: 'maybe' } },
    'suite/errors/x.spec.ts:1',
  );
  const shown = renderCoverage(coverageOf(tally));
  const table = shown.slice(shown.indexOf('<table class="cv-negative">'));
  expect(table).toMatch(/<code>hasRecording<\/code><\/th><td><span class="cv cv-covered"[^>]*>✔<\/span><\/td><td>400 × 1<\/td>/);
  expect(table).toMatch(/<code>type<\/code><\/th><td><span class="cv cv-missing"[^>]*>○<\/span><\/td><td><\/td>/);
});

test('the HTML report has a coverage section, and a link to it in the nav bar, only when the report has coverage', () => {
  expect(html).toContain('<section id="coverage"><h2>Coverage: what the run tried</h2>');
  expect(html).toMatch(/<nav [^>]*>.*<a href="#coverage">Coverage<\/a>.*<\/nav>/);
  const { coverage: _, ...without } = report;
  const plain = renderHtml(without);
  expect(plain).not.toContain('id="coverage"');
  expect(plain).not.toContain('href="#coverage"');
});

test('the section tables the dimensions and says what data that tells is', () => {
  for (const dimension of coverage.dimensions)
    expect(section).toContain(
      `<tr data-dimension="${dimension.id}"><th scope="row">${htmlEscape(dimension.label)}</th><td>${dimension.covered}</td><td>${dimension.weak}</td><td>${dimension.missing}</td>`,
    );
  expect(section).toContain(
    'Data that tells: an answer that kept some calls and dropped some (fewer than 10, the most calls an unfiltered list held)',
  );
});

test('a covered, a weak and a missing item are each shown with their state, and what is not covered with why', () => {
  const covered = markOf('filters/type=audio').exec(section);
  expect(covered?.[1]).toBe('covered');
  expect(covered?.[2]).toBe(`type=audio: covered; by ${BY_AUDIO}`);
  expect(section).toMatch(/data-item="filters\/type=audio"[^>]*>✔ audio<\/span>/);

  const weak = markOf('filters/type=video').exec(section);
  expect(weak?.[1]).toBe('weak');
  expect(weak?.[2]).toContain('no data that tells: every answer kept all 10 calls');
  expect(section).toMatch(/data-item="filters\/type=video"[^>]*>◐ video<\/span>/);

  const missing = markOf('filters/status=ongoing').exec(section);
  expect(missing?.[1]).toBe('missing');
  expect(lineOf('filters/status=ongoing')).toMatch(
    /○ status=ongoing<\/span> .*<a href="#req-CALLS-LIST-FILTER-STATUS"><code>CALLS-LIST-FILTER-STATUS<\/code><\/a>: not tried in this run<\/li>$/,
  );
  expect(lineOf('filters/type=video')).toMatch(/: no data that tells: every answer kept all 10 calls, [^<]*<\/li>$/);
  expect(lineOf('operations/markGroupConversationAsUnread success')).toMatch(/: not allowed: writes are off \(ALLOW_WRITES\)<\/li>$/);
  // Covered items are not in the list of what is not; items that share requirements and why share a line.
  expect(lineOf('filters/type=audio')).toBeUndefined();
  const notCovered = coverage.items.filter((item) => item.state !== 'covered').length;
  expect(section).toContain(`Not covered, or tried on data that cannot tell (${notCovered})`);
  expect(
    lines()
      .join('')
      .match(/data-item=/g),
  ).toHaveLength(notCovered);
  expect(lineOf('pairs/type+mode')!.match(/data-item=/g)).toHaveLength(35);
});

test('the filter pairs are a nine by nine upper triangle, and the operations show their statuses and documented answers', () => {
  const pairs = /<table class="cv-pairs">.*?<\/table>/s.exec(section)![0];
  expect(pairs.match(/<tr>/g)).toHaveLength(1 + 9);
  expect(pairs.match(/data-item="pairs\//g)).toHaveLength(36);
  expect(pairs.match(/<td class="diagonal"><\/td>/g)).toHaveLength(9);
  expect(markOf('pairs/mode+receiverType').exec(pairs)?.[1]).toBe('covered');
  expect(markOf('pairs/type+status').exec(pairs)?.[1]).toBe('missing');

  const operations = /<table class="cv-operations">.*?<\/table>/s.exec(section)![0];
  expect(operations).toContain('<th scope="col">200</th><th scope="col">404</th>');
  expect(operations).toMatch(/<tr data-operation="listCalls"><th scope="row">listCalls<\/th><td>5<\/td><td><\/td>/);
  expect(operations).toMatch(/<tr data-operation="getCall"><th scope="row">getCall<\/th><td><\/td><td>1<\/td>/);
  expect(markOf('operations/getCall ERR_CALL_SESSION_NOT_FOUND').exec(operations)?.[1]).toBe('covered');
});

test('a text the traffic chose comes out escaped: a by, a why and a label', () => {
  expect(html).toContain(`tried by ${HOSTILE.replace(/</g, '&lt;').replace(/>/g, '&gt;')}`);
  const hostile: Coverage = {
    ...coverage,
    items: coverage.items.map((item) =>
      item.id === 'filters/status=ongoing' ? { ...item, label: `"><img src=x onerror=alert(1)>`, why: HOSTILE, by: HOSTILE } : item,
    ),
  };
  for (const page of [html, renderCoverage(hostile)]) {
    expect(page).not.toContain(HOSTILE);
    expect(page).not.toContain('<img');
  }
  expect(renderCoverage(hostile)).toContain(': &lt;script&gt;alert(1)&lt;/script&gt;</li>');
  // A state read back from a results.json picks a class only from the three known.
  const odd = renderCoverage({ ...coverage, items: [{ ...coverage.items[0]!, state: 'x" onmouseover="alert(1)' as 'covered' }] });
  expect(odd).not.toContain('onmouseover="');
  expect(odd).toContain('class="cv cv-missing"');
});

test('the short summaries have one markdown row per dimension; the passive summary.md has the table', () => {
  const table = coverageTable(coverage);
  expect(table.slice(0, 2)).toEqual(['| Dimension | Covered | Cannot tell | Not covered | % |', '| --- | ---: | ---: | ---: | ---: |']);
  expect(table).toHaveLength(2 + coverage.dimensions.length);
  const filters = coverage.dimensions.find((dimension) => dimension.id === 'filters')!;
  expect(table).toContain(`| ${filters.label} | ${filters.covered} | ${filters.weak} | ${filters.missing} | ${filters.percent}% |`);
  const broken = coverageTable({ ...coverage, dimensions: [{ ...filters, label: 'a | b\n<c>' }] });
  expect(broken[2]).toBe(`| a \\| b &lt;c> | ${filters.covered} | ${filters.weak} | ${filters.missing} | ${filters.percent}% |`);

  const passive = {
    sources: ['traffic.har'],
    entries: 6,
    exchanges: 6,
    byOperation: {},
    ignored: {},
    bodiesAbsent: 0,
    redacted: [],
    notJudged: [],
  };
  const summary = renderPassiveSummary({ ...report, passive });
  expect(summary).toContain(`### Coverage: what the traffic tried (6 exchanges)\n\n${table.join('\n')}\n`);
  const { coverage: _, ...without } = report;
  expect(renderPassiveSummary({ ...without, passive })).not.toContain('Coverage');
});

test('compare lists the items covered in the base and not in the new run, and nothing when they are equal', () => {
  const next = { ...report, coverage: coverageOfRun(true) };
  const lost = compareRuns(report, next, { base: 'a', next: 'b' });
  expect(lost.coverageLost).toEqual([
    { id: 'filters/type=audio', label: 'type=audio', base: 'covered', next: 'tried on data that cannot tell' },
  ]);
  expect(describeComparison(lost)).toContain(
    'Coverage lost: covered in the base run, not in the new one (1)\n  filters/type=audio (type=audio): covered → tried on data that cannot tell',
  );
  expect(renderHtml({ ...next, comparison: lost })).toMatch(
    /<h3 id="coverage-lost">[^<]*\(1\)<\/h3><ul><li><code>filters\/type=audio<\/code>/,
  );
  // Gained is not lost; equal is nothing; a run without coverage is not compared on it.
  expect(compareRuns(next, report, { base: 'a', next: 'b' }).coverageLost).toEqual([]);
  expect(compareRuns(report, report, { base: 'a', next: 'b' }).coverageLost).toEqual([]);
  expect(describeComparison(compareRuns(report, report, { base: 'a', next: 'b' }))).toContain(
    'Coverage lost: covered in the base run, not in the new one (0)',
  );
  const { coverage: _, ...old } = report;
  expect(compareRuns(old, next, { base: 'a', next: 'b' }).coverageLost).toBeUndefined();
  expect(describeComparison(compareRuns(old, next, { base: 'a', next: 'b' }))).not.toContain('Coverage lost');
});

test('coverage lost never changes the exit code of compare', async () => {
  const dir = freshDir('coverage-compare');
  for (const [name, value] of [
    ['base', report],
    ['next', { ...report, coverage: coverageOfRun(true) }],
  ] as const) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'results.json'), JSON.stringify(value));
  }
  const compared = await runScript(CLI.conformance, ['compare', join(dir, 'base'), join(dir, 'next')]);
  expect(compared.stdout).toContain('Coverage lost: covered in the base run, not in the new one (1)');
  expect(compared.code, compared.stderr).toBe(0);
});

test('the coverage section opens offline in Chromium, from its link in the nav bar', async () => {
  skipWithoutChromium();
  const dir = freshDir('coverage-html');
  writeFileSync(join(dir, 'index.html'), renderHtml(report));
  const browser = await launchChromium();
  try {
    const { page, requested } = await openOffline(browser, join(dir, 'index.html'));
    await page.locator('nav a[href="#coverage"]').click();
    await expect(page.locator('#coverage h2')).toBeInViewport();
    await expect(page.locator('#coverage table.cv-dimensions tbody tr')).toHaveCount(coverage.dimensions.length);
    await expect(page.locator('#coverage table.cv-pairs [data-item^="pairs/"]')).toHaveCount(36);
    const audio = page.locator('#coverage table.cv-grid [data-item="filters/type=audio"]');
    await expect(audio).toHaveText('✔ audio');
    await expect(audio).toHaveAttribute('title', `type=audio: covered; by ${BY_AUDIO}`);
    await expect(page.locator('#coverage li:has([data-item="filters/status=ended"])')).toContainText(
      'no such data: every answer was empty',
    );
    expect(await page.locator('script').count()).toBe(0);
    expect(requested).toEqual([]);
  } finally {
    await browser.close();
  }
});
