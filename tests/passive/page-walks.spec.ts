// Pages of one listing judged together from recorded traffic (passive/listing-walks.ts): a client
// walking a listing's pages, recorded in front of the reference (seed 5) through the recording
// forwarder and judged by `har`. The clean reference, standing and living (a call a second, settling
// 2 to 15 s after it ends), gives NO VIOLATIONS; every fault of the catalog that breaks
// PAGINATION-PAGES-PARTITION is found from the walks, which one page at a time could not show
// (docs/passive.md); traffic too sparse to walk a listing is reported as not judged, with why.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findFault } from '../../reference/faults/catalog.ts';
import { DATA_NOW } from '../../reference/data/directory.ts';
import { loggedAt } from '../../reference/live/live-call.ts';
import { WALK_NOT_JUDGED } from '../../passive/listing-walks.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harOf, type HarEntry } from './recording-forwarder.ts';
import { recordAgainstReference, walkListing, type Listing } from './page-walker.ts';

/** An unfiltered list, one filtered on a field that never moves, and one on a terminal status that calls enter as they end. */
const LISTINGS: Listing[] = [
  { query: {}, perPage: 25 },
  { query: { type: 'audio' }, perPage: 10 },
  { query: { status: 'ended' }, perPage: 30 },
];

/** The faults of the catalog that break PAGINATION-PAGES-PARTITION (docs/faults.md), each found from walks. */
const PARTITION_FAULTS = [
  'pages-overlap-from-page-3',
  'pages-overlap-from-page-2',
  'page-echoed-first-page-served',
  'pages-skip-an-item',
  'total-drifts-with-page',
  'total-capped-at-1000',
];

/** Each listing walked `rounds` times, then page 1 of each asked once more (a screen refreshed): what follows the last walks. */
async function walkAll(base: string, apikey: string, rounds: number, listings: Listing[], pauseMs = 0): Promise<void> {
  for (let round = 0; round < rounds; round += 1) for (const listing of listings) await walkListing(base, apikey, listing, pauseMs);
  for (const listing of listings) await walkListing(base, apikey, listing, 0, 1);
}

/** The entries judged by `har`: its exit code, console and results.json. */
async function judged(name: string, entries: HarEntry[], env: Record<string, string> = {}) {
  const har = join(freshDir(`passive-walks-${name}`), 'walks.har');
  writeFileSync(har, JSON.stringify(harOf(entries)));
  const dir = freshDir(`passive-walks-${name}-report`);
  const run = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: dir, ...env });
  const { results, html } = readReports(dir);
  const status = (id: string) => results.requirements.find((entry) => entry.id === id)?.status;
  return { run, results, html, status, walks: results.passive!.walks! };
}

test('PAGINATION-PAGES-PARTITION a client walking listings of the standing reference: every walk judged, NO VIOLATIONS', async () => {
  const entries = await recordAgainstReference({ seed: 5, calls: 300 }, (base, key) => walkAll(base, key, 2, LISTINGS));
  const { run, status, walks } = await judged('clean', entries);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  expect(status('PAGINATION-PAGES-PARTITION')).toBe('pass');
  // Two walks of each listing; the last page 1 of each is a walk of one page.
  expect(walks).toEqual({ judged: 6, notJudged: { [WALK_NOT_JUDGED.onePage]: 3 } });
});

test('PAGINATION-PAGES-PARTITION a client walking listings of the living reference while calls arrive and settle: NO VIOLATIONS, the walks that moved set aside on their calls’ evidence', async () => {
  test.setTimeout(150_000);
  // Walked slowly (80 ms between pages, a call logged every second), so that calls arrive, end and
  // settle in the middle of walks, and repeat or shift calls between their pages.
  const entries = await recordAgainstReference({ seed: 5, calls: 300, live: { rate: 1, settleDelay: [2, 15] } }, (base, key) =>
    walkAll(base, key, 6, LISTINGS, 80),
  );
  const { run, status, walks } = await judged('living', entries);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  expect(status('PAGINATION-PAGES-PARTITION')).toBe('pass');
  // Walks were judged, and walks whose pages did disagree (a walk is only set aside when they do) were
  // set aside because their calls showed the data moving between the asks.
  expect(walks.judged).toBeGreaterThan(0);
  expect(walks.notJudged[WALK_NOT_JUDGED.moved] ?? 0).toBeGreaterThan(0);
});

for (const name of PARTITION_FAULTS) {
  test(`PAGINATION-PAGES-PARTITION ${name} is found from traffic walking listings' pages`, async () => {
    const fault = findFault(name)!;
    expect(fault.requirements).toContain('PAGINATION-PAGES-PARTITION');
    // A total capped at 1,000 shows only on a list longer than that, walked past what total says.
    const listings = fault.calls ? [{ query: {}, perPage: 100 }] : LISTINGS;
    const entries = await recordAgainstReference({ seed: 5, calls: fault.calls ?? 300, fault }, (base, key) =>
      walkAll(base, key, 2, listings),
    );
    // Totals that drift are told from calls arriving by a total seen to fall, which an answer as old
    // as MAX_ANSWER_AGE (10 s by default) may show: these walks take well under that, and the
    // reference's answers are fresh, as MAX_ANSWER_AGE=0 declares.
    const fresh: Record<string, string> = name === 'total-drifts-with-page' ? { MAX_ANSWER_AGE: '0' } : {};
    const { run, status, results } = await judged(name, entries, fresh);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(status('PAGINATION-PAGES-PARTITION')).toBe('fail');
    expect(results.passive!.violatedIn!.find((entry) => entry.id === 'PAGINATION-PAGES-PARTITION')?.violations).toBeGreaterThan(0);
  });
}

/**
 * A deployment logging a call every 100 s, its clock stepped by the test and the recorder's times
 * set to it (a deployment whose clock is right): page 1 asked a second before call 3 is logged,
 * page 2 as it is (page 2 then repeats page 1's last call and names a total one larger), and page 1
 * again 99 s later, call 3 over and nothing newer. The newest moment the answers show then is call
 * 3's last, over 20 s old: the target's clock is known only to be at least that far behind the
 * recorder's, and call 3's being logged, the one evidence of its arrival, comes after the window
 * that knowledge allows for the walk (its last page, a second for whole seconds, MAX_ANSWER_AGE).
 */
async function sparseWalk(fault?: string): Promise<HarEntry[]> {
  const rate = 0.01;
  const arrives = loggedAt(3, rate);
  const asked = [arrives - 1, arrives, arrives + 99];
  let now = asked[0]!;
  const entries = await recordAgainstReference(
    { seed: 5, calls: 300, live: { rate, clock: () => now }, ...(fault !== undefined && { fault: findFault(fault)! }) },
    async (base, key) => {
      for (const [index, page] of [1, 2, 1].entries()) {
        now = asked[index]!;
        await (await fetch(`${base}/calls?page=${page}&perPage=5`, { headers: { apikey: key } })).arrayBuffer();
      }
    },
  );
  expect(entries).toHaveLength(3);
  expect(DATA_NOW).toBeLessThan(asked[0]!);
  entries.forEach((entry, index) => {
    entry.startedDateTime = new Date(asked[index]! * 1000).toISOString();
    entry.time = 5;
  });
  return entries;
}

test('PAGINATION-PAGES-PARTITION on a deployment whose calls are sparse, a call logged mid-walk that the target’s clock cannot place before the last page leaves the walk not judged, never judged wrong; a total that falls is still found', async () => {
  const entries = await sparseWalk();
  const pages = entries.map(
    (entry) => JSON.parse(entry.response.content.text!) as { data: Array<{ sessionId: string }>; meta: { pagination: { total: number } } },
  );
  // What the traffic holds: page 2 repeats page 1's last call and names one call more; page 1 asked
  // again shows the new call first.
  expect(pages[1]!.data[0]!.sessionId).toBe(pages[0]!.data.at(-1)!.sessionId);
  expect(pages[1]!.meta.pagination.total).toBe(pages[0]!.meta.pagination.total + 1);
  expect(pages[2]!.data.slice(1).map((call) => call.sessionId)).toEqual(pages[0]!.data.slice(0, 4).map((call) => call.sessionId));
  const clean = await judged('sparse-clean', entries);
  expect(clean.run.code, `${clean.run.stdout}\n${clean.run.stderr}`).toBe(0);
  expect(clean.run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN 3 EXCHANGES.`);
  expect(clean.walks).toEqual({ judged: 0, notJudged: { [WALK_NOT_JUDGED.unplaced]: 1, [WALK_NOT_JUDGED.onePage]: 1 } });

  // The same asks of a target whose total grows with the page number: page 1 asked again names less
  // than page 2 did, which under no filter a clean target's total never does.
  const drifting = await judged('sparse-drifting', await sparseWalk('total-drifts-with-page'));
  expect(drifting.run.code, `${drifting.run.stdout}\n${drifting.run.stderr}`).toBe(1);
  expect(drifting.status('PAGINATION-PAGES-PARTITION')).toBe('fail');
});

test('PAGINATION-PAGES-PARTITION traffic too sparse to walk a listing is not judged, with why: one page of each list, pages of one list asked far apart', async () => {
  const entries = await recordAgainstReference({ seed: 5, calls: 300 }, async (base, key) => {
    // Page 1 of each listing, as a dashboard polls it; then pages 1 and 2 of one list, the second
    // recorded as asked ten minutes later (past the settling window).
    for (const listing of LISTINGS) await walkListing(base, key, listing, 0, 1);
    await sleep(10);
    await walkListing(base, key, { query: { type: 'video' }, perPage: 5 }, 0, 2);
  });
  const late = entries.at(-1)!;
  late.startedDateTime = new Date(Date.parse(late.startedDateTime) + 600_000).toISOString();
  const { run, results, html, walks } = await judged('sparse', entries);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(walks).toEqual({ judged: 0, notJudged: { [WALK_NOT_JUDGED.onePage]: 3, [WALK_NOT_JUDGED.farApart]: 2 } });
  const reason = results.passive!.notJudged.find((entry) => entry.id === 'PAGINATION-PAGES-PARTITION')?.reason;
  expect(reason).toContain('a walk over several pages of one List Calls listing');
  expect(reason).toContain(`3 × ${WALK_NOT_JUDGED.onePage}`);
  expect(reason).toContain(`2 × ${WALK_NOT_JUDGED.farApart}`);
  expect(html).toContain(`Pages judged together: 0 walk(s) of a listing&#39;s pages judged`);
});
