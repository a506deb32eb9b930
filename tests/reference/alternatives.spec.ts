// The readings the reference serves on demand (reference/alternatives.ts) do what they say, so that
// the kill matrix's must-pass rows for them prove something: a variant that changed nothing would
// pass whatever the suite assumed. Each is held against the reference serving its own readings, on
// the same data, and must differ from it where the reading differs.
import { test, expect, sendRaw, type Answer } from '../reference-fixtures.ts';
import { createServer, type ReferenceOptions } from '../../reference/server.ts';
import { DEFAULT_CALLS } from '../../reference/fixtures.ts';
import type { APIRequestContext } from '@playwright/test';

type Shown = Record<string, any>;

/** The reference with `options` and without its alternatives, on one data set: `get(path, onBehalfOf)` asks both. */
async function againstOwn(
  request: APIRequestContext,
  options: ReferenceOptions,
  run: (ask: (path: string, onBehalfOf?: string) => Promise<[alternative: Answer, own: Answer]>) => Promise<void>,
) {
  const data = { seed: 5, calls: DEFAULT_CALLS };
  const servers = [createServer({ ...data, ...options }), createServer(data)];
  try {
    const bases = await Promise.all(servers.map((server) => server.listen(0)));
    const send = (base: string, path: string, onBehalfOf?: string) =>
      sendRaw(request, `${base}${path}`, {
        headers: { apikey: servers[0]!.keys.fullAccess, ...(onBehalfOf !== undefined && { onBehalfOf }) },
      });
    await run(async (path, onBehalfOf) => {
      const [alternative, own] = await Promise.all(bases.map((base) => send(base, path, onBehalfOf)));
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
