// A broken or hostile target gets a clear verdict within a bounded time: the suite is run, as a user
// runs it, against a small misbehaving server on loopback. An answer the suite can read and judge
// (not JSON, mislabelled, empty, a redirect, a 5xx it gives every time) is NON-CONFORMANT with the
// requirement it breaks; an answer it cannot get whole (too large, stalled, dripping forever, cut
// off, a gateway error that never clears) is INCONCLUSIVE with the reason. Never a hang, a crash or
// a stack trace.
import { test, expect } from '@playwright/test';
import type { ServerResponse } from 'node:http';
import { createServer } from '../../reference/server.ts';
import { proxyInFront } from '../runner/proxy-in-front.ts';
import { referenceTargetEnv, runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { json, startScriptedServer, stream, type Script } from '../transport/scripted-server.ts';
import { STACK_TRACE } from './stack-trace.ts';
import { LEARNING_FETCHES } from '../../core/run/budget-plan.ts';

/**
 * A NON-CONFORMANT verdict needs two tests (one lists calls, one sends no key); the whole suite would
 * only fail every test the same way. An INCONCLUSIVE one is run on the whole suite, to show that
 * the run stops at the first unresolved answer instead of meeting it a hundred times.
 */
const GREP = 'CALLS-LIST-OK |AUTH-EMPTY-KEY ';
const RUN_BOUND_MS = 60_000;
/** A target that trickles with the default REQUEST_TIMEOUT_MS is given up on after its retries: the issue's bound is two minutes. */
const TRICKLE_BOUND_MS = 120_000;

const EMPTY_LIST = { data: [], meta: { pagination: { total: 0, count: 0, perPage: 100, currentPage: 1, totalPages: 0 } } };
const page = (response: ServerResponse, status: number, contentType: string, text: string) =>
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) }).end(text);

interface Case {
  name: string;
  script: Script;
  env?: Record<string, string>;
  verdict: 'NON-CONFORMANT' | 'INCONCLUSIVE';
  /** Said somewhere in results.json: the requirement broken or the reason nothing could be judged. */
  says: RegExp;
  /** The most the whole run may take; RUN_BOUND_MS unless said. */
  boundMs?: number;
}

const CASES: Case[] = [
  {
    name: 'invalid JSON',
    script: (_q, r) => page(r, 200, 'application/json', '{"data": [ {"sessionId": '),
    verdict: 'NON-CONFORMANT',
    says: /HTTP-JSON-BODIES/,
  },
  {
    name: 'an HTML error page, every time',
    script: (_q, r) => page(r, 500, 'text/html', '<!DOCTYPE html><html><body><h1>Internal Server Error</h1></body></html>'),
    verdict: 'NON-CONFORMANT',
    says: /HTTP-JSON-BODIES/,
  },
  {
    name: 'JSON under the wrong content type',
    script: (_q, r) => page(r, 200, 'text/plain', JSON.stringify(EMPTY_LIST)),
    verdict: 'NON-CONFORMANT',
    says: /JSON labelled as text\/plain/,
  },
  {
    name: 'an empty body',
    script: (_q, r) => r.writeHead(200, { 'content-length': '0' }).end(),
    verdict: 'NON-CONFORMANT',
    says: /HTTP-JSON-BODIES/,
  },
  {
    name: 'a redirect loop',
    script: (q, r) => r.writeHead(302, { location: q.url ?? '/' }).end(),
    verdict: 'NON-CONFORMANT',
    says: /CALLS-LIST-OK/,
  },
  {
    name: 'a body of many megabytes',
    script: (_q, r) => (r.writeHead(200, { 'content-type': 'application/json' }), stream(r, Buffer.alloc(256 * 1024, 0x20))),
    env: { MAX_BODY_BYTES: String(2 << 20) },
    verdict: 'INCONCLUSIVE',
    says: /larger than 2097152 bytes \(MAX_BODY_BYTES\)/,
  },
  {
    name: 'an answer that stalls after its headers',
    script: (_q, r) => void r.writeHead(200, { 'content-type': 'application/json' }).write('{"data":['),
    env: { REQUEST_TIMEOUT_MS: '500' },
    verdict: 'INCONCLUSIVE',
    says: /no complete answer within 500 ms/,
  },
  {
    name: 'an answer that never ends',
    script: (_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (r.destroyed ? clearInterval(drip) : r.write(' ')), 20);
    },
    env: { REQUEST_TIMEOUT_MS: '500' },
    verdict: 'INCONCLUSIVE',
    says: /no complete answer within 500 ms/,
  },
  {
    name: 'a connection closed mid-body',
    script: (_q, r) => (
      r.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' }).write('{"data":[{"sessionId":"v1.us.'),
      setTimeout(() => r.socket?.destroy(), 10)
    ),
    verdict: 'INCONCLUSIVE',
    says: /the last time connection-closed: /,
  },
  {
    // With the default timeouts: each answer is cut at REQUEST_TIMEOUT_MS and retried, then the
    // target is unavailable; learning never outlasts the time Playwright gives it.
    name: 'an answer that trickles a byte a second and never ends',
    script: (_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (r.destroyed ? clearInterval(drip) : r.write('[')), 1_000);
    },
    verdict: 'INCONCLUSIVE',
    says: /no complete answer within 10000 ms/,
    boundMs: TRICKLE_BOUND_MS,
  },
  {
    name: 'a 503 that never clears',
    script: (_q, r) => json(r, 503, { error: { code: 'ERR_UNAVAILABLE' } }),
    verdict: 'INCONCLUSIVE',
    says: /failed 4 times; the last time it answered 503/,
  },
];

for (const hostile of CASES) {
  const bound = hostile.boundMs ?? RUN_BOUND_MS;
  test(`${hostile.name}: ${hostile.verdict}, within ${bound / 1000} s, without a stack trace`, async () => {
    test.setTimeout(bound + 20_000);
    const target = await startScriptedServer((request, response, n) => {
      // The preflight's one request gets a plain answer: what follows is what the tests meet.
      if (request.url?.includes('perPage=1') && n === 0) return json(response, 200, EMPTY_LIST);
      hostile.script(request, response, n);
    });
    try {
      const reports = freshDir('report-hostile');
      const started = performance.now();
      const selection = hostile.verdict === 'NON-CONFORMANT' ? ['--grep', GREP] : [];
      const run = await runScript(
        CLI.conformance,
        [...selection, `--output=${freshDir('artefacts')}`],
        { ...referenceTargetEnv(target.base), REPORT_DIR: reports, ...hostile.env },
        bound + 10_000,
      );
      const elapsed = performance.now() - started;

      const results = readReports(reports).results;
      expect(results.verdict, run.stdout.slice(-2000)).toBe(hostile.verdict);
      expect(run.code).toBe(hostile.verdict === 'NON-CONFORMANT' ? 1 : 3);
      expect(JSON.stringify(results)).toMatch(hostile.says);
      expect(elapsed).toBeLessThan(bound);
      if (hostile.verdict === 'INCONCLUSIVE')
        expect(results.summary.tests.failed, 'the run went on meeting the same answer').toBeLessThanOrEqual(2);
      const output = `${run.stdout}\n${run.stderr}`;
      expect(output).not.toMatch(STACK_TRACE);
    } finally {
      await target.close();
    }
  });
}

// Every Get Call of a known call trickles, in front of a correct reference: from the first, which
// learning sends (the calls it fetches alone), and the run stops while learning; or once learning
// has been answered, and the first test to fetch one runs out of its time waiting on it. Either way
// the run stops there, rather than let every later test wait out its own time too.
const GET_CALL_TRICKLES = [
  {
    when: 'from the first',
    answeredFirst: 0,
    says: /GET http:\S+\/calls\/v1\.\S+ failed 4 times; the last time timeout: no complete answer within 10000 ms/,
  },
  {
    when: 'once learning has been answered',
    answeredFirst: LEARNING_FETCHES,
    // A test's 30 s are lengthened by the time the run's own bounds held its requests (a slot of
    // MAX_IN_FLIGHT the trickling answers keep busy is given back to it: paced-time.ts), so either
    // the test runs out of time on the Get Call it waits on, or that Get Call's own tries run out
    // first. Either way the run stops there, naming it.
    says: /A test ran out of time \(\d+ ms, time held by the run's own bounds included\) waiting on the target: GET http:\S+\/calls\/v1\.|GET http:\S+\/calls\/v1\.\S+ failed 4 times; the last time timeout: no complete answer within 10000 ms/,
  },
];

for (const { when, answeredFirst, says } of GET_CALL_TRICKLES) {
  test(`a target that trickles only its Get Call answers, ${when}: INCONCLUSIVE, within 120 s, naming the request it waited on`, async () => {
    test.setTimeout(TRICKLE_BOUND_MS + 20_000);
    const reference = createServer({ seed: 4, calls: 300 });
    let answered = 0;
    const proxy = await proxyInFront(await reference.listen(0), (incoming, outgoing) => {
      if (!/\/v3\/calls\/v1\./.test(incoming.url ?? '') || incoming.headers.apikey === undefined) return false;
      // Every request of learning is sent before any test's: its Get Calls come first.
      if (answered++ < answeredFirst) return false;
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (outgoing.destroyed ? clearInterval(drip) : outgoing.write(' ')), 1_000);
      return true;
    });
    try {
      const reports = freshDir('report-hostile');
      const started = performance.now();
      const run = await runScript(
        CLI.conformance,
        [`--output=${freshDir('artefacts')}`],
        { ...referenceTargetEnv(proxy.base), REPORT_DIR: reports },
        TRICKLE_BOUND_MS + 10_000,
      );
      const elapsed = performance.now() - started;

      const results = readReports(reports).results;
      expect(results.verdict, run.stdout.slice(-2000)).toBe('INCONCLUSIVE');
      expect(run.code).toBe(3);
      expect(JSON.stringify(results)).toMatch(says);
      expect(results.summary.tests.failed + results.summary.tests.timedOut, 'the run went on meeting the same answer').toBeLessThanOrEqual(
        2,
      );
      expect(elapsed).toBeLessThan(TRICKLE_BOUND_MS);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });
}
