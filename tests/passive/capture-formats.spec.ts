// Traffic captured off the request path is judged as a HAR is (issue 58): the suite's own traffic
// against the reference, recorded once as a HAR, is written as Envoy tap files (file_per_tap), as
// an Envoy /tap stream saved to one file, and as JSON Lines of exchanges (capture-files.ts); every
// shape gives the HAR's findings, requirement by requirement, on the clean reference (none) and with
// a fault the HAR shows. With Envoy's default 1 KiB bodies nothing is found that is not there, and
// each exchange cut short is counted and said. A JSON access log, which holds no body, finds what a
// status and the headers it names show, and nothing it cannot.
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPassiveJudge, type PassiveResult } from '../../passive/judge.ts';
import { readCapture } from '../../passive/capture-reader.ts';
import { CLI, freshDir, once, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { runScript } from '../runner/run-suite.ts';
import { harOf, type HarEntry } from './recording-forwarder.ts';
import { recordSuiteHar } from './record-suite.ts';
import { replayAgainst, requestsOf } from './replay.ts';
import { writeAccessLog, writeExchangeLines, writeTapFiles, writeTapStream } from './capture-files.ts';
import { readFileSync, writeFileSync } from 'node:fs';

test.describe.configure({ mode: 'default' });
test.setTimeout(3 * SUITE_RUN_TIMEOUT_MS);

/** Envoy's tap keeps this much of each body unless told otherwise (max_buffered_rx_bytes, max_buffered_tx_bytes). */
const ENVOY_DEFAULT_BODY_BYTES = 1024;

const recorded = once(() => recordSuiteHar(undefined));
const entriesOf = async (har: string) => (JSON.parse(await readFile(har, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;

/** What a judge found, requirement by requirement: how many exchanges could show it, and how many broke it. */
async function findings(files: readonly string[]): Promise<{ result: PassiveResult; found: Record<string, string>; truncated: number }> {
  const judge = createPassiveJudge();
  let truncated = 0;
  for (const file of files) truncated += (await readCapture(file, judge)).truncated;
  const result = judge.finish();
  const found = Object.fromEntries(
    [...result.requirements].map(([id, tally]) => [id, `judged ${tally.judged}, violated ${tally.violations}`] as const).sort(),
  );
  return { result, found, truncated };
}

/** The traffic in every shape, each in its own files. */
function everyShape(entries: readonly HarEntry[], label: string) {
  const dir = freshDir(`passive-capture-${label}`);
  const har = join(dir, 'traffic.har');
  writeFileSync(har, JSON.stringify(harOf([...entries])));
  return {
    har: [har],
    'Envoy tap files': writeTapFiles(entries, join(dir, 'taps')),
    'Envoy /tap stream': [writeTapStream(entries, join(dir, 'tap-stream.json'))],
    'JSON Lines': [writeExchangeLines(entries, join(dir, 'exchanges.jsonl'))],
  };
}

for (const fault of [undefined, 'type-filter-ignored']) {
  test(`the suite's traffic against the reference${fault ? ` with the fault ${fault}` : ''}: every shape of capture gives the HAR's findings`, async () => {
    const { har } = await recorded();
    const entries = fault === undefined ? await entriesOf(har) : await replayAgainst(await requestsOf(har), fault);
    const shapes = everyShape(entries, fault ?? 'clean');
    const expected = await findings(shapes.har);
    expect(expected.result.exchanges).toBe(entries.length);
    const violated = Object.entries(expected.found).filter(([, text]) => !text.endsWith('violated 0'));
    if (fault === undefined) expect(violated).toEqual([]);
    else expect(violated.map(([id]) => id)).toContain('CALLS-LIST-FILTER-TYPE');
    for (const [shape, files] of Object.entries(shapes)) {
      const got = await findings(files);
      expect(got.result.exchanges, shape).toBe(entries.length);
      expect(got.result.bodiesAbsent, shape).toBe(expected.result.bodiesAbsent);
      expect(got.found, shape).toEqual(expected.found);
      expect(got.truncated, shape).toBe(0);
    }
  });
}

test("Envoy's default 1 KiB bodies: no false violation, every exchange cut short counted and said, by `har` as a user runs it", async () => {
  const entries = await entriesOf((await recorded()).har);
  const dir = freshDir('passive-capture-cut');
  const stream = writeTapStream(entries, join(dir, 'tap-stream.json'), ENVOY_DEFAULT_BODY_BYTES);
  const bytes = ({ text, encoding }: HarEntry['response']['content']) =>
    text === undefined ? 0 : encoding === 'base64' ? Buffer.from(text, 'base64').length : Buffer.byteLength(text);
  const cut = entries.filter((entry) => bytes(entry.response.content) > ENVOY_DEFAULT_BODY_BYTES).length;
  expect(cut).toBeGreaterThan(10);

  const { result, found, truncated } = await findings([stream]);
  expect(truncated).toBe(cut);
  expect(result.bodiesAbsent).toBeGreaterThanOrEqual(cut);
  expect(Object.entries(found).filter(([, text]) => !text.endsWith('violated 0'))).toEqual([]);

  const reports = freshDir('passive-capture-cut-report');
  const run = await runScript(CLI.conformance, ['har', stream], { REPORT_DIR: reports });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(`Passive verdict: NO VIOLATIONS IN ${entries.length} EXCHANGES.`);
  expect(run.stdout).toMatch(new RegExp(`${truncated} exchange\\(s\\) had a body the capture cut short \\(an Envoy tap keeps 1 KiB`));
  expect(readReports(reports).results.verdictReason).toContain('had a body the capture cut short');
});

test('values of no shape the judge reads are counted and left alone; a file of no JSON is refused in one line', async () => {
  const dir = freshDir('passive-capture-odd');
  const mixed = join(dir, 'mixed.jsonl');
  writeFileSync(
    mixed,
    [
      '{"http_streamed_trace_segment":{"trace_id":"1","request_headers":{"headers":[]}}}',
      '{"request":{"method":"GET"},"response":{"status":200}}',
      '[1,2,3]',
      '{"startedAt":"2026-12-06T08:00:00.000Z","durationMs":3,"request":{"method":"GET","url":"http://127.0.0.1:9/v3/calls/abc","headers":{"apikey":"k-123"}},"response":{"status":404,"headers":[["content-type","application/json"]],"body":"{\\"error\\":{\\"code\\":\\"ERR_CALL_SESSION_NOT_FOUND\\"}}"}}',
    ].join('\n'),
  );
  const judge = createPassiveJudge();
  expect(await readCapture(mixed, judge)).toEqual({ entries: 4, malformed: 3, truncated: 0 });
  expect(judge.finish().exchanges).toBe(1);
  // JSON Lines whose last line was cut short (a capture still being written): that line is no exchange, the rest are read.
  const cut = join(dir, 'cut.jsonl');
  const lines = readFileSync(mixed, 'utf8').split('\n');
  writeFileSync(cut, [lines[3], lines[3]!.slice(0, 40)].join('\n'));
  expect(await readCapture(cut, createPassiveJudge())).toEqual({ entries: 2, malformed: 1, truncated: 0 });

  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '\n');
  const run = await runScript(CLI.conformance, ['har', empty], { REPORT_DIR: freshDir('passive-capture-odd-report') });
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toMatch(
    /empty\.jsonl is not a HAR file, an Envoy tap capture, JSON Lines of exchanges or a JSON access log: it holds no JSON value$/,
  );
});

test('a JSON access log: no body, so only what a status and the logged headers show; the apikey header unlogged, credentials are not judged', async () => {
  const { har } = await recorded();
  const requests = await requestsOf(har);
  const dir = freshDir('passive-capture-log');
  const verdicts: Record<string, Record<string, string>> = {};
  for (const fault of [undefined, 'get-call-without-auth'])
    for (const withKey of [true, false]) {
      const entries = fault === undefined ? await entriesOf(har) : await replayAgainst(requests, fault);
      const log = writeAccessLog(entries, join(dir, `${fault ?? 'clean'}-${withKey ? 'with' : 'without'}-key.log`), withKey);
      const { result, found } = await findings([log]);
      // Every exchange judged, none with a body: nothing a body shows is judged.
      expect(result.exchanges).toBe(entries.length);
      expect(result.bodiesAbsent).toBe(entries.length);
      expect(Object.keys(found).filter((id) => !id.startsWith('AUTH-'))).toEqual([]);
      verdicts[`${fault ?? 'clean'}, apikey ${withKey ? 'logged' : 'not logged'}`] = Object.fromEntries(
        Object.entries(found).map(([id, text]) => [id, text.endsWith('violated 0') ? 'met' : 'violated']),
      );
    }
  expect(verdicts).toEqual({
    // A key called unknown is said in the body, which a log does not hold: AUTH-INVALID-KEY is not judged.
    'clean, apikey logged': { 'AUTH-EMPTY-KEY': 'met' },
    'clean, apikey not logged': {},
    'get-call-without-auth, apikey logged': { 'AUTH-EMPTY-KEY': 'violated' },
    'get-call-without-auth, apikey not logged': {},
  });

  // As a user runs it, with the field names of another server.
  const renamed = join(dir, 'renamed.log');
  writeFileSync(
    renamed,
    (await readFile(join(dir, 'get-call-without-auth-with-key.log'), 'utf8'))
      .replaceAll('"request_method":', '"verb":')
      .replaceAll('"request_uri":', '"path":'),
  );
  const reports = freshDir('passive-capture-log-report');
  const run = await runScript(CLI.conformance, ['har', '--access-log-fields', 'method=verb,uri=path', renamed], { REPORT_DIR: reports });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(run.stdout).toContain('Passive verdict: VIOLATIONS FOUND. 1 requirement(s) violated by the recorded traffic: AUTH-EMPTY-KEY.');
  // The line that judges the same traffic again names the field names too.
  expect(readReports(reports).results.failures[0]?.rerun).toContain("har --access-log-fields 'method=verb,uri=path' ");
  const bad = await runScript(CLI.conformance, ['har', '--access-log-fields', 'verb=method', renamed], {});
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim()).toBe(
    '--access-log-fields takes part=field pairs, the parts method, uri, status, time, seconds, milliseconds, host, scheme (got "verb=method")',
  );
});
