// The proxy's HAR (passive/proxy/proxy-har.ts): HAR 1.2 that the HAR mode reads, bodies as the
// application reads them (text, or base64 when binary), and no secret in it: headers, query
// parameters and JSON properties that name one become $REDACTED_N (the same value, the same N), and
// each value so found is cut out of everything else the HAR holds, in the same entry and in later
// ones (an echoed key, a token repeated in a text body). The file appears whole or not at all.
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { harWriter } from '../../passive/proxy/proxy-har.ts';
import { startJudgingProxy } from '../../passive/proxy/proxy.ts';
import { freshDir } from '../reports/report-runs.ts';
import { createServer as createReferenceServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { createPassiveJudge } from '../../passive/judge.ts';
import { readCapture } from '../../passive/capture-reader.ts';
import { BINARY, sendRaw, startOrigin } from './proxy-origin.ts';
import { RequestTrace, traceIdOf } from '../../core/transport/trace-context.ts';

interface Entry {
  request: { url: string; headers: Array<{ name: string; value: string }>; postData?: { mimeType: string; text: string } };
  response: {
    status: number;
    statusText: string;
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    bodySize: number;
  };
}

test('the HAR holds every exchange, binary bodies in base64, and no secret: redacted where named, cut out wherever else it appears', async () => {
  const origin = await startOrigin();
  const file = join(freshDir('proxy-har'), 'out.har');
  const har = harWriter(file, { name: 'self-test', version: '1' });
  const proxy = await startJudgingProxy({ target: new URL(origin.base), port: 0, sinks: [har] });
  try {
    await sendRaw(
      `${proxy.base}/echo?key=query-key-111&type=audio`,
      'POST',
      [
        'apikey',
        'header-key-222',
        'Authorization',
        'Bearer bearer-333-token',
        'Cookie',
        'sid=cookie-444-value; theme=dark',
        'Content-Type',
        'application/json',
      ],
      Buffer.from('{"authToken":"json-token-555","uid":"u1"}'),
    );
    // No secret-named field here: the values seen before are cut out of this text body and its echo.
    await sendRaw(
      `${proxy.base}/echo`,
      'POST',
      ['Content-Type', 'text/plain'],
      Buffer.from('keys: header-key-222 and json-token-555, cookie cookie-444-value'),
    );
    await sendRaw(`${proxy.base}/binary`);
    expect(existsSync(file)).toBe(false);
    await proxy.stop(1_000);
    expect(await har.finish()).toBe(3);
  } finally {
    await origin.close();
  }
  const text = readFileSync(file, 'utf8');
  for (const secret of ['query-key-111', 'header-key-222', 'bearer-333-token', 'cookie-444-value', 'json-token-555'])
    expect(text).not.toContain(secret);
  const log = (JSON.parse(text) as { log: { version: string; entries: Entry[]; comment: string } }).log;
  expect(log.version).toBe('1.2');
  const [json, plain, binary] = log.entries;
  expect(new URL(json!.request.url).searchParams.get('type')).toBe('audio');
  // Each value its own placeholder, the same wherever it appears: the query's key, then the headers', then the cookie's value, then the body's token.
  expect(new URL(json!.request.url).searchParams.get('key')).toBe('$REDACTED_1');
  const redacted = json!.request.headers.filter((header) => header.value.startsWith('$REDACTED_'));
  expect(redacted.map((header) => header.name)).toEqual(['apikey', 'Authorization', 'Cookie']);
  const [apikey, , cookie] = redacted.map((header) => header.value);
  const cookieValue = /cookie (\$REDACTED_\d+)$/.exec(plain!.request.postData!.text)?.[1];
  expect(cookieValue).toMatch(/^\$REDACTED_\d+$/);
  expect(cookieValue).not.toBe(cookie);
  const { authToken } = JSON.parse(json!.request.postData!.text) as { authToken: string };
  expect(JSON.parse(json!.request.postData!.text)).toEqual({ authToken: expect.stringMatching(/^\$REDACTED_\d+$/), uid: 'u1' });
  expect(plain!.request.postData!.text).toBe(`keys: ${apikey} and ${authToken}, cookie ${cookieValue}`);
  expect(plain!.response.content.text).toBe(plain!.request.postData!.text);
  expect(binary!.response.status).toBe(203);
  expect(binary!.response.statusText).toBe('Fine Thanks');
  expect(binary!.response.content).toMatchObject({ size: 256, mimeType: 'image/png', encoding: 'base64' });
  expect(Buffer.from(binary!.response.content.text!, 'base64').equals(BINARY)).toBe(true);
  expect(log.comment).toContain('query parameter key');
  expect(log.comment).toContain('request body property authToken');
});

test('named OUT.jsonl, the same writer writes JSON Lines of exchanges, which har reads to the findings of the HAR written beside it, no secret in either', async () => {
  const reference = createReferenceServer({ seed: 5, calls: 120 });
  const base = await reference.listen(0);
  const dir = freshDir('proxy-lines');
  const [harFile, linesFile] = [join(dir, 'out.har'), join(dir, 'out.jsonl')];
  const writers = [harWriter(harFile, { name: 'self-test', version: '1' }), harWriter(linesFile, { name: 'self-test', version: '1' })];
  const proxy = await startJudgingProxy({ target: new URL(base), port: 0, sinks: writers });
  try {
    const through = proxy.base;
    const keyed = { apikey: DEMO_KEYS.fullAccess };
    const list = (await (await fetch(`${through}/calls?perPage=5`, { headers: keyed })).json()) as { data: Array<{ sessionId: string }> };
    for (const { sessionId } of list.data) await (await fetch(`${through}/calls/${sessionId}`, { headers: keyed })).arrayBuffer();
    await (await fetch(`${through}/calls?type=audio&perPage=3`, { headers: keyed })).arrayBuffer();
    await (await fetch(`${through}/calls`)).arrayBuffer();
    await (await fetch(`${through}/calls/no-such-call`, { headers: keyed })).arrayBuffer();
  } finally {
    await proxy.stop();
    await reference.close();
  }
  expect(await Promise.all(writers.map((writer) => writer.finish()))).toEqual([9, 9]);
  const lines = readFileSync(linesFile, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(9);
  expect(JSON.parse(lines[0]!)).toMatchObject({ request: { method: 'GET' }, response: { status: 200, body: expect.any(String) } });
  for (const text of [readFileSync(harFile, 'utf8'), lines.join('\n')]) expect(text).not.toContain(DEMO_KEYS.fullAccess);
  const judged = async (file: string) => {
    const judge = createPassiveJudge();
    await readCapture(file, judge);
    const result = judge.finish();
    return {
      exchanges: result.exchanges,
      requirements: Object.fromEntries([...result.requirements].map(([id, tally]) => [id, [tally.judged, tally.violations]])),
    };
  };
  const [fromHar, fromLines] = [await judged(harFile), await judged(linesFile)];
  expect(fromHar.exchanges).toBe(9);
  expect(fromLines).toEqual(fromHar);
});

test("the suite's trace headers pass into the HAR as they were sent: a failure's trace id is found there too", async () => {
  const origin = await startOrigin();
  const file = join(freshDir('proxy-har-trace'), 'out.har');
  const har = harWriter(file, { name: 'self-test', version: '1' });
  const proxy = await startJudgingProxy({ target: new URL(origin.base), port: 0, sinks: [har] });
  const trace = new RequestTrace('CALLS-LIST-OK a self-test -> 200');
  const sent = trace.headers();
  try {
    await sendRaw(`${proxy.base}/echo`, 'GET', Object.entries(sent).flat());
    await proxy.stop(1_000);
    expect(await har.finish()).toBe(1);
  } finally {
    await origin.close();
  }
  const [entry] = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Entry[] } }).log.entries;
  expect(entry!.request.headers).toEqual(expect.arrayContaining(Object.entries(sent).map(([name, value]) => ({ name, value }))));
  expect(traceIdOf(Object.fromEntries(entry!.request.headers.map(({ name, value }) => [name, value])))).toBe(trace.traceId);
});
