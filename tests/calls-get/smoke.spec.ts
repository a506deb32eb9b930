import { test, expect, requirement } from '../../fixtures/index.ts';
import { describeExchange } from '../../fixtures/exchange.ts';

test('CALLS-GET-OK GET /calls/{sessionId} answers the call taken from the list', requirement('CALLS-GET-OK'), async ({ api, contract }) => {
  const list = await api.listCalls();
  const calls = (list.response.body as { data?: Array<{ sessionId?: string }> } | undefined)?.data ?? [];
  test.skip(calls.length === 0 || typeof calls[0]?.sessionId !== 'string', 'The target lists no call to fetch.');
  const sessionId = calls[0]!.sessionId!;

  const exchange = await api.getCall(sessionId);

  expect(exchange.response.status, describeExchange(exchange)).toBeGreaterThanOrEqual(200);
  expect(exchange.response.status, describeExchange(exchange)).toBeLessThan(300);
  expect(contract.validateResponse('getCall', exchange.response.status, exchange.response.body), describeExchange(exchange)).toEqual([]);
  const body = exchange.response.body as { sessionId?: string; data?: { sessionId?: string } };
  expect(body.data?.sessionId ?? body.sessionId, describeExchange(exchange)).toBe(sessionId);
});
