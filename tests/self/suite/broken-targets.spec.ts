// The suite run as a child process against targets that break one requirement each: the run
// fails (or, for a SHOULD, warns) and names that requirement; the same target unbroken passes.
import { test, expect } from '@playwright/test';
import { runSuite, specsOf } from '../runner/run-suite.ts';
import { everyListedCall, startBrokenTarget, type AnswerBreaker, type RequestBreaker } from './breaking-proxy.ts';

interface Case {
  requirement: string;
  what: string;
  breaks: { request?: RequestBreaker; answer?: AnswerBreaker };
}

const withoutParameter = (name: string): RequestBreaker => (request) => {
  const url = new URL(request.url, 'http://proxy');
  url.searchParams.delete(name);
  return { ...request, url: `${url.pathname}${url.search}` };
};

const MUST_CASES: Case[] = [
  { requirement: 'CALL-FIELD-TYPE', what: 'a call type outside the enum', breaks: { answer: everyListedCall((call, index) => (index === 1 ? { ...call, type: 'fax' } : call)) } },
  { requirement: 'CALLS-LIST-FILTER-STATUS', what: 'the status filter ignored', breaks: { request: withoutParameter('status') } },
  { requirement: 'CALLS-LIST-FILTER-STARTED-AT', what: 'the startedAt filter ignored (consistent with no meaning of it)', breaks: { request: withoutParameter('startedAt') } },
  { requirement: 'CALLS-LIST-AND-NARROWING', what: 'filters combined with OR (the second of two filters ignored)', breaks: {
    request: (request) => {
      const url = new URL(request.url, 'http://proxy');
      const filters = [...url.searchParams.keys()].filter((name) => name !== 'page' && name !== 'perPage');
      if (filters.length >= 2) url.searchParams.delete(filters[1]!);
      return { ...request, url: `${url.pathname}${url.search}` };
    },
  } },
  { requirement: 'CALLS-LIST-FILTER-COMPLETENESS', what: 'a uid filter that drops calls the user took part in without initiating them', breaks: {
    answer: (request, answer) => {
      const uid = new URL(request.url, 'http://proxy').searchParams.get('uid');
      const body = answer.body as { data?: Array<{ initiator?: string }>; meta?: { pagination: { total: number; count: number; per_page?: number; total_pages: number } } };
      if (uid === null || !Array.isArray(body?.data) || !body.meta) return answer;
      const kept = body.data.filter((call) => call.initiator === uid);
      const total = body.meta.pagination.total - (body.data.length - kept.length);
      const pages = body.meta.pagination.per_page ? Math.ceil(total / body.meta.pagination.per_page) : body.meta.pagination.total_pages;
      return { ...answer, body: { ...body, data: kept, meta: { pagination: { ...body.meta.pagination, total, count: kept.length, total_pages: pages } } } };
    },
  } },
  { requirement: 'CALLS-GET-NOT-FOUND', what: 'the wrong code for unknown ids holding a percent sign', breaks: {
    answer: (request, answer) => (request.url.startsWith('/v3/calls/') && request.url.includes('%25') && answer.status === 404 ? { status: 404, body: { error: { code: 'ERR_NOT_FOUND', message: 'Not found' } } } : answer),
  } },
  { requirement: 'CALL-MINUTES-SUM-OVER-PARTICIPANTS', what: 'audio minutes that do not add up', breaks: { answer: everyListedCall((call) => (call.status === 'ended' ? { ...call, totalAudioMinutes: Number(call.totalAudioMinutes) + 1, totalDurationInMinutes: Number(call.totalDurationInMinutes) + 1 } : call)) } },
  { requirement: 'AUTH-INVALID-KEY', what: 'the empty-key code for an invalid key', breaks: {
    answer: (_request, answer) => ((answer.body as { error?: { code?: string } })?.error?.code === 'AUTH_ERR_APIKEY_NOT_FOUND' ? { status: 401, body: { error: { code: 'AUTH_ERR_EMPTY_APIKEY', message: 'No key' } } } : answer),
  } },
];

test.describe.configure({ mode: 'parallel' });

for (const { requirement, what, breaks } of MUST_CASES) {
  test(`a target with ${what} fails the run, and the failure names ${requirement}`, async () => {
    const target = await startBrokenTarget(breaks);
    try {
      const run = await runSuite(['--project=conformance', '--reporter=json'], { ...target.env, CONFORMANCE_SEED: '1' }, 180_000);
      expect(run.code, run.stderr).toBe(1);
      const failed = specsOf(JSON.parse(run.stdout)).filter((spec) => spec.tests[0]!.results.some((result) => result.status === 'failed'));
      const named = failed.filter((spec) => spec.title.startsWith(`${requirement} `));
      expect(named.map((spec) => spec.title), `no failing test of ${requirement}; failed: ${failed.map((spec) => spec.title.split(' ')[0]).join(', ')}`).not.toEqual([]);
      expect(JSON.stringify(named[0]!.tests[0]!.results[0])).toContain(requirement);
    } finally {
      await target.close();
    }
  });
}

test('a target that answers 500 to a malformed List Calls parameter only warns: the run passes with a warning naming ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT', async () => {
  const target = await startBrokenTarget({
    answer: (request, answer) => (request.url.startsWith('/v3/calls?') && answer.status === 400 ? { status: 500, body: { error: { code: 'ERR_INTERNAL', message: 'boom' } } } : answer),
  });
  try {
    const run = await runSuite(['--project=conformance', '--reporter=json', '--grep', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'], { ...target.env, CONFORMANCE_SEED: '1' }, 120_000);
    expect(run.code, run.stderr).toBe(0);
    const annotations = specsOf(JSON.parse(run.stdout)).flatMap((spec) => spec.tests[0]!.results.flatMap((result) => (result as { annotations?: Array<{ type: string; description?: string }> }).annotations ?? []));
    expect(annotations.filter((annotation) => annotation.type === 'warning').map((annotation) => annotation.description)).toContainEqual(expect.stringMatching(/^ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT /));
  } finally {
    await target.close();
  }
});

test('the same target, unbroken behind the proxy, passes the whole suite as a remote target', async () => {
  const target = await startBrokenTarget({});
  try {
    const run = await runSuite(['--project=conformance', '--reporter=json'], target.env, 180_000);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).stats.unexpected).toBe(0);
  } finally {
    await target.close();
  }
});

test('a target that answers unknown ids with 400 and the right code passes the spec profile but fails the strict one, naming ERROR-STATUS-CODES', async () => {
  const target = await startBrokenTarget({
    answer: (request, answer) => (request.url.startsWith('/v3/calls/') && answer.status === 404 ? { ...answer, status: 400 } : answer),
  });
  try {
    const grep = ['--grep', 'CALLS-GET-NOT-FOUND|ERROR-STATUS-CODES'];
    const spec = await runSuite(['--project=conformance', '--reporter=json', ...grep], { ...target.env, CONFORMANCE_SEED: '1' }, 120_000);
    expect(spec.code, spec.stderr).toBe(0);
    const strict = await runSuite(['--project=conformance', '--reporter=json', ...grep], { ...target.env, CONFORMANCE_SEED: '1', CONFORMANCE_PROFILE: 'strict' }, 120_000);
    expect(strict.code, strict.stderr).toBe(1);
    const failed = specsOf(JSON.parse(strict.stdout)).filter((entry) => entry.tests[0]!.results.some((result) => result.status === 'failed'));
    expect(failed.map((entry) => entry.title.split(' ')[0])).toContain('ERROR-STATUS-CODES');
    expect(JSON.stringify(failed)).toContain('status 404, the deployment');
  } finally {
    await target.close();
  }
});
