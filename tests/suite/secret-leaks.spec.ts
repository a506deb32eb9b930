// API keys must never appear in anything a run leaves behind: its terminal output, test-results
// (traces, error-context.md, attachments), Playwright's HTML, JSON, JUnit and blob reports, and the
// conformance report. Each run here gets sentinel keys made for it alone, runs with traces on and
// every reporter, and everything it wrote is searched for them, inside every zip too (see
// output-files.ts for the forms looked for). One run is against a reference started here as a
// remote target, with a fault so that a test fails and writes its failure (message, curl line,
// exchanges, error context); the other against the embedded reference, which is handed the same
// keys by playwright.config.ts. A search of outputs that hold no requests would prove nothing, so
// each run must also show that the tests it needs ran and that its traces recorded the API
// requests, apikey header included.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { createServer } from '../../reference/server.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv, runScript, runSuite, specsOf, type RunResult } from '../runner/run-suite.ts';
import { CLI, freshDir, once, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { startProxyProcess, type ProxyExit } from '../passive/proxy-process.ts';
import { ECHOED_KEY, HOSTILE_GREP } from '../hostile/hostile-answers.ts';
import { startHostileTarget } from '../hostile/hostile-target.ts';
import { describeFindings, FRAGMENT_LENGTH, scanOutputs, type Scan, type Secret } from './output-files.ts';

/** Mark-unread accepts the key without fullAccess: the test that sends it fails, as the search needs. */
const FAULT = 'restricted-key-marks-unread';
/** The failing test, a mark-unread that passes, and properties that send near misses of both keys and the key under any header name. */
const GREP = 'CHAT-UNREAD-REQUIRES-FULL-ACCESS |CHAT-UNREAD-OK |AUTH-INVALID-KEY |AUTH-HEADER-NAME-CASE-INSENSITIVE ';
const REPORTERS = 'list,html,json,junit,blob,./reports/conformance-reporter.ts';

test.describe.configure({ mode: 'default' });

interface Outputs {
  testResults: string;
  html: string;
  blob: string;
  json: string;
  junit: string;
  conformance: string;
}

interface SentinelRun {
  run: RunResult;
  outputs: Outputs;
  scan: Scan;
  /** The statuses of the tests run, by the requirement id their title starts with. */
  outcomes: Map<string, string[]>;
}

function sentinelKeys(): Secret[] {
  return [
    { name: 'API_KEY', value: `sentinel-full-${randomBytes(16).toString('hex')}` },
    { name: 'RESTRICTED_API_KEY', value: `sentinel-restricted-${randomBytes(16).toString('hex')}` },
  ];
}

async function withFaultyReference<T>(keys: Secret[], body: (base: string) => Promise<T>): Promise<T> {
  const [fullAccess, readOnly] = keys.map((key) => key.value);
  const reference = createServer({ keys: { fullAccess, readOnly }, fault: findFault(FAULT)! });
  const base = await reference.listen(0);
  try {
    return await body(base);
  } finally {
    await reference.close();
  }
}

/** The reference with the sentinel keys behind a target that echoes the key each request carried into every value it answers. */
async function withEchoingTarget<T>(keys: Secret[], body: (base: string) => Promise<T>): Promise<T> {
  const [fullAccess, readOnly] = keys.map((key) => key.value);
  const target = await startHostileTarget(ECHOED_KEY, { fullAccess: fullAccess!, readOnly: readOnly! });
  try {
    return await body(target.base);
  } finally {
    await target.close();
  }
}

async function runWithSentinelKeys(
  target: 'remote' | 'embedded' | 'echoing',
  console: 'compact' | 'verbose' = 'compact',
): Promise<SentinelRun> {
  const keys = sentinelKeys();
  const root = freshDir(`secret-leaks-${target}-${console}`);
  const outputs: Outputs = {
    testResults: join(root, 'test-results'),
    html: join(root, 'html-report'),
    blob: join(root, 'blob-report'),
    json: join(root, 'results.json'),
    junit: join(root, 'junit.xml'),
    conformance: join(root, 'conformance-report'),
  };
  const env = {
    API_KEY: keys[0]!.value,
    RESTRICTED_API_KEY: keys[1]!.value,
    REPORT_DIR: outputs.conformance,
    PLAYWRIGHT_HTML_OUTPUT_DIR: outputs.html,
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_BLOB_OUTPUT_DIR: outputs.blob,
    PLAYWRIGHT_JSON_OUTPUT_FILE: outputs.json,
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: outputs.junit,
    // Each test runs once: the checks below count one result, one trace and one error context for the failing test.
    CONFORMANCE_RETRIES: '0',
    CONFORMANCE_CONSOLE: console,
  };
  const args = ['--project=conformance', '--trace=on', `--output=${outputs.testResults}`, `--reporter=${REPORTERS}`, '--grep', GREP];
  const run =
    target === 'embedded'
      ? await runSuite(args, env, SUITE_RUN_TIMEOUT_MS)
      : target === 'echoing'
        ? await withEchoingTarget(keys, (base) =>
            runSuite([...args.slice(0, -2), '--grep', HOSTILE_GREP], { ...referenceTargetEnv(base), ...env }, SUITE_RUN_TIMEOUT_MS),
          )
        : await withFaultyReference(keys, (base) => runSuite(args, { ...referenceTargetEnv(base), ...env }, SUITE_RUN_TIMEOUT_MS));

  const scan = scanOutputs(keys, { texts: { stdout: run.stdout, stderr: run.stderr }, folders: { [root]: root } });
  const outcomes = new Map<string, string[]>();
  for (const spec of specsOf(JSON.parse(readFileSync(outputs.json, 'utf8')))) {
    const id = spec.title.split(' ')[0]!;
    outcomes.set(id, [...(outcomes.get(id) ?? []), ...spec.tests.flatMap((entry) => entry.results.map((result) => result.status))]);
  }
  return { run, outputs, scan, outcomes };
}

/** The apikey header of every API request recorded in the traces of test-results. */
function apikeyHeadersInTraces({ scan, outputs }: SentinelRun): string[] {
  const values: string[] = [];
  for (const [where, data] of scan.entries) {
    if (!where.startsWith(`${outputs.testResults}/`) || !/\/trace\.zip!(\d+-)?trace\.network$/.test(where)) continue;
    for (const line of data.toString('utf8').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as {
        type: string;
        snapshot?: { request: { url: string; headers: Array<{ name: string; value: string }> } };
      };
      if (entry.type !== 'resource-snapshot' || !entry.snapshot?.request.url.includes('/v3/')) continue;
      values.push(
        ...entry.snapshot.request.headers.filter((header) => header.name.toLowerCase() === 'apikey').map((header) => header.value),
      );
    }
  }
  return values;
}

function expectEverythingSearched(result: SentinelRun): void {
  const { scan, outputs } = result;
  const searched = (pattern: RegExp, what: string) =>
    expect(
      scan.searched.filter((where) => pattern.test(where)),
      `${what} was not searched`,
    ).not.toEqual([]);
  const under = (folder: string) => folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tests = [...result.outcomes.values()].flat().length;
  expect(
    scan.searched.filter((where) => new RegExp(`^${under(outputs.testResults)}/[^!]+/trace\\.zip$`).test(where)),
    'a trace per test',
  ).toHaveLength(tests);
  searched(new RegExp(`^${under(outputs.html)}/index\\.html!<embedded zip`), "the HTML report's embedded data");
  searched(new RegExp(`^${under(outputs.html)}/data/[^!]+\\.zip!(\\d+-)?trace\\.network$`), 'the traces the HTML report keeps');
  searched(new RegExp(`^${under(outputs.blob)}/[^!]+\\.zip!report\\.jsonl$`), 'the blob report');
  searched(new RegExp(`^${under(outputs.blob)}/[^!]+\\.zip![^!]+\\.zip!(\\d+-)?trace\\.network$`), 'the traces inside the blob report');
  searched(new RegExp(`^${under(outputs.json)}$`), 'the JSON report');
  searched(new RegExp(`^${under(outputs.junit)}$`), 'the JUnit report');
  for (const file of ['index.html', 'results.json', 'junit.xml', 'results.sarif'])
    searched(new RegExp(`^${under(outputs.conformance)}/${file}$`), `conformance-report/${file}`);

  const headers = apikeyHeadersInTraces(result);
  expect(headers.length, 'the traces recorded no API request with its apikey header').toBeGreaterThan(10);
  // Both keys were sent, as placeholders: the search would have met them in the traces otherwise.
  expect(headers).toContain('$API_KEY');
  expect(headers).toContain('$RESTRICTED_API_KEY');
}

function expectNoKeyIn(scan: Scan, places: (where: string) => boolean): void {
  const findings = scan.findings.filter((finding) => places(finding.where));
  expect(findings, `a key was found:\n${describeFindings(findings)}`).toEqual([]);
}

const terminal = (where: string) => where === 'stdout' || where === 'stderr';

test.describe('the search itself', () => {
  const secret: Secret = { name: 'API_KEY', value: `sentinel+/=${randomBytes(16).toString('hex')}` };

  test("finds a planted key in each form it names, in nested zips and in a page's embedded zip, and nothing in a clean file", async () => {
    const dir = freshDir('secret-leaks-planted');
    const planted = (shift: number) => Buffer.from(`${'ab'.slice(0, shift)}${secret.value}!?`).toString('base64');
    const nearMiss = `${secret.value.slice(0, 20)}${secret.value[20] === 'x' ? 'y' : 'x'}${secret.value.slice(21)}`.toUpperCase();
    const files: Record<string, string | Buffer> = {
      'plain.txt': `apikey: ${secret.value}`,
      'url.txt': `?key=${encodeURIComponent(secret.value)}&x`,
      'base64-0.txt': planted(0),
      'base64-1.txt': planted(1),
      'base64-2.txt': `Authorization: Basic ${planted(2)}`,
      'near-miss.txt': `apikey: ${nearMiss}`,
      'nested.zip': await zipOf({ 'inner.zip': await zipOf({ 'trace.network': `{"name":"apikey","value":"${secret.value}"}` }) }),
      'page.html': `<script>window.report="data:application/zip;base64,${(await zipOf({ 'report.json': `{"error":"${secret.value}"}` })).toString('base64')}";</script>`,
      'clean.txt': 'apikey: $API_KEY, the key cut to 12 characters: $API_KEY|cut:12',
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    const embeddedAt = String(files['page.html']).indexOf('data:');

    const scan = scanOutputs([secret], { folders: { out: dir } });
    expect(scan.findings.map((finding) => `${finding.where}: ${finding.form}`).sort()).toEqual([
      'out/base64-0.txt: base64 (offset 0)',
      'out/base64-1.txt: base64 (offset 1)',
      'out/base64-2.txt: base64 (offset 2)',
      `out/near-miss.txt: ${FRAGMENT_LENGTH} of its characters, in any letter case`,
      'out/nested.zip!inner.zip!trace.network: as is',
      `out/page.html!<embedded zip at ${embeddedAt}>!report.json: as is`,
      'out/plain.txt: as is',
      'out/url.txt: URL-encoded',
    ]);
    expect(scan.searched).toContain('out/clean.txt');
    expect(describeFindings(scan.findings)).not.toContain(secret.value);
  });

  test('reads a zip64 archive entry by entry', async () => {
    const dir = freshDir('secret-leaks-zip64');
    const network = `{"name":"apikey","value":"${secret.value}"}`;
    const zip = await zipOf({ 'trace.trace': '{"type":"context-options"}', 'trace.network': network }, { zip64: true });
    // Zip64 indeed: the zip64 end of central directory record is there, and the plain one's offset is saturated.
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(zip.readUInt32LE(zip.length - 6)).toBe(0xffffffff);
    writeFileSync(join(dir, 'trace.zip'), zip);

    const scan = scanOutputs([secret], { folders: { out: dir } });
    expect(scan.searched).toEqual(['out/trace.zip', 'out/trace.zip!trace.trace', 'out/trace.zip!trace.network']);
    expect(scan.entries.get('out/trace.zip!trace.network')?.toString('utf8')).toBe(network);
    expect(scan.findings.map((finding) => `${finding.where}: ${finding.form}`)).toEqual(['out/trace.zip!trace.network: as is']);
  });

  test('fails, rather than passes, a zip it cannot read', async () => {
    const dir = freshDir('secret-leaks-broken-zip');
    writeFileSync(join(dir, 'trace.zip'), (await zipOf({ 'trace.network': secret.value })).subarray(0, 40));
    expect(() => scanOutputs([secret], { folders: { out: dir } })).toThrow(/out\/trace\.zip looks like a zip but could not be read/);
  });
});

test.describe('a failing run against a remote target', () => {
  test.setTimeout(SUITE_RUN_TIMEOUT_MS);
  const remoteRun = once(() => runWithSentinelKeys('remote'));

  test('ran what the search needs: a failure with its curl line, mark-unread, the restricted key, properties, and traces of them all', async () => {
    const result = await remoteRun();
    const { run, outcomes, outputs, scan } = result;
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(
      outcomes.get('CHAT-UNREAD-REQUIRES-FULL-ACCESS'),
      `the fault ${FAULT} should fail the test that sends the restricted key`,
    ).toEqual(['failed']);
    // The reference accepts the sentinel keys only: a mark-unread that passed sent the key.
    expect(outcomes.get('CHAT-UNREAD-OK'), 'mark-unread with the sentinel key').toEqual(['passed']);
    expect(outcomes.get('AUTH-INVALID-KEY')?.length).toBeGreaterThan(1);
    expect(outcomes.get('AUTH-HEADER-NAME-CASE-INSENSITIVE')?.length).toBeGreaterThan(1);
    expect(
      [...outcomes.entries()].filter(
        ([id, statuses]) => id !== 'CHAT-UNREAD-REQUIRES-FULL-ACCESS' && statuses.some((status) => status !== 'passed'),
      ),
    ).toEqual([]);
    expect(run.stdout).toMatch(/Reproduce with:\s+curl /);
    expect(
      scan.searched.filter((where) => where.startsWith(`${outputs.testResults}/`) && where.endsWith('/error-context.md')),
    ).toHaveLength(1);
    expectEverythingSearched(result);
  });

  test('prints no key on stdout or stderr', async () => {
    expectNoKeyIn((await remoteRun()).scan, terminal);
  });

  test('writes no key into any file: test-results with their traces, the HTML, JSON, JUnit and blob reports, the conformance report', async () => {
    expectNoKeyIn((await remoteRun()).scan, (where) => !terminal(where));
  });
});

test.describe('a run against the embedded reference with keys of its own', () => {
  test.setTimeout(SUITE_RUN_TIMEOUT_MS);
  const embeddedRun = once(() => runWithSentinelKeys('embedded'));

  test('ran what the search needs: mark-unread with both keys, properties, and traces of them all', async () => {
    const result = await embeddedRun();
    const { run, outcomes } = result;
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    // The embedded reference accepts only the keys playwright.config.ts handed it: a mark-unread that passed sent the sentinel key.
    expect(outcomes.get('CHAT-UNREAD-OK'), 'mark-unread with the sentinel key').toEqual(['passed']);
    expect(outcomes.get('CHAT-UNREAD-REQUIRES-FULL-ACCESS')).toEqual(['passed']);
    expect(outcomes.get('AUTH-INVALID-KEY')?.length).toBeGreaterThan(1);
    expect([...outcomes.values()].flat().filter((status) => status !== 'passed')).toEqual([]);
    expectEverythingSearched(result);
  });

  test('prints no key on stdout or stderr', async () => {
    expectNoKeyIn((await embeddedRun()).scan, terminal);
  });

  test('writes no key into any file: test-results with their traces, the HTML, JSON, JUnit and blob reports, the conformance report', async () => {
    expectNoKeyIn((await embeddedRun()).scan, (where) => !terminal(where));
  });
});

for (const console of ['compact', 'verbose'] as const) {
  test.describe(`a target that echoes the key into every value it answers, the console ${console}`, () => {
    test.setTimeout(SUITE_RUN_TIMEOUT_MS);
    const echoingRun = once(() => runWithSentinelKeys('echoing', console));

    test('failed on what it echoed, quoting it with the key as its variable, and was traced', async () => {
      const { run, outcomes, outputs, scan } = await echoingRun();
      expect(run.code, run.stdout.slice(-3000)).toBe(1);
      expect([...outcomes.values()].flat()).toContain('failed');
      // The echoes reached the failures, each key replaced by its variable before anything read it.
      expect(
        scan.searched.filter((where) => where.startsWith(`${outputs.testResults}/`) && where.endsWith('/error-context.md')).length,
      ).toBeGreaterThan(0);
      if (console === 'verbose') expect(run.stdout).toContain('$API_KEY');
      expect(apikeyHeadersInTraces(await echoingRun()).length).toBeGreaterThan(5);
    });

    test('prints no key on stdout or stderr', async () => {
      expectNoKeyIn((await echoingRun()).scan, terminal);
    });

    test('writes no key into any file: test-results with their traces and error contexts, every report', async () => {
      expectNoKeyIn((await echoingRun()).scan, (where) => !terminal(where));
    });
  });
}

/**
 * A zip of deflated entries, written with yazl, the writer Playwright itself writes traces and blob
 * reports with; with `zip64`, in zip64 format throughout (every size and offset in the central
 * directory saturated, the real ones in zip64 extra fields and the zip64 end of central directory).
 * adm-zip, which reads the zips, writes zip64 only past 65,535 entries or 4 GiB.
 */
async function zipOf(entries: Record<string, string | Buffer>, { zip64 = false } = {}): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name, { forceZip64Format: zip64 });
  zip.end({ forceZip64Format: zip64, comment: '' });
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The same echoing target judged passively: the suite's traffic through the judging proxy, which
 * is not told the keys (it sees them only in the requests it passes) and records a HAR, then that
 * HAR judged by `har`. Everything either writes (their reports, the HAR, their consoles, and the
 * suite's own outputs) is searched as above.
 */
test.describe('a target that echoes the key, judged through the proxy and from its HAR', () => {
  test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);
  const passiveRun = once(async () => {
    const keys = sentinelKeys();
    const root = freshDir('secret-leaks-passive');
    const har = join(root, 'traffic.har');
    return withEchoingTarget(keys, async (base) => {
      const proxy = await startProxyProcess(['--target', base, '--port', '0', '--har', har], { REPORT_DIR: join(root, 'proxy-report') });
      let suite: RunResult;
      let exit: ProxyExit;
      try {
        suite = await runSuite(
          ['--project=conformance', `--output=${join(root, 'test-results')}`, '--grep', HOSTILE_GREP],
          {
            ...referenceTargetEnv(proxy.base),
            API_KEY: keys[0]!.value,
            RESTRICTED_API_KEY: keys[1]!.value,
            REPORT_DIR: join(root, 'suite-report'),
          },
          SUITE_RUN_TIMEOUT_MS,
        );
      } finally {
        exit = await proxy.stop('SIGTERM');
      }
      const judged = await runScript(CLI.conformance, ['har', har], { REPORT_DIR: join(root, 'har-report') }, SUITE_RUN_TIMEOUT_MS);
      const texts = {
        'suite stdout': suite.stdout,
        'suite stderr': suite.stderr,
        'proxy stdout': exit.stdout,
        'proxy stderr': exit.stderr,
        'har stdout': judged.stdout,
        'har stderr': judged.stderr,
      };
      return { exit, judged, har, scan: scanOutputs(keys, { texts, folders: { [root]: root } }) };
    });
  });

  test('the proxy judged the traffic and wrote its HAR, and har judged that, each quoting what the target echoed', async () => {
    const { exit, judged, har } = await passiveRun();
    // The target's echoed status values break CALL-FIELD-STATUS in the traffic: violations found, exit 1.
    expect(exit.code, exit.stdout.slice(-2000)).toBe(1);
    expect(exit.stdout).toMatch(/HAR of \d+ exchanges? \(secrets redacted\)/);
    expect(readFileSync(har, 'utf8')).toContain('$API_KEY');
    expect(judged.stdout, judged.stderr).toMatch(/Passive verdict: /);
  });

  test('prints no key and writes none: the consoles, the HAR, every report', async () => {
    expectNoKeyIn((await passiveRun()).scan, () => true);
  });
});
