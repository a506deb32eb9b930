// What passive mode says of a requirement its traffic did not judge. Every requirement a rule of the
// passive judge can judge (passive/exchange-rules.ts) is, when no exchange showed it, "held no
// exchange that could show it", naming what would; never "passive mode has no check for it", which
// is for requirements only the suite's own requests can judge. The reasons come from the rule table
// itself, so a rule added without its reason cannot read as having no check.
import { test, expect } from '@playwright/test';
import { createPassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { RULED_REQUIREMENTS } from '../../passive/exchange-rules.ts';
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
  expect(RULED_REQUIREMENTS.has('PAGINATION-PAGES-PARTITION')).toBe(false);
  expect(result.notJudged.get('PAGINATION-PAGES-PARTITION')).toContain('needs a whole walk over every page of one list');
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
