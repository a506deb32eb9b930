// AUTH-INVALID-KEY from traffic: a request that carried an apikey header, any key, was not one
// without a key. A target that refuses it with AUTH_ERR_EMPTY_APIKEY (the error for a key absent
// from the headers) breaks AUTH-INVALID-KEY: the key was there and refused, so not valid, and its
// error is AUTH_ERR_APIKEY_NOT_FOUND. A recording's placeholder ([redacted], ****) is still a header
// that was there. A request with no key answered AUTH_ERR_EMPTY_APIKEY is right, as before.
import { test, expect } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { readHar } from '../../passive/har-reader.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harEntry, writeHar } from './har-entries.ts';
import { harOf, type HarEntry } from './recording-forwarder.ts';
import { replayAgainst } from './replay.ts';

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const emptyKey = { error: { code: 'AUTH_ERR_EMPTY_APIKEY', message: 'The apikey header is missing or empty.' } };
const unknownKey = { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'The apikey is not valid.' } };
const answered = (headers: Record<string, string>, body: unknown) => harEntry({ url: `${CALLS}/calls`, headers, status: 401, body });

async function judged(entries: HarEntry[]): Promise<PassiveResult> {
  const judge = createPassiveJudge();
  await readHar(writeHar(entries), judge);
  return judge.finish();
}
const tallyOf = (result: PassiveResult, id: string) => result.requirements.get(id) ?? { judged: 0, violations: 0, examples: [] };

test('AUTH-INVALID-KEY a request carrying an apikey header answered AUTH_ERR_EMPTY_APIKEY is a violation, the key a placeholder or not', async () => {
  for (const key of ['stale-key-0a1b2c3d4e', '[redacted]', '********']) {
    const result = await judged([answered({ apikey: key }, emptyKey)]);
    expect(tallyOf(result, 'AUTH-INVALID-KEY').violations, key).toBe(1);
    expect(tallyOf(result, 'AUTH-EMPTY-KEY').violations, key).toBe(0);
    const [example] = tallyOf(result, 'AUTH-INVALID-KEY').examples;
    expect(example!.title, key).toContain('carried an apikey header was answered AUTH_ERR_EMPTY_APIKEY');
    expect(example!.expected, key).toContain('AUTH_ERR_APIKEY_NOT_FOUND');
    expect(result.notJudged.has('AUTH-INVALID-KEY'), key).toBe(false);
  }
  // The same in the report a team reads, with the key kept out of it.
  const dir = freshDir('passive-present-key');
  const run = await runScript(CLI.conformance, ['har', writeHar([answered({ apikey: 'stale-key-0a1b2c3d4e' }, emptyKey)])], {
    REPORT_DIR: dir,
  });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  const { results } = readReports(dir);
  expect(results.requirements.find((entry) => entry.id === 'AUTH-INVALID-KEY')?.status).toBe('fail');
  expect(JSON.stringify(results)).not.toContain('stale-key-0a1b2c3d4e');
});

test('AUTH-EMPTY-KEY a request with no apikey header answered AUTH_ERR_EMPTY_APIKEY is still right; a present key answered AUTH_ERR_APIKEY_NOT_FOUND is judged and right', async () => {
  const result = await judged([
    answered({}, emptyKey),
    answered({ apikey: '' }, emptyKey),
    answered({ apikey: 'stale-key-0a1b2c3d4e' }, unknownKey),
    answered({ apikey: '[redacted]' }, unknownKey),
  ]);
  expect(tallyOf(result, 'AUTH-EMPTY-KEY')).toMatchObject({ judged: 2, violations: 0 });
  expect(tallyOf(result, 'AUTH-INVALID-KEY')).toMatchObject({ judged: 2, violations: 0 });
  expect([...result.requirements].filter(([, tally]) => tally.violations > 0).map(([id]) => id)).toEqual([]);
});

test('AUTH-INVALID-KEY the reference with the fault invalid-key-reported-as-empty: its answer to an unknown key is seen in traffic', async () => {
  const requests = [
    { method: 'GET', path: '/v3/calls', headers: [['apikey', 'not-a-key-of-the-reference']] as Array<[string, string]> },
    { method: 'GET', path: '/v3/calls', headers: [] as Array<[string, string]> },
  ];
  const judgedAgainst = async (fault: string | undefined) => {
    const path = join(freshDir('passive-present-key-fault'), `${fault ?? 'clean'}.har`);
    writeFileSync(path, JSON.stringify(harOf(await replayAgainst(requests, fault))));
    const judge = createPassiveJudge();
    await readHar(path, judge);
    return judge.finish();
  };
  expect(tallyOf(await judgedAgainst('invalid-key-reported-as-empty'), 'AUTH-INVALID-KEY').violations).toBe(1);
  const clean = await judgedAgainst(undefined);
  expect(tallyOf(clean, 'AUTH-INVALID-KEY')).toMatchObject({ judged: 1, violations: 0 });
  expect(tallyOf(clean, 'AUTH-EMPTY-KEY')).toMatchObject({ judged: 1, violations: 0 });
});
