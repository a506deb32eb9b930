// The reference answers whatever it is sent with a JSON error and never a server error: unknown
// routes and methods, huge or badly encoded ids, oversized request heads, and many requests at once.
import { test, expect, expectContractValid, sendRaw, type Answer } from '../reference-fixtures.ts';
import type { OperationId } from '../../openapi/contract.ts';
import { sessionIdsOf } from './list-oracle.ts';
import { originForm } from '../../reference/server.ts';
import { sendRequestTarget } from '../send-request-target.ts';

/** Unknown routes have no operation; each is checked against the nearest one, whose default answer is the Error schema. */
const unknownRoutes: Array<[method: string, path: string, nearest: OperationId]> = [
  ['GET', '/v3/nope', 'listCalls'],
  ['GET', '/v2/calls', 'listCalls'],
  ['GET', '/', 'listCalls'],
  ['GET', '/v3/calls/x/extra', 'getCall'],
  ['GET', '/v3/groups/group-0001/conversation', 'markGroupConversationAsUnread'],
  ['POST', '/v3/calls', 'listCalls'],
  ['PUT', '/v3/calls', 'listCalls'],
  ['DELETE', '/v3/calls/x', 'getCall'],
  ['PATCH', '/v3/calls/x', 'getCall'],
  ['GET', '/v3/groups/group-0001/conversation/read', 'markGroupConversationAsUnread'],
  ['PUT', '/v3/groups/group-0001/conversation/read', 'markGroupConversationAsUnread'],
];

for (const [method, path, nearest] of unknownRoutes) {
  test(`${method} ${path} answers 404 ERR_API_NOT_FOUND with a JSON body`, async ({ request, baseUrl, contract, reference }) => {
    const origin = new URL(baseUrl).origin;
    const answer = await sendRaw(request, `${origin}${path}`, { method, headers: { apikey: reference.keys.fullAccess } });
    expectContractValid(contract, nearest, answer);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ERR_API_NOT_FOUND');
  });
}

test('a session id of 20,000 characters answers 404 ERR_CALL_SESSION_NOT_FOUND', async ({ sendAuthorized, contract }) => {
  const answer = await sendAuthorized(`/calls/${'a'.repeat(20_000)}`);
  expectContractValid(contract, 'getCall', answer);
  expect(answer.status).toBe(404);
  expect(answer.body.error.code).toBe('ERR_CALL_SESSION_NOT_FOUND');
});

test('a session id that is not valid percent-encoding answers 404 ERR_CALL_SESSION_NOT_FOUND', async ({ sendAuthorized, contract }) => {
  for (const id of ['%E0%A4%A', '%', '%zz', '%C0%80', 'abc%', '%FF']) {
    const answer = await sendAuthorized(`/calls/${id}`);
    expectContractValid(contract, 'getCall', answer);
    expect(answer.status, id).toBe(404);
    expect(answer.body.error.code, id).toBe('ERR_CALL_SESSION_NOT_FOUND');
  }
});

test('a request line or a header over 64 KiB answers 431 with a JSON ERR_BAD_REQUEST, and the server keeps answering', async ({
  sendAuthorized,
  contract,
}) => {
  // Refused by the HTTP parser before any route is chosen; the operation each would have reached
  // still declares the Error schema as its default answer.
  const oversized: Array<[OperationId, Answer]> = [
    ['getCall', await sendAuthorized(`/calls/${'a'.repeat(70_000)}`)],
    ['listCalls', await sendAuthorized('/calls', { headers: { 'x-padding': 'a'.repeat(70_000) } })],
  ];
  for (const [operationId, answer] of oversized) {
    expectContractValid(contract, operationId, answer);
    expect(answer.status).toBe(431);
    expect(answer.body.error.code).toBe('ERR_BAD_REQUEST');
  }

  const after = await sendAuthorized('/calls?perPage=1');
  expectContractValid(contract, 'listCalls', after);
  expect(after.status).toBe(200);
});

test('a request line in the absolute form is answered as the origin form is (RFC 9112: a server must accept it), its path and query read as written', async ({
  baseUrl,
  reference,
}) => {
  const port = Number(new URL(baseUrl).port);
  const keyed = { headers: { apikey: reference.keys.fullAccess } };
  const absolute = await sendRequestTarget(port, `${baseUrl}/calls?type=audio&perPage=3`, keyed);
  const origin = await sendRequestTarget(port, '/v3/calls?type=audio&perPage=3', keyed);
  expect(absolute.status).toBe(200);
  expect(JSON.parse(absolute.body)).toEqual(JSON.parse(origin.body));
  // An unknown id in the absolute form is the origin form's not-found, encoded characters and all.
  const unknown = await sendRequestTarget(port, `${baseUrl}/calls/no%2Fsuch`, keyed);
  expect(unknown.status).toBe(404);
  expect((JSON.parse(unknown.body) as { error: { code: string } }).error.code).toBe('ERR_CALL_SESSION_NOT_FOUND');
  expect(originForm('http://host:1/v3/calls?x=1')).toBe('/v3/calls?x=1');
  expect(originForm('https://host?x=1')).toBe('/?x=1');
  expect(originForm('/v3/calls/http://x')).toBe('/v3/calls/http://x');
});

test('200 requests in parallel each get their own correct answer', async ({ sendAuthorized, contract, reference }) => {
  const rows = reference.store.data.rows;
  const exchanges = Array.from({ length: 200 }, async (_, i) => {
    const row = rows[(i * 7) % rows.length]!;
    if (i % 3 === 0) {
      const answer = await sendAuthorized(`/calls?perPage=3&page=${(i % 50) + 1}`);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status).toBe(200);
      expect(sessionIdsOf(answer.body.data)).toEqual(sessionIdsOf(rows.slice((i % 50) * 3, (i % 50) * 3 + 3)));
    } else if (i % 3 === 1) {
      const answer = await sendAuthorized(`/calls/${encodeURIComponent(row.sessionId)}`);
      expectContractValid(contract, 'getCall', answer);
      expect(answer.status).toBe(200);
      expect(answer.body.data.sessionId).toBe(row.sessionId);
    } else {
      const answer = await sendAuthorized(`/calls/${encodeURIComponent(`${row.sessionId}-${i}`)}`);
      expectContractValid(contract, 'getCall', answer);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('ERR_CALL_SESSION_NOT_FOUND');
    }
  });
  await Promise.all(exchanges);
});
