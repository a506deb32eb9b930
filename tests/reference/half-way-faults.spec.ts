// The faults of a target that acknowledges a feature but gets it half right do what their
// descriptions say: the page parameters echoed but not honoured, pages that overlap from the second,
// the startedAt filter honoured only beside another, and uid reading "took part" two ways.
import { test, expect, expectContractValid, type Answer } from '../reference-fixtures.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { listPath, sessionIdsOf, type ListQuery } from './list-oracle.ts';
import { withPairedServers, type PairedServers } from './paired-servers.ts';

interface Call {
  sessionId: string;
  receiverType: string;
  participants: Array<{ uid: string; isJoined: boolean }>;
}

/** One page from the faulted server and from the clean one, both valid and successful. */
async function pages(
  servers: PairedServers,
  contract: Parameters<typeof expectContractValid>[0],
  query: ListQuery,
  extra: Record<string, number> = {},
  headers: Record<string, string> = {},
): Promise<[Answer, Answer]> {
  const answers = await servers.both(listPath(query, extra), headers);
  for (const answer of answers) {
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(200);
  }
  return answers;
}

const withFault = (name: string) => ({ fault: findFault(name)!, readings: 'entries' as const });

test("page-echoed-first-page-served echoes the page asked for in current_page and serves the first page's items", async ({
  request,
  contract,
}) => {
  await withPairedServers(request, withFault('page-echoed-first-page-served'), async (servers) => {
    for (const query of [{}, { status: 'ended' }] as ListQuery[]) {
      const [, first] = await pages(servers, contract, query, { page: 1, perPage: 50 });
      for (const page of [1, 2, 5]) {
        const [faulted, clean] = await pages(servers, contract, query, { page, perPage: 50 });
        expect(faulted.body.meta).toEqual(clean.body.meta);
        expect(faulted.body.meta.pagination.current_page).toBe(page);
        expect(sessionIdsOf(faulted.body.data), `page ${page}`).toEqual(sessionIdsOf(first.body.data));
      }
    }
  });
});

test('pages-overlap-from-page-2 starts each page from the second one item early, repeating the last item of the page before', async ({
  request,
  contract,
}) => {
  await withPairedServers(request, withFault('pages-overlap-from-page-2'), async (servers) => {
    const [, all] = await pages(servers, contract, {}, { perPage: 1000 });
    const everyId = sessionIdsOf(all.body.data);
    const shown: string[][] = [];
    for (const page of [1, 2, 3]) {
      const [faulted, clean] = await pages(servers, contract, {}, { page, perPage: 50 });
      const from = page === 1 ? 0 : (page - 1) * 50 - 1;
      expect(sessionIdsOf(faulted.body.data), `page ${page}`).toEqual(everyId.slice(from, from + 50));
      expect(faulted.body.meta).toEqual(clean.body.meta);
      shown.push(sessionIdsOf(faulted.body.data));
    }
    expect(shown[1]![0]).toBe(shown[0]!.at(-1));
  });
});

test('started-at-ignored-alone ignores startedAt given alone, and applies it beside another filter', async ({ request, contract }) => {
  await withPairedServers(request, withFault('started-at-ignored-alone'), async (servers) => {
    const [, everything] = await pages(servers, contract, {}, { perPage: 1000 });
    const starts = everything.body.data.map((call: { startedAt: number }) => call.startedAt).sort((a: number, b: number) => a - b);
    const startedAt = starts[Math.floor(starts.length / 2)];
    const [alone, cleanAlone] = await pages(servers, contract, { startedAt }, { perPage: 1000 });
    expect(sessionIdsOf(alone.body.data)).toEqual(sessionIdsOf(everything.body.data));
    expect(cleanAlone.body.meta.pagination.total).toBeLessThan(everything.body.meta.pagination.total);
    // Scoping to a user is not a filter of the query: startedAt is still alone, and still ignored.
    const uid = everything.body.data[0].initiator;
    const [scoped] = await pages(servers, contract, { startedAt }, { perPage: 1000 }, { onBehalfOf: uid });
    const [, cleanUnfiltered] = await pages(servers, contract, {}, { perPage: 1000 }, { onBehalfOf: uid });
    expect(sessionIdsOf(scoped.body.data)).toEqual(sessionIdsOf(cleanUnfiltered.body.data));
    for (const beside of [{ type: 'audio' }, { status: 'ended' }, { hasRecording: false }] as ListQuery[]) {
      const [faulted, clean] = await pages(servers, contract, { ...beside, startedAt }, { perPage: 1000 });
      expect(sessionIdsOf(faulted.body.data), JSON.stringify(beside)).toEqual(sessionIdsOf(clean.body.data));
    }
  });
});

test('uid-drops-unanswered-one-to-one leaves out, for uid and onBehalfOf, the 1:1 calls the user never joined, and keeps the group calls they never joined', async ({
  request,
  contract,
}) => {
  await withPairedServers(request, withFault('uid-drops-unanswered-one-to-one'), async (servers) => {
    const uids = servers.clean.store.data.users.slice(0, 12).map((user) => user.uid);
    const joined = (call: Call, uid: string) => call.participants.some((participant) => participant.uid === uid && participant.isJoined);
    let dropped = 0;
    let keptNeverJoined = 0;
    for (const uid of uids) {
      for (const [query, headers] of [
        [{ uid }, {}],
        [{}, { onBehalfOf: uid }],
      ] as Array<[ListQuery, Record<string, string>]>) {
        const [faulted, clean] = await pages(servers, contract, query, { perPage: 1000 }, headers);
        const calls: Call[] = clean.body.data;
        const expected = calls.filter((call) => call.receiverType === 'group' || joined(call, uid));
        expect(sessionIdsOf(faulted.body.data), `${JSON.stringify(query)} ${JSON.stringify(headers)}`).toEqual(sessionIdsOf(expected));
        expect(faulted.body.meta.pagination.total).toBe(expected.length);
        dropped += calls.length - expected.length;
        keptNeverJoined += expected.filter((call) => !joined(call, uid)).length;
      }
    }
    expect(dropped, '1:1 calls left out').toBeGreaterThan(0);
    expect(keptNeverJoined, 'group calls kept though the user never joined').toBeGreaterThan(0);
  });
});
