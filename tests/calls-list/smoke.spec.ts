import { test, expect, requirement } from '../../fixtures/index.ts';
import { describeExchange } from '../../fixtures/exchange.ts';

test('CALLS-LIST-OK GET /calls answers 200 with a pagination envelope of calls that matches the contract', requirement('CALLS-LIST-OK'), async ({ api, contract }) => {
  const exchange = await api.listCalls();

  expect(exchange.response.status, describeExchange(exchange)).toBe(200);
  expect(contract.validateResponse('listCalls', exchange.response.status, exchange.response.body), describeExchange(exchange)).toEqual([]);
});
