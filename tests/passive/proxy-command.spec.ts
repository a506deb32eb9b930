// `npm run conformance -- proxy --target URL [--port N] [--har OUT.har]` as a team runs it: a bad
// argument ends it at once with one line naming the option and the usage (exit 2); a signal (SIGTERM
// or SIGINT) makes it write the passive reports and the HAR of what it saw, in which no key, token
// or cookie appears; an HTTPS target is reached as any other, trusted through NODE_EXTRA_CA_CERTS.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { CA_CERTIFICATE, startTlsFront } from '../tls/tls-front.ts';
import { startProxyProcess } from './proxy-process.ts';
import { sendRaw } from './proxy-origin.ts';

test.setTimeout(120_000);

for (const [args, named] of [
  [['--port', '0'], '--target is required'],
  [['--target', 'not a url'], '--target must be an http:// or https:// URL'],
  [['--target', 'ftp://example.com/v3'], '--target must be an http:// or https:// URL'],
  [['--target', 'http://127.0.0.1:1/v3', '--port', '70000'], '--port must be a whole number from 0 to 65535'],
  [['--target', 'http://127.0.0.1:1/v3', '--port', 'eighty'], '--port must be a whole number from 0 to 65535'],
  [['--target', 'http://127.0.0.1:1/v3', '--har', '/no/such/folder/out.har'], '--har names a file in a folder that does not exist'],
] as const) {
  test(`proxy ${args.join(' ')}: exit 2 with one line naming the option ("${named}") and the usage`, async () => {
    const run = await runScript(CLI.conformance, ['proxy', ...args], {}, 30_000);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`proxy: ${named}`);
    expect(lines[1]).toMatch(/^Usage: npm run conformance -- proxy --target URL \[--chat-target URL\] \[--port N\] \[--har OUT\.har\]/);
    expect(run.stdout).toBe('');
  });
}

// An option the proxy does not have is refused by the command line itself, before the proxy starts,
// with the proxy's whole help as the usage.
test("proxy --target URL --verbose: exit 2, the first line naming the unknown option, then the proxy's usage", async () => {
  const run = await runScript(CLI.conformance, ['proxy', '--target', 'http://127.0.0.1:1/v3', '--verbose'], {}, 30_000);
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines[0]).toBe('calls-conformance: unknown option --verbose for proxy');
  expect(lines).toContain('Usage: npm run conformance -- proxy --target URL [--chat-target URL] [--port N] [--har OUT.har]');
  expect(run.stdout).toBe('');
});

/** What a team's client sends: lists with and without filters, a Get Call, a key in the query, cookies and a bearer token. */
async function clientTraffic(base: string) {
  const key = DEMO_KEYS.fullAccess;
  const list = await sendRaw(`${base}/calls?perPage=5`, 'GET', ['apikey', key, 'Cookie', 'session=cookie-secret-123']);
  const sessionId = (JSON.parse(list.body.toString()) as { data: Array<{ sessionId: string }> }).data[0]!.sessionId;
  const answers = [
    list,
    await sendRaw(`${base}/calls?type=audio&status=ended`, 'GET', [
      'apikey',
      DEMO_KEYS.readOnly,
      'Authorization',
      'Bearer bearer-secret-456',
    ]),
    await sendRaw(`${base}/calls/${encodeURIComponent(sessionId)}?apikey=${key}`, 'GET', ['apikey', key]),
    await sendRaw(`${base}/calls`),
    // A key the target does not know: in the HAR, a placeholder of its own, so that judging the HAR
    // again does not take it for the known key refused.
    await sendRaw(`${base}/calls?perPage=2`, 'GET', ['apikey', 'unknown-key-000']),
  ];
  return answers.map((answer) => answer.status);
}

const SECRETS = [DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly, 'cookie-secret-123', 'bearer-secret-456', 'unknown-key-000'];

test('SIGTERM: the proxy finishes, writes the passive reports (NO VIOLATIONS IN 5 EXCHANGES, exit 0) and a HAR 1.2 of what it saw, in which no key, cookie or token appears', async () => {
  const reference = createServer({ seed: 5, calls: 300 });
  const reports = freshDir('proxy-reports');
  const harFile = join(freshDir('proxy-har'), 'session.har');
  try {
    const target = await reference.listen(0);
    const proxy = await startProxyProcess(['--target', target, '--port', '0', '--har', harFile], { REPORT_DIR: reports });
    expect(proxy.base).toBe(`${proxy.address}/v3`);
    expect(await clientTraffic(proxy.base)).toEqual([200, 200, 200, 401, 401]);
    const exit = await proxy.stop('SIGTERM');
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
    expect(exit.stdout).toContain('Passive verdict: NO VIOLATIONS IN 5 EXCHANGES.');
    expect(exit.stdout).toContain(`HAR of 5 exchanges (secrets redacted): ${harFile}`);
    expect(readReports(reports).results.verdict).toBe('NO VIOLATIONS IN 5 EXCHANGES');

    const text = readFileSync(harFile, 'utf8');
    const har = JSON.parse(text) as {
      log: {
        version: string;
        entries: Array<{
          request: { url: string; headers: Array<{ name: string; value: string }> };
          response: { status: number; content: { text?: string } };
        }>;
        comment: string;
      };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((entry) => entry.response.status)).toEqual([200, 200, 200, 401, 401]);
    expect(JSON.parse(har.log.entries[0]!.response.content.text!).data).toHaveLength(5);
    // The same key, the same placeholder, in the header of the first request and the query of the third.
    const placeholder = har.log.entries[0]!.request.headers.find((header) => header.name === 'apikey')!.value;
    expect(placeholder).toMatch(/^\$REDACTED_\d+$/);
    expect(new URL(har.log.entries[2]!.request.url).searchParams.get('apikey')).toBe(placeholder);
    expect(har.log.entries[4]!.request.headers.find((header) => header.name === 'apikey')!.value).not.toBe(placeholder);
    expect(har.log.comment).toMatch(/request header apikey.*request header authorization.*request header cookie/);
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(exit.stdout + exit.stderr).not.toContain(secret);
      for (const file of ['results.json', 'index.html', 'junit.xml', 'summary.md'])
        expect(readFileSync(join(reports, file), 'utf8')).not.toContain(secret);
    }
    // The HAR is one the HAR mode reads, and judges the same.
    const again = await runScript(CLI.conformance, ['har', harFile], { REPORT_DIR: freshDir('proxy-har-reports') }, 60_000);
    expect(again.stdout).toContain('Passive verdict: NO VIOLATIONS IN 5 EXCHANGES.');
    expect(again.code).toBe(0);
  } finally {
    await reference.close();
  }
});

test('SIGINT (Ctrl-C) stops it the same way; with no exchange of the three operations the verdict says nothing was judged (exit 3)', async () => {
  const reference = createServer({ seed: 5, calls: 100 });
  try {
    const proxy = await startProxyProcess(['--target', await reference.listen(0), '--port', '0'], {
      REPORT_DIR: freshDir('proxy-reports'),
    });
    expect((await sendRaw(`${proxy.address}/elsewhere`)).status).toBe(404);
    const exit = await proxy.stop('SIGINT');
    expect(exit.stdout).toContain('SIGINT: the proxy stops accepting');
    expect(exit.stdout).toContain('1 exchange passed through the proxy');
    expect(exit.stdout).toContain('Passive verdict: NO VIOLATIONS IN 0 EXCHANGES.');
    expect(exit.code).toBe(3);
  } finally {
    await reference.close();
  }
});

test('an HTTPS target, trusted through NODE_EXTRA_CA_CERTS, is forwarded to and judged like any other; one the proxy cannot reach gets 502s, counted in the report', async () => {
  const reference = createServer({ seed: 5, calls: 300 });
  const front = await startTlsFront(await reference.listen(0));
  const arrivals: string[] = [];
  reference.server.on('request', (request) => arrivals.push(`${request.method} ${request.url}`));
  try {
    expect(front.base).toMatch(/^https:/);
    const reports = freshDir('proxy-reports');
    const proxy = await startProxyProcess(['--target', front.base, '--port', '0'], {
      REPORT_DIR: reports,
      NODE_EXTRA_CA_CERTS: CA_CERTIFICATE,
    });
    expect(proxy.output()).toContain(`forwarding to ${new URL(front.base).origin}`);
    expect(await clientTraffic(proxy.base)).toEqual([200, 200, 200, 401, 401]);
    expect(arrivals).toHaveLength(5);
    const exit = await proxy.stop('SIGTERM');
    expect(exit.stdout).toContain('Passive verdict: NO VIOLATIONS IN 5 EXCHANGES.');
    expect(exit.code).toBe(0);

    // Without the authority, the target's certificate is refused: every request gets a 502 that says why.
    const untrusting = await startProxyProcess(['--target', front.base, '--port', '0'], { REPORT_DIR: reports });
    const refused = await sendRaw(`${untrusting.base}/calls`, 'GET', ['apikey', DEMO_KEYS.fullAccess]);
    expect(refused.status).toBe(502);
    expect(refused.body.toString()).toMatch(/could not be reached for GET \/v3\/calls: .*(certificate|issuer)/i);
    const stopped = await untrusting.stop('SIGTERM');
    expect(stopped.stdout).toMatch(
      /1 request the target did not answer whole \(502 from the proxy, or an answer cut off\), not judged: GET \/v3\/calls: /,
    );
    expect(readReports(reports).results.passive?.ignored).toEqual({
      'requests the target did not answer whole (502 from the proxy, or an answer cut off)': 1,
    });
    expect(arrivals).toHaveLength(5);
  } finally {
    await front.close();
    await reference.close();
  }
});
