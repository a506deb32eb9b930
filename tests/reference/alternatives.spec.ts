// The readings the reference serves on demand (reference/alternatives.ts) do what they say, so that
// the kill matrix's must-pass rows for them prove something: a variant that changed nothing would
// pass whatever the suite assumed. Each is held against the reference serving its own readings, on
// the same data, and must differ from it where the reading differs.
import { test, expect, sendRaw, type Answer, type RawRequest } from '../reference-fixtures.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REFERENCE_ALTERNATIVES } from '../../reference/alternatives.ts';
import { DEFAULT_CALLS, DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import type { APIRequestContext } from '@playwright/test';

type Shown = Record<string, any>;

/** The reference with `options` and without its alternatives, on one data set: `get(path, onBehalfOf)` asks both. */
async function againstOwn(
  request: APIRequestContext,
  options: ReferenceOptions,
  run: (ask: (path: string, onBehalfOf?: string, raw?: RawRequest) => Promise<[alternative: Answer, own: Answer]>) => Promise<void>,
) {
  const data = { seed: 5, calls: DEFAULT_CALLS };
  const servers = [createServer({ ...data, ...options }), createServer(data)];
  try {
    const bases = await Promise.all(servers.map((server) => server.listen(0)));
    const send = (base: string, path: string, onBehalfOf?: string, raw: RawRequest = {}) =>
      sendRaw(request, `${base}${path}`, {
        ...raw,
        headers: { apikey: servers[0]!.keys.fullAccess, ...(onBehalfOf !== undefined && { onBehalfOf }), ...raw.headers },
      });
    await run(async (path, onBehalfOf, raw) => {
      const [alternative, own] = await Promise.all(bases.map((base) => send(base, path, onBehalfOf, raw)));
      return [alternative!, own!];
    });
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

const ids = (answer: Answer) => (answer.body.data as Shown[]).map((call) => call.sessionId as string);
const people = (call: Shown) => new Set((call.participants as Shown[]).map((entry) => entry.uid)).size;

test('participants-count-people: participantsCount=N lists the calls of N users, where the reference lists the calls of N entries', async ({
  request,
}) => {
  await againstOwn(request, { alternatives: ['participants-count-people'] }, async (ask) => {
    const [all] = await ask('/calls?perPage=1000');
    const calls = all.body.data as Shown[];
    let differing = 0;
    for (const count of new Set(calls.map(people))) {
      const [alternative, own] = await ask(`/calls?perPage=1000&participantsCount=${count}`);
      expect(ids(alternative)).toEqual(calls.filter((call) => people(call) === count).map((call) => call.sessionId));
      if (JSON.stringify(ids(alternative)) !== JSON.stringify(ids(own))) differing += 1;
    }
    expect(differing, 'counts at which users and entries list other calls').toBeGreaterThan(0);
  });
});

test("on-behalf-of-groups: a member of a group gets the group's calls they had no part in, from List Calls and Get Call; the reference refuses them", async ({
  request,
}) => {
  await againstOwn(request, { alternatives: ['on-behalf-of-groups'] }, async (ask) => {
    const member = 'user-00001';
    const [alternative, own] = await ask('/calls?perPage=1000', member);
    const extra = (alternative.body.data as Shown[]).filter((call) => !ids(own).includes(call.sessionId as string));
    expect(extra.length, 'group calls in the scope of a member with no part in them').toBeGreaterThan(0);
    for (const call of extra) {
      expect(call.receiverType).toBe('group');
      expect((call.participants as Shown[]).some((entry) => entry.uid === member) || call.initiator === member).toBe(false);
    }
    const [got, refused] = await ask(`/calls/${encodeURIComponent(extra[0]!.sessionId as string)}`, member);
    expect([got.status, refused.status]).toEqual([200, 404]);
    // One-to-one calls stay out of it.
    expect(ids(alternative).filter((id) => !ids(own).includes(id)).length).toBe(extra.length);
  });
});

test('page-size-limit: limit sets the page size and perPage is ignored, where the reference reads perPage', async ({ request }) => {
  await againstOwn(request, { alternatives: ['page-size-limit'] }, async (ask) => {
    const [limited, ownLimited] = await ask('/calls?limit=3');
    const [perPage, ownPerPage] = await ask('/calls?perPage=3');
    expect([limited.body.data.length, limited.body.meta.pagination.per_page]).toEqual([3, 3]);
    expect([perPage.body.data.length, ownLimited.body.data.length]).toEqual([100, 100]);
    expect(ownPerPage.body.data.length).toBe(3);
  });
});

test('dates-exact: startedAt and endedAt list the calls of that very second, where the reference lists those from (startedAt) or up to (endedAt) it', async ({
  request,
}) => {
  await againstOwn(request, { alternatives: ['dates-exact'] }, async (ask) => {
    const [all] = await ask('/calls?perPage=1000');
    const calls = (all.body.data as Shown[]).filter((call) => call.endedAt !== undefined);
    // Calls from the middle of the data, so that a bound either way keeps others too.
    for (const call of [
      calls[Math.floor(calls.length / 3)]!,
      calls[Math.floor(calls.length / 2)]!,
      calls[Math.floor((2 * calls.length) / 3)]!,
    ]) {
      for (const field of ['startedAt', 'endedAt'] as const) {
        const [alternative, own] = await ask(`/calls?perPage=1000&${field}=${call[field]}`);
        const expected = (all.body.data as Shown[]).filter((other) => other[field] === call[field]).map((other) => other.sessionId);
        expect(ids(alternative), `${field}=${call[field]}`).toEqual(expected);
        expect(ids(own).length, `the reference's bound at ${field}=${call[field]} keeps more`).toBeGreaterThan(expected.length);
      }
    }
  });
});

test("oldest-first: the pages read the reference's list from its end", async ({ request }) => {
  await againstOwn(request, { alternatives: ['oldest-first'] }, async (ask) => {
    const [alternative, own] = await ask('/calls?perPage=1000&type=video');
    expect(ids(alternative)).toEqual(ids(own).reverse());
    expect(alternative.body.meta).toEqual(own.body.meta);
    const total = own.body.meta.pagination.total as number;
    const [second] = await ask('/calls?perPage=7&page=2&type=video');
    expect(ids(second)).toEqual(
      ids(own)
        .slice(total - 14, total - 7)
        .reverse(),
    );
    const [last] = await ask(`/calls?perPage=7&page=${Math.ceil(total / 7)}&type=video`);
    expect(ids(last)).toEqual(
      ids(own)
        .slice(0, total % 7 || 7)
        .reverse(),
    );
    const initiated = (alternative.body.data as Shown[]).map((call) => call.initiatedAt as number);
    expect(initiated).toEqual([...initiated].sort((a, b) => a - b));
  });
});

test('errors-flat: every error is {"code", "message"} at the top, where the reference wraps it in error', async ({ request }) => {
  await againstOwn(request, { alternatives: ['errors-flat'] }, async (ask) => {
    const cases: Array<[string, RawRequest, string]> = [
      ['/calls/no-such-call', {}, 'ERR_CALL_SESSION_NOT_FOUND'],
      ['/calls', { headers: { apikey: '' } }, 'AUTH_ERR_EMPTY_APIKEY'],
      ['/calls', { headers: { apikey: 'not-a-key' } }, 'AUTH_ERR_APIKEY_NOT_FOUND'],
      ['/calls?type=fax', {}, 'ERR_BAD_REQUEST'],
    ];
    for (const [path, raw, code] of cases) {
      const [alternative, own] = await ask(path, undefined, raw);
      expect(alternative.status).toBe(own.status);
      expect(alternative.body).toEqual({
        code,
        message: own.body.error.message,
        ...(own.body.error.details && { details: own.body.error.details }),
      });
      expect(own.body.error.code).toBe(code);
    }
  });
});

test('unread-refused-in-result: a key without fullAccess gets status 200 and data.success false, where the reference answers 403', async ({
  request,
}) => {
  await againstOwn(request, { alternatives: ['unread-refused-in-result'] }, async (ask) => {
    const path = `/groups/${UNREAD_FIXTURE.groupGuid}/conversation/read`;
    const raw = (apikey: string): RawRequest => ({
      method: 'DELETE',
      headers: { apikey, 'content-type': 'application/json' },
      data: JSON.stringify({ messageId: UNREAD_FIXTURE.messageId }),
    });
    const [refused, own] = await ask(path, UNREAD_FIXTURE.actingUid, raw(DEMO_KEYS.readOnly));
    expect([refused.status, refused.body.data.success, typeof refused.body.data.message]).toEqual([200, false, 'string']);
    expect([own.status, own.body.error.code]).toEqual([403, 'AUTH_ERR_NO_ACCESS']);
    const [marked] = await ask(path, UNREAD_FIXTURE.actingUid, raw(DEMO_KEYS.fullAccess));
    expect([marked.status, marked.body.data.success]).toEqual([200, true]);
  });
});

test('every alternative the reference serves is tested here', () => {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const titled = (alternative: string) => new RegExp(`test\\(\\s*['"\`]${alternative}: `).test(source);
  expect(REFERENCE_ALTERNATIVES.filter((alternative) => !titled(alternative))).toEqual([]);
});
