// Every operation authenticates the apikey header (any letter case of its name): a missing or blank
// key is AUTH_ERR_EMPTY_APIKEY, any other unknown key AUTH_ERR_APIKEY_NOT_FOUND, and the read-only
// key may read calls but not mark a conversation unread.
import fc from 'fast-check';
import { test, expect, expectContractValid, sendRaw, SELF_TEST_SEED, type RawRequest } from '../reference-fixtures.ts';
import type { OperationId } from '../../openapi/contract.ts';
import type { Store } from '../../reference/store.ts';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS, UNREAD_FIXTURE } from '../../reference/fixtures.ts';
import { readPointers } from './store-state.ts';

interface Operation {
  path: string;
  request: RawRequest;
}

const markUnread: Operation = {
  path: `/groups/${UNREAD_FIXTURE.groupGuid}/conversation/read`,
  request: {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', onBehalfOf: UNREAD_FIXTURE.actingUid },
    data: Buffer.from(JSON.stringify({ messageId: UNREAD_FIXTURE.messageId })),
  },
};

function operations(store: Store): Record<OperationId, Operation> {
  return {
    listCalls: { path: '/calls?perPage=1', request: {} },
    getCall: { path: `/calls/${encodeURIComponent(store.data.rows[0]!.sessionId)}`, request: {} },
    markGroupConversationAsUnread: markUnread,
  };
}

/** The operation's request with the given apikey headers (none when empty). */
const withKey = ({ request }: Operation, key: Record<string, string>): RawRequest => ({
  ...request,
  headers: { ...request.headers, ...key },
});

// Forgotten read pointers make "changes nothing" observable: a wrongly accepted mark-unread would set one.
test.beforeEach(({ reference }) => reference.store.reset());

const printableWithoutWhitespace = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));

for (const operationId of ['listCalls', 'getCall', 'markGroupConversationAsUnread'] as const) {
  test.describe(operationId, () => {
    test('without an apikey header answers 401 AUTH_ERR_EMPTY_APIKEY and changes nothing', async ({ send, contract, reference }) => {
      const operation = operations(reference.store)[operationId];
      const before = readPointers(reference.store);
      const answer = await send(operation.path, withKey(operation, {}));
      expectContractValid(contract, operationId, answer);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('AUTH_ERR_EMPTY_APIKEY');
      expect(readPointers(reference.store)).toEqual(before);
    });

    test('with an empty or blank apikey answers 401 AUTH_ERR_EMPTY_APIKEY', async ({ send, contract, reference }) => {
      const operation = operations(reference.store)[operationId];
      for (const key of ['', ' ', '   ', '\t']) {
        const answer = await send(operation.path, withKey(operation, { apikey: key }));
        expectContractValid(contract, operationId, answer);
        expect(answer.status, JSON.stringify(key)).toBe(401);
        expect(answer.body.error.code, JSON.stringify(key)).toBe('AUTH_ERR_EMPTY_APIKEY');
      }
    });

    test('with any other key answers 401 AUTH_ERR_APIKEY_NOT_FOUND and changes nothing', async ({ send, contract, reference }) => {
      const operation = operations(reference.store)[operationId];
      const valid: readonly string[] = [reference.keys.fullAccess, reference.keys.readOnly];
      const nearlyValid = fc
        .constantFrom(...valid)
        .chain((key) => fc.constantFrom(key.toUpperCase(), key.slice(0, -1), `${key}x`, key.slice(1), `${key},${key}`));
      const wrongKeys = fc
        .oneof(fc.string({ unit: printableWithoutWhitespace, minLength: 1, maxLength: 200 }), nearlyValid)
        .map((key) => (valid.includes(key) ? `${key}x` : key));
      const before = readPointers(reference.store);

      await fc.assert(
        fc.asyncProperty(wrongKeys, async (key) => {
          const answer = await send(operation.path, withKey(operation, { apikey: key }));
          expectContractValid(contract, operationId, answer);
          expect(answer.status).toBe(401);
          expect(answer.body.error.code).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
        }),
        { numRuns: 50 },
      );
      expect(readPointers(reference.store)).toEqual(before);
    });

    test('accepts the apikey header name in any letter case', async ({ send, contract, reference }) => {
      const operation = operations(reference.store)[operationId];
      for (const name of ['apikey', 'APIKEY', 'ApiKey', 'apiKey']) {
        const answer = await send(operation.path, withKey(operation, { [name]: reference.keys.fullAccess }));
        expectContractValid(contract, operationId, answer);
        expect(answer.status, name).toBe(200);
      }
    });
  });
}

test('the read-only key lists and gets calls, but marking a conversation unread answers 403 AUTH_ERR_NO_ACCESS and changes nothing', async ({
  send,
  contract,
  reference,
}) => {
  const { listCalls, getCall } = operations(reference.store);
  const key = { apikey: reference.keys.readOnly };
  for (const [operationId, operation] of [
    ['listCalls', listCalls],
    ['getCall', getCall],
  ] as const) {
    const answer = await send(operation.path, withKey(operation, key));
    expectContractValid(contract, operationId, answer);
    expect(answer.status, operationId).toBe(200);
  }

  const before = readPointers(reference.store);
  const answer = await send(markUnread.path, withKey(markUnread, key));
  expectContractValid(contract, 'markGroupConversationAsUnread', answer);
  expect(answer.status).toBe(403);
  expect(answer.body.error.code).toBe('AUTH_ERR_NO_ACCESS');
  expect(readPointers(reference.store)).toEqual(before);
});

test('a server created with its own keys accepts them, with their scopes, and refuses the demo keys', async ({ request, contract }) => {
  const custom = createServer({ seed: SELF_TEST_SEED, calls: 20, keys: { fullAccess: 'k1', readOnly: 'k2' } });
  try {
    const base = await custom.listen(0);
    const list = (apikey: string) => sendRaw(request, `${base}/calls`, { headers: { apikey } });
    const mark = (apikey: string) => sendRaw(request, `${base}${markUnread.path}`, withKey(markUnread, { apikey }));

    for (const [apikey, listStatus, markStatus] of [
      ['k1', 200, 200],
      ['k2', 200, 403],
    ] as const) {
      const listed = await list(apikey);
      expectContractValid(contract, 'listCalls', listed);
      expect(listed.status, apikey).toBe(listStatus);
      const marked = await mark(apikey);
      expectContractValid(contract, 'markGroupConversationAsUnread', marked);
      expect(marked.status, apikey).toBe(markStatus);
    }
    for (const demoKey of [DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly]) {
      const answer = await list(demoKey);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status, demoKey).toBe(401);
      expect(answer.body.error.code, demoKey).toBe('AUTH_ERR_APIKEY_NOT_FOUND');
    }
  } finally {
    await custom.close();
  }
});
