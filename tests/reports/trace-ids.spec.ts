// Requests a server's logs can find (issue 57): a run against the reference with a fault, behind a
// loopback proxy that records every request's headers as the server receives them. Every request
// carries a valid traceparent, a new parent id each, one trace id per test (the preflight and learning
// the target each a trace of their own), and the trace id of the failed test stands beside its
// failure in every report, the one the server saw. TRACE_HEADERS=false sends neither header and
// changes no verdict.
import { test, expect } from '@playwright/test';
import type { IncomingMessage } from 'node:http';
import { findFault } from '../../reference/faults/catalog.ts';
import { referenceTargetEnv } from '../runner/run-suite.ts';
import { proxyInFront } from '../runner/proxy-in-front.ts';
import { LEARNING_TEST_CASE, PREFLIGHT_TEST_CASE } from '../../core/transport/trace-context.ts';
import { freshDir, readReports, runConformance, SUITE_RUN_TIMEOUT_MS, withReference, once } from './report-runs.ts';

const FAULT = 'get-answers-next-call';
const REQUIREMENT = findFault(FAULT)!.requirements[0]!;
/** W3C Trace Context, version 00, as this suite sends it (flags 01, sampled). */
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})([0-9a-f]{16})-01$/;

test.describe.configure({ mode: 'default' });
test.setTimeout(2 * SUITE_RUN_TIMEOUT_MS);

interface Seen {
  url: string;
  traceparent: string | undefined;
  testCase: string | undefined;
}

const headerOf = (incoming: IncomingMessage, name: string) => {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** The suite against the faulty reference, its tests of REQUIREMENT only, once; what the server received and the reports. */
function runBehindRecorder(env: Record<string, string>) {
  return once(() =>
    withReference(FAULT, async (base) => {
      const seen: Seen[] = [];
      const proxy = await proxyInFront(base, (incoming) => {
        seen.push({
          url: incoming.url ?? '',
          traceparent: headerOf(incoming, 'traceparent'),
          testCase: headerOf(incoming, 'x-conformance-test'),
        });
        return false;
      });
      try {
        const dir = freshDir('trace-ids');
        const run = await runConformance(dir, ['--grep', `${REQUIREMENT} `], {
          ...referenceTargetEnv(proxy.base),
          CONFORMANCE_RETRIES: '0',
          ...env,
        });
        return { run, seen, reports: readReports(dir) };
      } finally {
        await proxy.close();
      }
    }),
  );
}

const traced = runBehindRecorder({});
const untraced = runBehindRecorder({ TRACE_HEADERS: 'false' });

test('every request carries a valid traceparent, a new parent id each, and one trace id per test case; the preflight and learning have their own', async () => {
  const { run, seen } = await traced();
  expect(run.code, run.stderr).toBe(1);
  expect(seen.length).toBeGreaterThan(5);
  const parents = new Set<string>();
  const traces = new Map<string, Set<string>>();
  for (const request of seen) {
    const match = TRACEPARENT.exec(request.traceparent ?? '');
    expect(match, `${request.url}: ${request.traceparent}`).not.toBeNull();
    expect(request.testCase, request.url).toMatch(/^[\x21-\x7e][\x20-\x7e]{0,159}$/);
    parents.add(match![2]!);
    traces.set(request.testCase!, (traces.get(request.testCase!) ?? new Set()).add(match![1]!));
  }
  expect(parents.size).toBe(seen.length);
  for (const [testCase, ids] of traces) expect([testCase, ids.size]).toEqual([testCase, 1]);
  const idsOf = (testCase: string) => [...(traces.get(testCase) ?? [])];
  expect(idsOf(PREFLIGHT_TEST_CASE)).toHaveLength(1);
  expect(idsOf(LEARNING_TEST_CASE)).toHaveLength(1);
  const tests = [...traces.keys()].filter((testCase) => testCase.startsWith(`${REQUIREMENT} `));
  expect(tests.length).toBeGreaterThan(0);
  // Different tests, different traces.
  const all = [...traces.values()].flatMap((ids) => [...ids]);
  expect(new Set(all).size).toBe(all.length);
});

test("the failed test's trace id, the one the server saw, stands beside its failure in results.json, the HTML, JUnit, the console and the curl line", async () => {
  const { run, seen, reports } = await traced();
  const failure = reports.results.failures.find((entry) => entry.requirements.includes(REQUIREMENT));
  expect(failure?.traceId, JSON.stringify(failure)).toMatch(/^[0-9a-f]{32}$/);
  const traceId = failure!.traceId!;
  const sawIt = seen.filter((request) => request.traceparent?.split('-')[1] === traceId);
  expect(sawIt.length).toBeGreaterThan(0);
  expect(new Set(sawIt.map((request) => request.testCase))).toEqual(new Set([expect.stringContaining(REQUIREMENT)]));
  expect(failure!.message).toMatch(new RegExp(`-H 'traceparent: 00-${traceId}-[0-9a-f]{16}-01'`));
  expect(reports.html).toContain(`trace id <code class="trace-id">${traceId}</code>`);
  expect(reports.junit).toContain(`Trace id: ${traceId}`);
  expect(run.stdout).toContain(`(trace id ${traceId})`);
});

test('TRACE_HEADERS=false sends neither header, and the verdict and the failed requirements are the same', async () => {
  const [off, on] = [await untraced(), await traced()];
  expect(off.run.code, off.run.stderr).toBe(1);
  expect(off.seen.length).toBeGreaterThan(5);
  expect(off.seen.filter((request) => request.traceparent !== undefined || request.testCase !== undefined)).toEqual([]);
  expect(off.reports.results.failures.filter((failure) => failure.traceId !== undefined)).toEqual([]);
  expect(off.reports.html).not.toContain('trace id');
  expect(off.reports.junit).not.toContain('Trace id');
  expect(off.reports.results.verdict).toBe(on.reports.results.verdict);
  expect(off.reports.results.summary.mustFailed).toEqual(on.reports.results.summary.mustFailed);
  expect(off.reports.results.run.configuration).toMatchObject({ traceHeaders: false });
});
