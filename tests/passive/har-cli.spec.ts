// `npm run conformance -- har session.har` (docs/passive.md shows it; FILE... here) on HARs made by hand: the deployed API's published payloads
// judged without a violation; base64 and absent bodies; entries of other hosts and paths counted and
// left alone; files that are not HARs refused in one line (exit 2, no stack trace); no key, token or
// cookie in any output; the cross-exchange checks (a shown call not found, a key called unknown
// then served, Get Call against the list); certify refusing a passive run; compare and
// expectations files working on passive runs.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPassiveJudge } from '../../passive/judge.ts';
import { readHar } from '../../passive/har-reader.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harEntry, writeHar } from './har-entries.ts';

const payload = (name: string) => JSON.parse(readFileSync(new URL(`../real-payloads/${name}`, import.meta.url), 'utf8')) as { data: any };
const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const CHAT = 'https://31780434a95d45.api-us.cometchat.io/v3';
/** Secrets of the kinds traffic carries; none may reach any output. */
const KEY = 'passive-selftest-key-0f9e8d7c6b5a';
const TOKEN = 'Bearer eyJhbGciOiJIUzI1NiJ9.passive-selftest-token';
const COOKIE = 'session=passive-selftest-cookie-1a2b3c';
const SECRETS = [KEY, 'eyJhbGciOiJIUzI1NiJ9.passive-selftest-token', 'passive-selftest-cookie-1a2b3c', 'passive-query-key-77aa66'];
const authorized = { apikey: KEY, Authorization: TOKEN, Cookie: COOKIE, Accept: 'application/json' };

const list = payload('list-calls.json');
const got = payload('get-call.json');
const unread = payload('mark-unread.json');

function realPayloadEntries() {
  return [
    harEntry({ url: `${CALLS}/calls`, headers: authorized, status: 200, body: list }),
    harEntry({
      url: `${CALLS}/calls?status=ended&receiverType=user`,
      headers: authorized,
      status: 200,
      body: {
        ...list,
        data: list.data.filter((call: any) => call.receiverType === 'user'),
        meta: { pagination: { total: 1, count: 1, total_pages: 1, current_page: 1 } },
      },
      bodyAs: 'base64',
    }),
    harEntry({
      url: `${CALLS}/calls/${encodeURIComponent(got.data.sessionId)}?apikey=passive-query-key-77aa66`,
      headers: authorized,
      status: 200,
      body: got,
    }),
    harEntry({
      method: 'DELETE',
      url: `${CHAT}/groups/demo-group/conversation/read`,
      headers: { ...authorized, 'Content-Type': 'application/json' },
      status: 200,
      body: unread,
      requestBody: '{"messageId":340}',
    }),
  ];
}

async function har(files: string[], env: Record<string, string> = {}) {
  const dir = freshDir('passive-report');
  const run = await runScript(CLI.conformance, ['har', ...files], { REPORT_DIR: dir, ...env });
  return { run, dir };
}

/** Every file a run wrote, and what it printed. */
function everything(run: { stdout: string; stderr: string }, dir: string): string {
  return [run.stdout, run.stderr, ...readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8'))].join('\n');
}

test("the deployed API's published payloads, as a HAR, show no violation; their keys, tokens and cookies reach no output", async () => {
  const file = writeHar(realPayloadEntries());
  const { run, dir } = await har([file]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Passive verdict: NO VIOLATIONS IN 4 EXCHANGES.');
  const { results, junit, html } = readReports(dir);
  expect(results.verdict).toBe('NO VIOLATIONS IN 4 EXCHANGES');
  expect(results.exitCode).toBe(0);
  expect(results.passive?.byOperation).toEqual({ listCalls: 2, getCall: 1, markGroupConversationAsUnread: 1 });
  expect(results.passive?.redacted).toEqual(expect.arrayContaining(['apikey', 'authorization', 'cookie', 'apikey (query)']));
  // The published calls follow the span and joined-entries readings: learned from the traffic, as a run learns them.
  expect(
    results.readings.find((reading) => reading.subject === 'call-minutes')?.candidates.find((candidate) => candidate.status === 'accepted')
      ?.id,
  ).toBe('call-span');
  expect(results.requirements.find((entry) => entry.id === 'CALLS-GET-MATCHES-LIST')?.status).toBe('pass');
  expect(results.requirements.find((entry) => entry.id === 'CALLS-LIST-FILTER-STARTED-AT')?.status).toBe('skip');
  expect(JSON.stringify(results)).not.toContain('CONFORMANT');
  expect(html).toContain('NO VIOLATIONS IN 4 EXCHANGES');
  expect(junit).toContain('NO VIOLATIONS IN 4 EXCHANGES');
  const all = everything(run, dir);
  for (const secret of SECRETS) expect(all).not.toContain(secret);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('Passive conformance: NO VIOLATIONS IN 4 EXCHANGES');
});

test('a violation is reported with the entry that broke it and a curl to reproduce, keys as variables; exit 1', async () => {
  const broken = {
    ...list,
    data: [{ ...list.data[1], type: 'screenshare' }],
    meta: { pagination: { total: 1, count: 1, total_pages: 1, current_page: 1 } },
  };
  // A traced client's request (W3C traceparent): its trace id stands beside the failure, to find the exchange in the server's logs.
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const file = writeHar([
    harEntry({ url: `${CALLS}/calls?type=audio`, headers: { ...authorized, traceparent }, status: 200, body: broken }),
  ]);
  const { run, dir } = await har([file]);
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain('Passive verdict: VIOLATIONS FOUND.');
  const { results } = readReports(dir);
  expect(results.verdict).toBe('VIOLATIONS FOUND');
  const failure = results.failures.find((entry) => entry.requirements.includes('CALL-FIELD-TYPE'));
  expect(failure?.message).toContain('traffic.har, entry 1');
  expect(failure?.message).toMatch(
    /Reproduce with:\s+curl -sS -X GET -H "apikey: \$API_KEY" -H "Authorization: \$AUTHORIZATION" -H "Cookie: \$COOKIE"/,
  );
  expect(failure?.rerun).toBe(`npm run conformance -- har ${file}`);
  expect(failure?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  expect(failure?.message).toContain('  Trace id: 4bf92f3577b34da6a3ce929d0e0e4736');
  // The filter the request carried is judged too: a screenshare call does not match type=audio.
  expect(results.requirements.find((entry) => entry.id === 'CALLS-LIST-FILTER-TYPE')?.status).toBe('fail');
  for (const secret of SECRETS) expect(everything(run, dir)).not.toContain(secret);

  // certify refuses a passive run in one line; compare and expectations work on passive runs.
  const certify = await runScript(CLI.certify, [join(dir, 'results.json')]);
  expect(certify.code).toBe(2);
  expect(certify.stderr.trim().split('\n')).toHaveLength(1);
  expect(certify.stderr).toContain('A passive run (recorded traffic judged) cannot be certified');
  const clean = await har([writeHar(realPayloadEntries())]);
  const compare = await runScript(CLI.conformance, ['compare', clean.dir, dir]);
  expect(compare.code, compare.stderr).toBe(1);
  expect(compare.stdout).toMatch(/CALL-FIELD-TYPE \[MUST\]: pass → fail/);
  const expectations = join(freshDir('passive-expectations'), 'expected.yaml');
  writeFileSync(
    expectations,
    '- requirement: CALL-FIELD-TYPE\n  reason: presenter calls are typed screenshare until the fix ships\n- requirement: CALLS-LIST-FILTER-TYPE\n  reason: the same calls\n',
  );
  const excused = await har([file], { CONFORMANCE_EXPECTATIONS: expectations });
  expect(excused.run.code, excused.run.stderr).toBe(0);
  expect(readReports(excused.dir).results.requirements.find((entry) => entry.id === 'CALL-FIELD-TYPE')?.status).toBe('expected-fail');
});

test('base64 and absent bodies are read; other hosts and paths are counted and left alone', async () => {
  const entries = [
    ...realPayloadEntries(),
    harEntry({ url: `${CALLS}/calls?page=2`, headers: authorized, status: 200, bodyAs: 'absent' }),
    harEntry({ url: 'https://cdn.example.com/app.js', status: 200, body: 'console.log(1)' }),
    harEntry({ url: `${CHAT}/users`, headers: authorized, status: 200, body: { data: [] } }),
  ];
  const { run, dir } = await har([writeHar(entries)]);
  expect(run.code, run.stderr).toBe(0);
  const { results } = readReports(dir);
  expect(results.passive).toMatchObject({ entries: 7, exchanges: 5, bodiesAbsent: 1, ignored: { 'other path': 2 } });
  // With the base addresses configured, another host is named as such.
  const configured = await har([writeHar(entries)], { CALLS_BASE_URL: CALLS, CHAT_BASE_URL: CHAT });
  expect(configured.run.code, configured.run.stderr).toBe(0);
  expect(readReports(configured.dir).results.passive?.ignored).toEqual({ 'other host': 1, 'other path': 1 });
});

test('a file that is not a HAR is refused in one line, exit 2, no stack trace', async () => {
  const dir = freshDir('passive-malformed');
  const cases: Array<[string, string, RegExp]> = [
    ['truncated.har', '{"log":{"entries":[{"request":', /truncated\.har is not a HAR file: /],
    [
      'not-json.har',
      '<html>not json</html>',
      /not-json\.har is not a HAR file, an Envoy tap capture, JSON Lines of exchanges or a JSON access log: /,
    ],
    ['no-entries.har', '{"log":{"version":"1.2"}}', /no-entries\.har is not a HAR file: it has no log\.entries array/],
  ];
  for (const [name, text, expected] of cases) {
    writeFileSync(join(dir, name), text);
    const { run } = await har([join(dir, name)]);
    expect(run.code, name).toBe(2);
    expect(run.stderr.trim().split('\n'), name).toHaveLength(1);
    expect(run.stderr, name).toMatch(expected);
    expect(run.stderr, name).not.toMatch(/\n\s+at /);
  }
  const missing = await har([join(dir, 'absent.har')]);
  expect(missing.run.code).toBe(2);
  expect(missing.run.stderr.trim()).toMatch(/absent\.har: no such file$/);
  const usage = await har([]);
  expect(usage.run.code).toBe(2);
});

test('what traffic shows across exchanges: a shown call not found, a key called unknown then served, Get Call unlike the list', async () => {
  const call = list.data[1];
  // Minutes that shrink after the list showed them: a late tally only ever adds minutes.
  const other = { ...got, data: { ...got.data, status: 'ended', totalAudioMinutes: 0.1, totalDurationInMinutes: 0.1 } };
  const entries = [
    harEntry({ url: `${CALLS}/calls`, headers: authorized, status: 200, body: list }),
    harEntry({
      url: `${CALLS}/calls/${call.sessionId}`,
      headers: authorized,
      status: 404,
      body: { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'not found' } },
    }),
    harEntry({
      url: `${CALLS}/calls`,
      headers: { apikey: 'passive-unknown-key-1234' },
      status: 401,
      body: { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'unknown key' } },
    }),
    harEntry({ url: `${CALLS}/calls`, headers: { apikey: 'passive-unknown-key-1234' }, status: 200, body: list }),
    harEntry({ url: `${CALLS}/calls`, status: 200, body: list }),
    harEntry({ url: `${CALLS}/calls/${call.sessionId}`, headers: authorized, status: 200, body: other }),
  ];
  const path = writeHar(entries);
  const judge = createPassiveJudge();
  await readHar(path, judge);
  const result = judge.finish();
  const violated = (id: string) => result.requirements.get(id)?.violations ?? 0;
  expect(violated('CALLS-GET-OK')).toBe(1);
  expect(violated('AUTH-INVALID-KEY')).toBe(1);
  expect(violated('AUTH-EMPTY-KEY')).toBe(1);
  expect(violated('CALLS-GET-MATCHES-LIST')).toBeGreaterThan(0);
  const shownNotFound = result.requirements.get('CALLS-GET-OK')!.examples[0]!;
  expect(shownNotFound.title).toContain('a call traffic.har, entry 1 showed');
  expect(shownNotFound.source).toBe('traffic.har, entry 2');
  for (const secret of ['passive-unknown-key-1234', KEY])
    expect(JSON.stringify([...result.requirements.values()].map((tally) => tally.examples))).not.toContain(secret);
});

test("a key a recording tool replaced with one placeholder names no key: a refusal and a success under it break nothing; the proxy's numbered placeholders still do", async () => {
  const refusedThenServed = (apikey: string) => [
    harEntry({
      url: `${CALLS}/calls`,
      headers: { apikey },
      status: 401,
      body: { error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'unknown key' } },
    }),
    harEntry({ url: `${CALLS}/calls`, headers: { apikey }, status: 200, body: list }),
  ];
  for (const placeholder of ['[redacted]', 'REDACTED', '********', '<hidden>', 'xxxxxxxx']) {
    const judge = createPassiveJudge();
    await readHar(writeHar(refusedThenServed(placeholder)), judge);
    expect(judge.finish().requirements.get('AUTH-INVALID-KEY')?.violations ?? 0, placeholder).toBe(0);
  }
  const judge = createPassiveJudge();
  await readHar(writeHar(refusedThenServed('$REDACTED_3')), judge);
  expect(judge.finish().requirements.get('AUTH-INVALID-KEY')?.violations).toBe(1);
});

test('what cross-exchange checks keep is bounded: past its cap the oldest is forgotten, and nothing is judged against it', async () => {
  const [first, second] = list.data;
  const page = (call: any) => ({ data: [call], meta: { pagination: { total: 1, count: 1, total_pages: 1, current_page: 1 } } });
  const notFound = { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'not found' } };
  const entries = [
    harEntry({ url: `${CALLS}/calls?receiverType=group`, headers: authorized, status: 200, body: page(first) }),
    harEntry({ url: `${CALLS}/calls?receiverType=user`, headers: authorized, status: 200, body: page(second) }),
    harEntry({ url: `${CALLS}/calls/${first.sessionId}`, headers: authorized, status: 404, body: notFound }),
    harEntry({ url: `${CALLS}/calls/${second.sessionId}`, headers: authorized, status: 404, body: notFound }),
  ];
  const judgeWith = async (shownSessionIds: number) => {
    const judge = createPassiveJudge({ limits: { shownSessionIds } });
    await readHar(writeHar(entries), judge);
    return judge.finish().requirements.get('CALLS-GET-OK')?.violations ?? 0;
  };
  expect(await judgeWith(10)).toBe(2);
  // One id kept: the first call's is forgotten when the second is shown; only the second is judged.
  expect(await judgeWith(1)).toBe(1);
});

test('the report names the settings the traffic was judged under, read from the environment, with a remote target and no key', async () => {
  const entries = [harEntry({ url: `${CALLS}/calls`, headers: authorized, status: 200, body: list })];
  // Before: MAX_ANSWER_AGE and COVERAGE_MIN were the suite's defaults in the report, the judge using the environment's.
  const { run, dir } = await har([writeHar(entries)], { CALLS_BASE_URL: CALLS, CHAT_BASE_URL: CHAT, API_KEY: '', MAX_ANSWER_AGE: '30' });
  expect(run.code, run.stderr).toBe(0);
  const { results, html } = readReports(dir);
  expect(results.answerAges?.boundSeconds).toBe(30);
  expect(html).toContain('MAX_ANSWER_AGE = 30 s');
});
