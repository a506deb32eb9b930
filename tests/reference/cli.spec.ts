// The reference's command line: it prints one line with its base address, serves the data set its
// --seed, --calls and --readings describe, answers Get Call in the envelope --get-envelope names, takes its keys from API_KEY and RESTRICTED_API_KEY, exits
// 0 on SIGTERM, and refuses bad arguments with exit code 2 and one line naming the option.
import { test, expect, expectContractValid, sendRaw } from '../reference-fixtures.ts';
import { createStore } from '../../reference/store.ts';
import { DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { sessionIdsOf } from './list-oracle.ts';
import { startReference } from './reference-process.ts';
import { totalsUnder } from './readings-oracle.ts';
import { HEAD_START_SECONDS } from '../../reference/live/living-calls.ts';
import { loggedBy, planLiveCall } from '../../reference/live/live-call.ts';
import { parseSettleDelay } from '../../reference/live/settle-delay.ts';
import { callSource } from '../../reference/data/calls.ts';

const LISTENING = /^reference server listening on http:\/\/127\.0\.0\.1:\d+\/v3$/;
const START_TIMEOUT_MS = 20_000;
const EXIT_TIMEOUT_MS = 10_000;
const baseOf = (line: string) => line.slice('reference server listening on '.length);

test('started on port 0, the reference prints exactly one line with its address, serves --seed 3 --calls 50, and exits 0 on SIGTERM', async ({
  request,
  contract,
}) => {
  const reference = startReference(['--port', '0', '--seed', '3', '--calls', '50']);
  try {
    const line = await reference.waitForLine(LISTENING, START_TIMEOUT_MS);
    const answer = await sendRaw(request, `${baseOf(line)}/calls`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(200);
    expect(answer.body.meta.pagination.total).toBe(50);
    expect(sessionIdsOf(answer.body.data)).toEqual(sessionIdsOf(createStore(3, 50).data.rows));

    reference.signal('SIGTERM');
    expect(await reference.waitForExit(EXIT_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    expect(
      reference
        .stdout()
        .split('\n')
        .filter((printed) => printed !== ''),
    ).toEqual([line]);
  } finally {
    reference.stop();
  }
});

test("started with --readings deployment, the reference says so on its one line and serves the deployment's totals for the same calls", async ({
  request,
  contract,
}) => {
  const reference = startReference(['--port', '0', '--seed', '3', '--calls', '50', '--readings', 'deployment']);
  try {
    const line = await reference.waitForLine(/listening on/, START_TIMEOUT_MS);
    // The suite's configuration finds the address with this pattern (playwright.config.ts).
    expect(line).toMatch(/^reference server listening on http:\/\/127\.0\.0\.1:\d+\/v3 with the deployment's readings$/);
    const base = /reference server listening on (http:\S+)/.exec(line)![1]!;
    const answer = await sendRaw(request, `${base}/calls?perPage=50`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    expectContractValid(contract, 'listCalls', answer);
    expect(sessionIdsOf(answer.body.data)).toEqual(sessionIdsOf(createStore(3, 50).data.rows));
    const totals = (call: any) => ({
      totalAudioMinutes: call.totalAudioMinutes,
      totalVideoMinutes: call.totalVideoMinutes,
      totalDurationInMinutes: call.totalDurationInMinutes,
      totalParticipants: call.totalParticipants,
    });
    expect(answer.body.data.map(totals)).toEqual(answer.body.data.map((call: any) => totalsUnder(call, 'deployment')));
  } finally {
    reference.stop();
  }
});

test('started with --live 2, the reference says so on its one line, and its list grows ahead of the data set while it runs', async ({
  request,
  contract,
}) => {
  const reference = startReference(['--port', '0', '--seed', '3', '--calls', '50', '--live', '2']);
  try {
    const line = await reference.waitForLine(/listening on/, START_TIMEOUT_MS);
    expect(line).toMatch(
      /^reference server listening on http:\/\/127\.0\.0\.1:\d+\/v3 with new calls logged at 2 a second, each call settling 2 to 15 s after it ends$/,
    );
    const base = /reference server listening on (http:\S+)/.exec(line)![1]!;
    const list = () => sendRaw(request, `${base}/calls?perPage=1000`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    const first = await list();
    expectContractValid(contract, 'listCalls', first);
    // It starts as if it had lived for its longest call: live calls in every state are there at once.
    expect(first.body.meta.pagination.total).toBeGreaterThanOrEqual(50 + 2 * HEAD_START_SECONDS);
    expect(new Set(first.body.data.slice(0, -50).map((call: { status: string }) => call.status))).toContain('ongoing');
    await expect
      .poll(async () => (await list()).body.meta.pagination.total, { timeout: 10_000 })
      .toBeGreaterThan(first.body.meta.pagination.total);
    const later = await list();
    // The data set's calls stay, in their order, behind the calls logged since.
    expect(sessionIdsOf(later.body.data).slice(-50)).toEqual(sessionIdsOf(createStore(3, 50).data.rows));
  } finally {
    reference.stop();
  }
});

test('started with --answer-age, the reference says so on its one line, and a cached list stays the same bytes while the calls logged since show to another query', async ({
  request,
}) => {
  const reference = startReference([
    '--port',
    '0',
    '--seed',
    '3',
    '--calls',
    '50',
    '--live',
    '50',
    '--answer-age',
    'get=replica:5,list=cache:600',
  ]);
  try {
    const line = await reference.waitForLine(/listening on/, START_TIMEOUT_MS);
    expect(line).toMatch(
      /^reference server listening on http:\/\/127\.0\.0\.1:\d+\/v3 with new calls logged at 50 a second, each call settling 2 to 15 s after it ends and old answers \(lists cached 600 s, Get Call 5 s behind\)$/,
    );
    const base = /reference server listening on (http:\S+)/.exec(line)![1]!;
    const list = (perPage: number) => sendRaw(request, `${base}/calls?perPage=${perPage}`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    const kept = await list(10);
    expect(kept.status).toBe(200);
    // Each look a query of its own, which no kept answer serves.
    let looks = 0;
    await expect
      .poll(async () => (await list(100 + (looks += 1))).body.meta.pagination.total, { timeout: 10_000 })
      .toBeGreaterThan(kept.body.meta.pagination.total);
    expect((await list(10)).text).toBe(kept.text);
  } finally {
    reference.stop();
  }
});

test('started with --live 2 --settle-delay 0, its calls show their recordings as they end, and with --settle-delay 4-9 only 4 to 9 seconds after, saying so on its one line', async ({
  request,
}) => {
  for (const [delay, words] of [
    ['0', 'each call settled the moment it ends'],
    ['4-9', 'each call settling 4 to 9 s after it ends'],
  ] as const) {
    const reference = startReference(['--port', '0', '--seed', '3', '--calls', '20', '--live', '2', '--settle-delay', delay]);
    try {
      const line = await reference.waitForLine(/listening on/, START_TIMEOUT_MS);
      expect(line).toMatch(
        new RegExp(`^reference server listening on http://127\\.0\\.0\\.1:\\d+/v3 with new calls logged at 2 a second, ${words}$`),
      );
      const base = /reference server listening on (http:\S+)/.exec(line)![1]!;
      const calls = (await sendRaw(request, `${base}/calls?perPage=1000`, { headers: { apikey: DEMO_KEYS.fullAccess } })).body
        .data as Array<{
        sessionId: string;
        initiatedAt: number;
        hasRecording: boolean;
      }>;
      // At two a second a call is logged every second: the newest one says the moment the answer shows.
      const now = calls[0]!.initiatedAt;
      const source = callSource(3, createStore(3, 20).data, 'entries');
      const plans = Array.from({ length: loggedBy(now, 2) }, (_, index) =>
        planLiveCall(source, 2, index + 1, false, parseSettleDelay(delay)!),
      );
      const recorded = plans.filter((plan) => plan.outcome === 'ended' && plan.recordings.length > 0 && plan.endAt <= now);
      expect(recorded.some((plan) => now < plan.recordingsAt)).toBe(delay !== '0');
      const shown = new Map(calls.map((call) => [call.sessionId, call.hasRecording]));
      for (const plan of recorded) expect(shown.get(plan.sessionId), `${delay}: ${plan.sessionId}`).toBe(now >= plan.recordingsAt);
    } finally {
      reference.stop();
    }
  }
});

test('started with --get-envelope, the reference says so on its one line and answers Get Call in that envelope, the same call the list shows', async ({
  request,
  contract,
}) => {
  for (const [envelope, callOf] of [
    ['data-array', (body: any) => body.data[0]],
    ['bare', (body: any) => body],
  ] as const) {
    const reference = startReference(['--port', '0', '--seed', '3', '--calls', '20', '--get-envelope', envelope]);
    try {
      const line = await reference.waitForLine(/listening on/, START_TIMEOUT_MS);
      expect(line).toMatch(
        new RegExp(`^reference server listening on http://127\\.0\\.0\\.1:\\d+/v3 with Get Call answering ${envelope}$`),
      );
      const base = baseOf(line).split(' ')[0]!;
      const [listed] = (await sendRaw(request, `${base}/calls`, { headers: { apikey: DEMO_KEYS.fullAccess } })).body.data;
      const answer = await sendRaw(request, `${base}/calls/${encodeURIComponent(listed.sessionId)}`, {
        headers: { apikey: DEMO_KEYS.fullAccess },
      });
      expectContractValid(contract, 'getCall', answer);
      expect(answer.status).toBe(200);
      if (envelope === 'data-array') expect(answer.body.data, envelope).toHaveLength(1);
      expect(callOf(answer.body), envelope).toMatchObject(listed);
    } finally {
      reference.stop();
    }
  }
});

// Each also asks for a free port, so that a reference that wrongly starts does not take a fixed one.
const badArguments: Array<[args: string[], option: string]> = [
  [['--port', 'abc'], '--port'],
  [['--port', '0', '--calls', '0'], '--calls'],
  [['--port', '0', '--bogus'], '--bogus'],
  [['--port', '0', '--rate-limit', 'fast'], '--rate-limit'],
  [['--port', '0', '--rate-limit', '0'], '--rate-limit'],
  [['--port', '0', '--readings', 'joined-entries'], '--readings'],
  [['--port', '0', '--readings'], '--readings'],
  [['--port', '0', '--live', '0'], '--live'],
  [['--port', '0', '--live', 'fast'], '--live'],
  [['--port', '0', '--live', '51'], '--live'],
  [['--port', '0', '--get-envelope', 'data'], '--get-envelope'],
  [['--port', '0', '--live', '1', '--settle-delay', '15-2'], '--settle-delay'],
  [['--port', '0', '--live', '1', '--settle-delay', '2.5'], '--settle-delay'],
  [['--port', '0', '--live', '1', '--settle-delay', '0-301'], '--settle-delay'],
  [['--port', '0', '--live', '1', '--settle-delay'], '--settle-delay'],
  [['--port', '0', '--answer-age', 'list=cache:601'], '--answer-age'],
  [['--port', '0', '--answer-age', 'get=lagging:5'], '--answer-age'],
];

for (const [args, option] of badArguments) {
  test(`started with ${args.join(' ')}, the reference exits with code 2 and one stderr line naming ${option}`, async () => {
    const reference = startReference(args);
    try {
      expect(await reference.waitForExit(START_TIMEOUT_MS)).toEqual({ code: 2, signal: null });
      const lines = reference
        .stderr()
        .split('\n')
        .filter((printed) => printed !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^reference: /);
      expect(lines[0]).toContain(option);
      expect(reference.stdout()).toBe('');
    } finally {
      reference.stop();
    }
  });
}

test('with API_KEY and RESTRICTED_API_KEY set, the reference takes its keys from them and refuses the demo keys', async ({
  request,
  contract,
}) => {
  const reference = startReference(['--port', '0', '--calls', '20'], { API_KEY: 'cli-full-key', RESTRICTED_API_KEY: 'cli-read-key' });
  try {
    const base = baseOf(await reference.waitForLine(LISTENING, START_TIMEOUT_MS));
    const list = (apikey: string) => sendRaw(request, `${base}/calls`, { headers: { apikey } });

    for (const key of ['cli-full-key', 'cli-read-key']) {
      const answer = await list(key);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status, key).toBe(200);
    }
    for (const key of [DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly]) {
      const answer = await list(key);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status, key).toBe(401);
      expect(answer.body.error.code, key).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    }
    const marked = await sendRaw(request, `${base}/groups/${UNREAD_FIXTURE.groupGuid}/conversation/read`, {
      method: 'DELETE',
      headers: { apikey: 'cli-read-key', 'content-type': 'application/json', onBehalfOf: UNREAD_FIXTURE.actingUid },
      data: Buffer.from(JSON.stringify({ messageId: UNREAD_FIXTURE.messageId })),
    });
    expectContractValid(contract, 'markGroupConversationAsUnread', marked);
    expect(marked.status).toBe(403);
  } finally {
    reference.stop();
  }
});
