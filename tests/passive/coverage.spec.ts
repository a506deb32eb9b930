// Passive coverage (core/coverage/): what recorded traffic tried of the interface, counted by the
// passive judge as each exchange is added, from the same observation an active run makes. A filter
// value is covered when an answer kept some calls and fewer than an unfiltered list held, weak when
// every answer kept none ("no such data"), and an item the traffic never tried is missing "not in the
// traffic judged". The tally travels in the judge's state: merged states add up, a state of a version
// before it merges as none. The HAR mode's and the judging proxy's results.json carry it.
import { test, expect } from '@playwright/test';
import { createPassiveJudge } from '../../passive/judge.ts';
import { mergeStates, resultOfState } from '../../passive/judge-state.ts';
import type { RecordedExchange } from '../../passive/recorded-exchange.ts';
import { buildPassiveReport } from '../../passive/passive-report.ts';
import { loadPassiveConfig } from '../../core/run/config.ts';
import { coverageOf, type Coverage } from '../../core/coverage/model.ts';
import { emptyTally, mergeTallies } from '../../core/coverage/tally.ts';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { harEntry, writeHar } from './har-entries.ts';
import { startProxyProcess } from './proxy-process.ts';
import { sendRaw } from './proxy-origin.ts';

test.setTimeout(120_000);

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const KEY = 'a-team-key-7f3e9c2d';
const page = (total: number) => ({
  data: [],
  meta: { pagination: { total, count: 0, per_page: 25, current_page: 1, total_pages: Math.max(1, Math.ceil(total / 25)) } },
});
const notFound = { error: { code: 'ERR_CALL_SESSION_NOT_FOUND', message: 'No call with that id.' } };
const emptyKey = { error: { code: 'AUTH_ERR_EMPTY_APIKEY', message: 'The apikey header is missing or empty.' } };

/** The traffic, as HAR entries and as exchanges handed to the judge: url, key (none: no header), status, body. */
const TRAFFIC: Array<[string, string | undefined, number, unknown]> = [
  [`${CALLS}/calls`, KEY, 200, page(10)],
  [`${CALLS}/calls?type=audio`, KEY, 200, page(3)],
  [`${CALLS}/calls?mode=presenter`, KEY, 200, page(0)],
  [`${CALLS}/calls/no-such-session`, KEY, 404, notFound],
  [`${CALLS}/calls`, undefined, 401, emptyKey],
];

function recorded(index: number, source = `hand-made, exchange ${index + 1}`): RecordedExchange {
  const [url, key, status, body] = TRAFFIC[index]!;
  return {
    source,
    startedAt: new Date(Date.parse('2026-11-26T00:00:00Z') + index * 1000).toISOString(),
    request: { method: 'GET', url, headers: key === undefined ? [] : [['apikey', key]] },
    response: { status, headers: [['content-type', 'application/json']], bodyText: JSON.stringify(body) },
    durationMs: 10,
  };
}

const stateOf = (coverage: Coverage) => Object.fromEntries(coverage.items.map((item) => [item.id, item.state]));
const itemOf = (coverage: Coverage, id: string) => {
  const item = coverage.items.find((candidate) => candidate.id === id);
  expect(item, `the coverage has an item ${id}`).toBeDefined();
  return item!;
};

/** What the hand-made traffic covers, as any report of it must say. */
function expectTheTrafficsCoverage(coverage: Coverage | undefined): void {
  expect(coverage, 'the report carries coverage').toBeDefined();
  expect(coverage!.exchanges).toBe(TRAFFIC.length);
  expect(coverage!.population).toBe(10);
  expect(itemOf(coverage!, 'filters/type=audio')).toMatchObject({ state: 'covered', count: 1 });
  const presenter = itemOf(coverage!, 'filters/mode=presenter');
  expect(presenter.state).toBe('weak');
  expect(presenter.why).toMatch(/no such data/);
  expect(itemOf(coverage!, 'get-call/unknown id').state).toBe('covered');
  expect(itemOf(coverage!, 'operations/getCall ERR_CALL_SESSION_NOT_FOUND').state).toBe('covered');
  expect(itemOf(coverage!, 'access/key missing').state).toBe('covered');
  expect(itemOf(coverage!, 'operations/listCalls AUTH_ERR_EMPTY_APIKEY').state).toBe('covered');
  for (const id of ['get-call/encoded id', 'paging/middle', 'filters/type=video', 'access/header case']) {
    const item = itemOf(coverage!, id);
    expect(item.state, id).toBe('missing');
    expect(item.why, id).toBe('not in the traffic judged');
  }
  // No run of the suite: nothing is missing for writes being off.
  expect(coverage!.items.filter((item) => item.why?.includes('ALLOW_WRITES'))).toEqual([]);
}

test('judged traffic: a filter value whose answer kept some calls of an unfiltered list is covered, one that kept none is weak for "no such data", Get Call on an unknown id and a request without a key are covered, and what the traffic never tried is missing', () => {
  const judge = createPassiveJudge();
  for (let index = 0; index < TRAFFIC.length; index += 1) judge.add(recorded(index));
  // Counted as added: the exchanges still wait for the readings to be learned, and are already counted.
  const snapshot = judge.snapshot();
  expect(snapshot.exchanges).toBe(0);
  expect(snapshot.coverage.exchanges).toBe(TRAFFIC.length);
  const result = judge.finish();
  expect(result.coverage).toEqual(snapshot.coverage);
  // A copy: what a caller does to it is not the judge's.
  result.coverage.items['get unknown']!.n = 99;
  expect(judge.snapshot().coverage.items['get unknown']!.n).toBe(1);
  expect(judge.snapshot().coverage.items['get unknown']!.by).toBe('hand-made, exchange 4');

  const { report } = buildPassiveReport(judge.finish(), {
    dir: freshDir('passive-coverage'),
    sources: ['hand-made'],
    rerun: 'none',
    env: {},
    config: loadPassiveConfig({}),
  });
  expectTheTrafficsCoverage(report.coverage);
  expect(itemOf(report.coverage!, 'filters/type=audio').by).toBe('hand-made, exchange 2');
  expect(report.coverage!.statuses).toEqual({ listCalls: { 200: 3, 401: 1 }, getCall: { 404: 1 } });
});

test('the key header as the recording has it: another letter case and an empty key are counted, from the redacted exchange, which keeps both', () => {
  const judge = createPassiveJudge();
  const exchange = (headers: Array<[string, string]>, source: string): RecordedExchange => ({
    ...recorded(0, source),
    request: { method: 'GET', url: `${CALLS}/calls`, headers },
  });
  judge.add(exchange([['APIKEY', KEY]], 'upper case'));
  judge.add(exchange([['apikey', '  ']], 'empty'));
  judge.add(exchange([['apikey', KEY]], 'as usual'));
  const tally = judge.finish().coverage;
  expect(tally.items['key header case']).toEqual({ n: 1, by: 'upper case' });
  expect(tally.items['key empty']).toEqual({ n: 1, by: 'empty' });
  expect(tally.items['key missing']).toBeUndefined();
  const coverage = coverageOf(tally, { passive: true });
  expect(itemOf(coverage, 'access/header case')).toMatchObject({ state: 'covered', by: 'upper case', count: 1 });
  expect(itemOf(coverage, 'access/key missing').state).toBe('missing');
});

test("two judges' states merged: their tallies add up; a state of a version that did not count coverage merges as none, and the merge says so", () => {
  const [first, second] = [createPassiveJudge(), createPassiveJudge()];
  for (let index = 0; index < TRAFFIC.length; index += 1) (index % 2 === 0 ? first : second).add(recorded(index));
  // One list more on each side, so that both count some same items.
  first.add(recorded(1, 'first again'));
  second.add(recorded(1, 'second again'));
  const states = [first, second].map((judge) => (judge.finish(), judge.state(['proxy'])));
  const { state } = mergeStates(states);
  const sum = mergeTallies(mergeTallies(emptyTally(), states[0]!.coverage!), states[1]!.coverage!);
  expect(state.coverage).toEqual(sum);
  expect(state.coverage!.exchanges).toBe(TRAFFIC.length + 2);
  expect(state.coverage!.items['type=audio']).toMatchObject({ n: 3, kept: 3 });
  const result = resultOfState(state);
  expect(result.coverage).toEqual(sum);
  // The merge of the two judges' traffic covers what one judge of all of it covers.
  const whole = createPassiveJudge();
  for (let index = 0; index < TRAFFIC.length; index += 1) whole.add(recorded(index));
  expect(stateOf(coverageOf(result.coverage, { passive: true }))).toEqual(stateOf(coverageOf(whole.finish().coverage, { passive: true })));
  // A state written before coverage was counted: no crash, counted as none, and said so.
  const { coverage: _none, ...older } = states[1]!;
  const merged = mergeStates([states[0]!, older]);
  expect(merged.state.coverage).toEqual(mergeTallies(emptyTally(), states[0]!.coverage!));
  expect(merged.notes.join(' ')).toMatch(/coverage counts the traffic of 1 of the 2 reports only/);
  // None of them counted it: the merged state has none, and its result counts nothing.
  const { coverage: _also, ...oldest } = states[0]!;
  const neither = mergeStates([oldest, older]).state;
  expect(neither.coverage).toBeUndefined();
  expect(resultOfState(neither).coverage).toEqual(emptyTally());
});

test("the state's tally is scrubbed of every secret the judge saw, its keys too", () => {
  const judge = createPassiveJudge();
  // A source that names a key (a recording named after it), and a page size that is one.
  judge.add(recorded(0, `capture-${KEY}.har, entry 1`));
  judge.add({ ...recorded(1), request: { method: 'GET', url: `${CALLS}/calls?perPage=${KEY}`, headers: [['apikey', KEY]] } });
  expect(JSON.stringify(judge.snapshot().coverage)).toContain(KEY);
  const state = judge.state(['proxy']);
  expect(JSON.stringify(state.coverage)).not.toContain(KEY);
  expect(state.coverage!.items['status listCalls 200']!.by).toBe('capture-[redacted].har, entry 1');
});

test('`har FILE`: results.json carries the coverage of the traffic judged', async () => {
  const entries = TRAFFIC.map(([url, key, status, body]) =>
    harEntry({ url, headers: key === undefined ? {} : { apikey: key }, status, body }),
  );
  const file = writeHar(entries, 'coverage.har');
  const dir = freshDir('passive-coverage-har');
  const run = await runScript(CLI.conformance, ['har', file], { REPORT_DIR: dir }, 60_000);
  expect([0, 1], `${run.stdout}\n${run.stderr}`).toContain(run.code);
  const { results } = readReports(dir);
  expectTheTrafficsCoverage(results.coverage);
  expect(itemOf(results.coverage!, 'get-call/unknown id').by).toBe('coverage.har, entry 4');
  expect(JSON.stringify(results)).not.toContain(KEY);
});

test("the judging proxy's results.json carries the coverage of the traffic it judged", async () => {
  const reference = createServer({ seed: 5, calls: 100 });
  const reports = freshDir('proxy-coverage');
  try {
    const proxy = await startProxyProcess(['--target', await reference.listen(0), '--port', '0'], { REPORT_DIR: reports });
    const statuses = [
      (await sendRaw(`${proxy.base}/calls`, 'GET', ['apikey', DEMO_KEYS.fullAccess])).status,
      (await sendRaw(`${proxy.base}/calls?type=audio`, 'GET', ['apikey', DEMO_KEYS.fullAccess])).status,
      (await sendRaw(`${proxy.base}/calls/no-such-session`, 'GET', ['apikey', DEMO_KEYS.fullAccess])).status,
      (await sendRaw(`${proxy.base}/calls`)).status,
    ];
    expect(statuses).toEqual([200, 200, 404, 401]);
    const exit = await proxy.stop('SIGTERM');
    expect(exit.code, exit.stdout + exit.stderr).toBe(0);
  } finally {
    await reference.close();
  }
  const { coverage } = readReports(reports).results;
  expect(coverage, 'the report carries coverage').toBeDefined();
  expect(coverage!.exchanges).toBe(4);
  expect(coverage!.population).toBeGreaterThan(0);
  expect(itemOf(coverage!, 'filters/type=audio').state).toBe('covered');
  expect(itemOf(coverage!, 'get-call/unknown id')).toMatchObject({ state: 'covered', by: 'proxy, exchange 3' });
  expect(itemOf(coverage!, 'access/key missing').state).toBe('covered');
  expect(itemOf(coverage!, 'paging/middle')).toMatchObject({ state: 'missing', why: 'not in the traffic judged' });
});
