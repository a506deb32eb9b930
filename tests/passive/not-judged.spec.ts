// What passive mode says of a requirement its traffic did not judge. Every requirement a rule of the
// passive judge can judge (passive/exchange-rules.ts) is, when no exchange showed it, "held no
// exchange that could show it", naming what would; never "passive mode has no check for it", which
// is for requirements only the suite's own requests can judge. The reasons come from the rule table
// itself (what each rule says traffic must hold to show it), so a rule added without its reason
// cannot read as having no check, and the reasons kept for what no rule judges cannot name one it does.
import { test, expect } from '@playwright/test';
import { createPassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { RULED_REQUIREMENTS, WHAT_SHOWS } from '../../passive/exchange-rules.ts';
import { FIELD_REQUIREMENTS, NEVER_FROM_TRAFFIC, notJudgedOf } from '../../passive/not-judged.ts';
import { loadCatalog } from '../../openapi/catalog.ts';
import { readHar } from '../../passive/har-reader.ts';
import { callList, listedCall } from '../openapi/samples.ts';
import { harEntry, writeHar } from './har-entries.ts';
import type { HarEntry } from './recording-forwarder.ts';

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const KEY = { apikey: 'a-recorded-key-0a1b2c' };

async function judged(entries: HarEntry[]): Promise<PassiveResult> {
  const judge = createPassiveJudge();
  await readHar(writeHar(entries), judge);
  return judge.finish();
}

test('a requirement a passive rule judges, which the traffic did not show, is said to need traffic that shows it, naming what would', async () => {
  const result = await judged([harEntry({ url: `${CALLS}/calls`, headers: KEY, status: 200, body: callList([listedCall()]) })]);
  expect(RULED_REQUIREMENTS.has('CALLS-GET-ON-BEHALF-OF-SCOPE')).toBe(true);
  for (const id of RULED_REQUIREMENTS) {
    const reason = result.notJudged.get(id);
    if (reason === undefined) continue;
    expect(reason, id).not.toContain('passive mode has no check for it');
  }
  expect(result.notJudged.get('CALLS-GET-ON-BEHALF-OF-SCOPE')).toMatch(/^the recorded traffic held no exchange that could show it \(/);
  expect(result.notJudged.get('CALLS-GET-ON-BEHALF-OF-SCOPE')).toContain(
    'a successful Get Call answer to a request with an onBehalfOf header',
  );
  // A requirement no rule judges keeps its own reason.
  expect(RULED_REQUIREMENTS.has('PAGINATION-PAGE-PARAMETERS')).toBe(false);
  expect(result.notJudged.get('PAGINATION-PAGE-PARAMETERS')).toContain('needs requests for chosen pages and page sizes');
  // Pages judged together: one page of a list is said to be too few, and how many such listings there were.
  expect(result.notJudged.get('PAGINATION-PAGES-PARTITION')).toContain('a walk over several pages of one List Calls listing');
  expect(result.notJudged.get('PAGINATION-PAGES-PARTITION')).toContain('not judged: 1 × a listing of which the traffic held one page only');
});

test('CALLS-GET-ON-BEHALF-OF-SCOPE is judged from a Get Call answered on behalf of a user who took part', async () => {
  const call = listedCall();
  const result = await judged([
    harEntry({
      url: `${CALLS}/calls/${String(call.sessionId)}`,
      headers: { ...KEY, onBehalfOf: 'user-1' },
      status: 200,
      body: { data: call },
    }),
  ]);
  expect(result.notJudged.has('CALLS-GET-ON-BEHALF-OF-SCOPE')).toBe(false);
  expect(result.requirements.get('CALLS-GET-ON-BEHALF-OF-SCOPE')).toMatchObject({ judged: 1, violations: 0 });
});

test('the lists that must agree come from the rule table: each ruled requirement says what shows it, and the reasons kept for the rest name only requirements no rule judges', () => {
  const catalog = loadCatalog();
  const ids = new Set(catalog.requirements.map((requirement) => requirement.id));
  for (const id of RULED_REQUIREMENTS) {
    expect(ids.has(id), id).toBe(true);
    expect(WHAT_SHOWS.get(id)?.shows, id).toMatch(/^an? /);
  }
  expect([...WHAT_SHOWS.keys()].sort()).toEqual([...RULED_REQUIREMENTS].sort());
  const fields = new Set(FIELD_REQUIREMENTS(catalog));
  for (const id of Object.keys(NEVER_FROM_TRAFFIC)) {
    expect(ids.has(id), id).toBe(true);
    expect(RULED_REQUIREMENTS.has(id) || fields.has(id), `${id} is judged, yet kept as never judged`).toBe(false);
  }
  // The date filters are not judged from traffic, so no rule claims them.
  expect(RULED_REQUIREMENTS.has('CALLS-LIST-FILTER-STARTED-AT')).toBe(false);
  expect(NEVER_FROM_TRAFFIC['CALLS-LIST-FILTER-STARTED-AT']).toBeDefined();
  // Several rules of one requirement: what each shows, said once each.
  expect(WHAT_SHOWS.get('AUTH-INVALID-KEY')?.shows).toBe(
    'a request with an apikey header refused with AUTH_ERR_APIKEY_NOT_FOUND or AUTH_ERR_EMPTY_APIKEY, or a key answered AUTH_ERR_APIKEY_NOT_FOUND and sent again later',
  );
  const notJudged = notJudgedOf(new Map(), catalog);
  expect(notJudged.get('CALLS-LIST-OK')).toBe(
    "the recorded traffic held no exchange that could show it (a successful List Calls answer): a refusal may answer a client's mistake",
  );
  expect([...notJudged.keys()].sort()).toEqual([...ids].sort());
});
