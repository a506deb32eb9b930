// The judging proxy as a sidecar left running (issue 36, item 5), as a team runs it: one proxy for
// both services, interim reports on a timer and on SIGUSR1 (each file whole whenever it is read),
// and the reports of two proxies behind one load balancer merged by `merge` into the verdict one
// proxy that saw all the traffic gives.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { STATE_FILE, type PassiveState } from '../../passive/judge-state.ts';
import { runScript } from '../runner/run-suite.ts';
import { CLI, freshDir, readReports } from '../reports/report-runs.ts';
import { startProxyProcess, type ProxyProcess } from './proxy-process.ts';
import { sendRaw, startOrigin } from './proxy-origin.ts';

test.setTimeout(90_000);

const KEY = ['apikey', DEMO_KEYS.fullAccess];
const interimLines = (proxy: ProxyProcess) => proxy.output().match(/^interim report, as of \S+: .* so far: \S+$/gm) ?? [];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await pause(50);
  }
}

/** Every file a folder holds, as text: no key may be in any. */
const everyFile = (dir: string) => readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'));

test('--chat-target: List Calls and Get Call go to the calls service, mark-unread to the chat service, through one proxy; the report names both', async () => {
  const calls = createServer({ seed: 3, calls: 100 });
  const chat = await startOrigin();
  const reports = freshDir('proxy-two-services');
  try {
    const target = await calls.listen(0);
    const proxy = await startProxyProcess(['--target', target, '--chat-target', chat.base, '--port', '0', '--report-every-minutes', '0'], {
      REPORT_DIR: reports,
    });
    expect(proxy.output()).toContain(
      `forwarding to ${new URL(target).origin} (List Calls, Get Call: …/calls) and ${new URL(chat.base).origin}`,
    );
    const list = await sendRaw(`${proxy.base}/calls?perPage=2`, 'GET', KEY);
    const id = (JSON.parse(list.body.toString()) as { data: Array<{ sessionId: string }> }).data[0]!.sessionId;
    const got = await sendRaw(`${proxy.base}/calls/${encodeURIComponent(id)}`, 'GET', KEY);
    const unread = await sendRaw(`${proxy.base}/groups/g1/conversation/read`, 'DELETE', KEY);
    expect([list.status, got.status, unread.status]).toEqual([200, 200, 404]);
    // The chat service saw mark-unread and nothing else; the calls went to the calls service.
    expect(chat.arrivals.map((arrival) => `${arrival.method} ${arrival.url}`)).toEqual(['DELETE /v3/groups/g1/conversation/read']);
    const exit = await proxy.stop();
    expect(exit.stdout).toContain('3 exchanges passed through the proxy');
    const { results } = readReports(reports);
    expect(results.passive!.sources).toEqual([`proxy → ${new URL(target).origin}`, `proxy → ${new URL(chat.base).origin} (chat)`]);
    expect(results.passive!.byOperation).toEqual({ listCalls: 1, getCall: 1, markGroupConversationAsUnread: 1 });
  } finally {
    await calls.close();
    await chat.close();
  }
});

test('SIGUSR1 writes an interim report of the traffic so far, and only then with --report-every-minutes 0; SIGTERM the final one', async () => {
  const reference = createServer({ seed: 3, calls: 100 });
  const reports = freshDir('proxy-interim');
  try {
    const target = await reference.listen(0);
    const proxy = await startProxyProcess(['--target', target, '--port', '0', '--report-every-minutes', '0'], { REPORT_DIR: reports });
    // The line follows the listening lines in a write of its own, which may arrive a moment later.
    await expect.poll(() => proxy.output(), { timeout: 10_000 }).toContain('Interim reports: on SIGUSR1');
    for (const page of [1, 2, 3]) expect((await sendRaw(`${proxy.base}/calls?perPage=5&page=${page}`, 'GET', KEY)).status).toBe(200);
    await pause(1_000);
    expect(interimLines(proxy)).toEqual([]);
    proxy.signal('SIGUSR1');
    await until('an interim report', () => interimLines(proxy).length === 1);
    const interim = readReports(reports).results;
    expect(interim.verdictReason).toMatch(
      /^Interim report: the traffic so far, from \S+ to \S+; a final report follows when the proxy stops\./,
    );
    expect(interim.run.configuration).toMatchObject({ report: 'interim' });
    const state = JSON.parse(readFileSync(join(reports, STATE_FILE), 'utf8')) as PassiveState;
    expect([state.final, state.entries]).toEqual([false, 3]);
    const exit = await proxy.stop();
    expect(exit.code).toBe(0);
    const final = readReports(reports).results;
    expect(final.verdictReason).toMatch(/^Final report: the traffic from \S+ to \S+\. No requirement/);
    expect(final.run.configuration).toMatchObject({ report: 'final' });
    expect((JSON.parse(readFileSync(join(reports, STATE_FILE), 'utf8')) as PassiveState).final).toBe(true);
    for (const text of [exit.stdout, exit.stderr, ...everyFile(reports)]) expect(text).not.toContain(DEMO_KEYS.fullAccess);
  } finally {
    await reference.close();
  }
});

test('reports rewritten every 0.6 s while traffic flows: every read of them finds each file whole, and no temporary file is left', async () => {
  const reference = createServer({ seed: 3, calls: 300 });
  const reports = freshDir('proxy-atomic');
  try {
    const target = await reference.listen(0);
    const proxy = await startProxyProcess(['--target', target, '--port', '0', '--report-every-minutes', '0.01'], { REPORT_DIR: reports });
    let flowing = true;
    const statuses: number[] = [];
    const traffic = (async () => {
      // Paced as a staging's clients are, within what the judge keeps up with: a report is written between two exchanges it judges.
      for (let page = 1; flowing; page = (page % 12) + 1) {
        statuses.push((await sendRaw(`${proxy.base}/calls?perPage=10&page=${page}`, 'GET', KEY)).status);
        await pause(25);
      }
    })();
    await until('a first report', () => interimLines(proxy).length > 0);
    // A reader that reads as often as it can: a file seen half-written would not parse. It reads
    // until it has seen four reports written one over another (about 2.4 s on a quiet machine; a
    // busy one writes them later, so the bound is generous and the count is what is asked).
    const seen = new Set<string>();
    let reads = 0;
    const deadline = Date.now() + 30_000;
    while (seen.size < 4 && Date.now() < deadline) {
      const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as { verdictReason: string };
      const state = JSON.parse(readFileSync(join(reports, STATE_FILE), 'utf8')) as PassiveState;
      seen.add(`${results.verdictReason.slice(0, 90)} / ${state.asOf}`);
      reads += 1;
      if (reads % 20 === 0) await pause(1);
    }
    flowing = false;
    await traffic;
    expect(seen.size, `${[...seen].join('\n')}\n${proxy.output()}`).toBeGreaterThanOrEqual(4);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect((await proxy.stop()).code).toBe(0);
    expect(readdirSync(reports).sort()).toEqual(
      ['index.html', 'junit.xml', STATE_FILE, 'results.json', 'results.sarif', 'summary.md'].sort(),
    );
  } finally {
    await reference.close();
  }
});

test('merge: lists through one proxy, Get Call through another, fault get-shows-canceled-as-ended: neither report finds CALLS-GET-MATCHES-LIST, the merge does (exit 1); the same report twice is refused (exit 2)', async () => {
  const reference = createServer({ seed: 7, calls: 300, fault: findFault('get-shows-canceled-as-ended') });
  const [dirA, dirB, merged] = [freshDir('proxy-a'), freshDir('proxy-b'), freshDir('proxy-merged')];
  try {
    const target = await reference.listen(0);
    const args = ['--target', target, '--port', '0', '--report-every-minutes', '0'];
    const [lists, gets] = await Promise.all([startProxyProcess(args, { REPORT_DIR: dirA }), startProxyProcess(args, { REPORT_DIR: dirB })]);
    const ids: string[] = [];
    for (const page of [1, 2]) {
      const list = await sendRaw(`${lists.base}/calls?status=canceled&perPage=10&page=${page}`, 'GET', KEY);
      ids.push(...(JSON.parse(list.body.toString()) as { data: Array<{ sessionId: string }> }).data.map((call) => call.sessionId));
    }
    for (const id of ids) expect((await sendRaw(`${gets.base}/calls/${encodeURIComponent(id)}`, 'GET', KEY)).status).toBe(200);
    await Promise.all([lists.stop(), gets.stop()]);
    const violated = (dir: string) =>
      readReports(dir)
        .results.requirements.filter((requirement) => requirement.status === 'fail')
        .map((requirement) => requirement.id);
    expect(violated(dirA)).not.toContain('CALLS-GET-MATCHES-LIST');
    expect(violated(dirB)).not.toContain('CALLS-GET-MATCHES-LIST');

    const run = await runScript(CLI.conformance, ['merge', dirA, dirB], { REPORT_DIR: merged }, 60_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('Passive verdict: VIOLATIONS FOUND. Final report');
    expect(run.stdout).toContain('Merged from the reports of 2 judging proxies');
    expect(violated(merged)).toContain('CALLS-GET-MATCHES-LIST');
    expect(readReports(merged).results.passive!.exchanges).toBe(2 + ids.length);
    for (const text of [run.stdout, run.stderr, ...everyFile(dirA), ...everyFile(dirB), ...everyFile(merged)])
      expect(text).not.toContain(DEMO_KEYS.fullAccess);

    const twice = await runScript(CLI.conformance, ['merge', dirA, dirA], { REPORT_DIR: freshDir('proxy-twice') }, 60_000);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^merge: the traffic of one proxy \(proxy → http:\/\/127\.0\.0\.1:\d+, started \S+\) is given twice\n$/);
  } finally {
    await reference.close();
  }
});
