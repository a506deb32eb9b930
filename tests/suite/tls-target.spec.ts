// Every deployed target is reached over HTTPS. The whole suite against the reference behind TLS on
// loopback (tls/tls-front.ts), its certificate signed by the self-tests' own authority: trusted
// through Node's NODE_EXTRA_CA_CERTS, the run is judged like any other, traced runs too (their
// requests pass the suite's gateway, which speaks TLS to the target); not trusted, for another host
// name, or TLS spoken to a plain HTTP server, the run ends INCONCLUSIVE with one line that says why
// and what to do.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { preflightRequests, referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports, SUITE_RUN_TIMEOUT_MS } from '../reports/report-runs.ts';
import { CA_CERTIFICATE, startTlsFront } from '../tls/tls-front.ts';
import { STACK_TRACE } from './stack-trace.ts';

test.setTimeout(SUITE_RUN_TIMEOUT_MS);

/** The reference behind TLS on `host`, noting each request that got through to it. */
async function referenceOverTls(host?: string) {
  const reference = createServer({ seed: 5, calls: 300 });
  const arrivals: string[] = [];
  reference.server.on('request', (request) => arrivals.push(`${request.method} ${request.url}`));
  const front = await startTlsFront(await reference.listen(0), host);
  return {
    base: front.base,
    arrivals,
    close: async () => {
      await front.close();
      await reference.close();
    },
  };
}

const trusted = { NODE_EXTRA_CA_CERTS: CA_CERTIFICATE };

async function runAgainst(base: string, env: Record<string, string>, args: string[] = [], chatBase = base) {
  const reports = freshDir('report-tls');
  const run = await runScript(
    CLI.conformance,
    [...args, `--output=${freshDir('artefacts')}`],
    { ...referenceTargetEnv(base), CHAT_BASE_URL: chatBase, CONFORMANCE_RUNS: '5', REPORT_DIR: reports, ...env },
    SUITE_RUN_TIMEOUT_MS,
  );
  return { run, results: readReports(reports).results, output: `${run.stdout}\n${run.stderr}` };
}

test('a target over HTTPS whose authority NODE_EXTRA_CA_CERTS trusts is judged like any other: CONFORMANT, every request that reached it counted', async () => {
  const target = await referenceOverTls();
  try {
    const { run, results } = await runAgainst(target.base, trusted);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(results.verdict).toBe('CONFORMANT');
    expect(results.summary.tests.failed).toBe(0);
    // The preflight's requests, and every one the reports count.
    expect(target.arrivals.length).toBe(results.summary.requests + preflightRequests(referenceTargetEnv(target.base)));
  } finally {
    await target.close();
  }
});

test("a traced run over HTTPS: Playwright's request context reaches the target through the suite's gateway, which speaks TLS to it", async () => {
  const target = await referenceOverTls();
  try {
    const { run, results } = await runAgainst(target.base, trusted, ['--trace', 'on', '--grep', 'AUTH-|CALLS-GET-NOT-FOUND']);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(results.summary.tests.passed).toBeGreaterThan(3);
    expect(results.summary.tests.failed).toBe(0);
    expect(target.arrivals.length).toBe(results.summary.requests + preflightRequests(referenceTargetEnv(target.base)));
  } finally {
    await target.close();
  }
});

test('a target whose certificate no authority of this machine signed: INCONCLUSIVE before any test, in one line that names NODE_EXTRA_CA_CERTS; nothing reaches it', async () => {
  const target = await referenceOverTls();
  try {
    const { run, results, output } = await runAgainst(target.base, {});
    expect(run.code, output.slice(-3000)).toBe(3);
    expect(results.verdict).toBe('INCONCLUSIVE');
    expect(output).toMatch(
      /The target cannot be reached: GET https:\S+ failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE: the target's TLS certificate is not signed by an authority this machine trusts; if your own authority signed it, set NODE_EXTRA_CA_CERTS to that authority's certificate \(a PEM file\) in the environment\)\. Nothing was judged\./,
    );
    expect(output).not.toMatch(STACK_TRACE);
    expect(target.arrivals).toEqual([]);
  } finally {
    await target.close();
  }
});

test('a target addressed by a name its certificate does not hold: INCONCLUSIVE, saying so', async () => {
  // 127.0.0.2 is loopback too, but the certificate names only localhost and 127.0.0.1.
  const target = await referenceOverTls('127.0.0.2');
  try {
    const { run, results, output } = await runAgainst(target.base, trusted);
    expect(run.code, output.slice(-3000)).toBe(3);
    expect(results.verdict).toBe('INCONCLUSIVE');
    expect(output).toMatch(
      /failed \(ERR_TLS_CERT_ALTNAME_INVALID: the target's TLS certificate is for another host name; address the target by a name its certificate holds\)/,
    );
    expect(output).not.toMatch(STACK_TRACE);
    expect(target.arrivals).toEqual([]);
  } finally {
    await target.close();
  }
});

test('an https:// address of a server that speaks plain HTTP: INCONCLUSIVE, saying to give it as http://', async () => {
  const reference = createServer({ seed: 5, calls: 300 });
  const base = (await reference.listen(0)).replace(/^http:/, 'https:');
  try {
    const { run, results, output } = await runAgainst(base, {});
    expect(run.code, output.slice(-3000)).toBe(3);
    expect(results.verdict).toBe('INCONCLUSIVE');
    expect(output).toMatch(
      /failed \(ERR_SSL_WRONG_VERSION_NUMBER: the target does not speak TLS at this address; if it serves plain HTTP, give its address as http:\/\/\)/,
    );
    expect(output).not.toMatch(STACK_TRACE);
  } finally {
    await reference.close();
  }
});

test('a chat service whose certificate is for another host, behind a calls service that is fine: the requests to it end the run INCONCLUSIVE, naming the certificate', async () => {
  const calls = await referenceOverTls();
  const chat = await referenceOverTls('127.0.0.2');
  try {
    const { run, results, output } = await runAgainst(calls.base, trusted, ['--grep', 'CHAT-UNREAD'], chat.base);
    expect(run.code, output.slice(-3000)).toBe(3);
    expect(results.verdict).toBe('INCONCLUSIVE');
    expect(results.verdictReason).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID: [^;]+; the target's TLS certificate is for another host name/);
    expect(output).not.toMatch(STACK_TRACE);
    expect(chat.arrivals).toEqual([]);
  } finally {
    await chat.close();
    await calls.close();
  }
});
