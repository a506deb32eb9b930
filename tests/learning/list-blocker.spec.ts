// Which requirement a first page that is no page of calls blames, what the one line says it saw,
// and that the blamed requirement fails on that answer whatever the other checks found.
import { test, expect } from '@playwright/test';
import { usableListPage, listBlocker } from '../../core/learning/list-blocker.ts';
import { checkExchange } from '../../core/checks/index.ts';
import { parseJsonText } from '../../core/transport/json-text.ts';
import { callList, checkContext, exchange, listedCall, listOf, textExchange } from '../checks/exchanges.ts';

/** As Prism's dynamic mode of the vendor's OpenAPI answers: every item and meta under an empty-named property. */
const prismWrapped = () => {
  const page = callList([listedCall()]) as { data: unknown[]; meta: unknown };
  return exchange('listCalls', 200, { data: page.data.map((call) => ({ '': call })), meta: { '': page.meta } });
};

test('a page of calls blocks nothing', () => {
  expect(listBlocker(listOf())).toBeUndefined();
});

test('a refusal blames CALLS-LIST-OK, a body that is not JSON HTTP-JSON-BODIES, JSON that is no envelope PAGINATION-ENVELOPE', () => {
  expect(listBlocker(exchange('listCalls', 503, { error: { code: 'ERR_UNAVAILABLE' } }))).toMatchObject({
    requirement: 'CALLS-LIST-OK',
    saw: 'GET /calls answered status 503, so no page of calls was listed',
  });
  expect(listBlocker(textExchange('listCalls', 200, 'ok', 'text/plain'))).toMatchObject({
    requirement: 'HTTP-JSON-BODIES',
    saw: 'GET /calls answered status 200 text/plain that is not JSON: "ok"',
  });
  expect(listBlocker(prismWrapped())).toMatchObject({
    requirement: 'PAGINATION-ENVELOPE',
    saw: 'GET /calls answered status 200 with JSON that is not a pagination envelope: meta holds no pagination object (its fields: [""])',
  });
  expect(
    listBlocker(exchange('listCalls', 200, { data: [], meta: { pagination: { total: '3', count: 0, current_page: 1, total_pages: 1.5 } } }))
      ?.saw,
  ).toContain(`meta.pagination's total is "3", total_pages is 1.5, not an integer`);
  expect(listBlocker(exchange('listCalls', 200, [listedCall()]))?.saw).toMatch(/the body is \[\{.*…, not an object$/);
});

test('what it saw stays one short line, whatever the body', () => {
  const saw = listBlocker(textExchange('listCalls', 200, `<html>${'x\n'.repeat(10_000)}</html>`))!.saw;
  expect(saw.length).toBeLessThan(200);
  expect(saw).not.toContain('\n');
});

test('the blamed requirement fails on that answer: its own violation is added unless the checks found it already', () => {
  const context = checkContext();
  for (const page of [
    prismWrapped(),
    textExchange('listCalls', 200, 'ok', 'text/plain'),
    exchange('listCalls', 200, { data: {}, meta: {} }),
  ]) {
    const blocker = listBlocker(page)!;
    const found = checkExchange(page, context);
    const all = [...found, ...usableListPage(blocker, found)];
    expect(all.filter((violation) => violation.requirement === blocker.requirement).length, blocker.saw).toBeGreaterThan(0);
  }
  const refused = exchange('listCalls', 503, {});
  expect(usableListPage(listBlocker(refused), [])).toEqual([
    expect.objectContaining({ requirement: 'CALLS-LIST-OK', received: 'GET /calls answered status 503, so no page of calls was listed' }),
  ]);
  expect(usableListPage(undefined, [])).toEqual([]);
});

test('JSON nested too deep to judge is JSON: it blames PAGINATION-ENVELOPE, never HTTP-JSON-BODIES, and HTTP-JSON-BODIES holds on it', () => {
  const text = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)},"meta":{}}`;
  const deep = {
    ...textExchange('listCalls', 200, text, 'application/json'),
    response: { ...textExchange('listCalls', 200, text, 'application/json').response, ...parseJsonText(text), body: undefined },
  };
  expect(deep.response.tooDeep).toBe(true);
  const blocker = listBlocker(deep)!;
  expect(blocker.requirement).toBe('PAGINATION-ENVELOPE');
  expect(blocker.saw).toMatch(
    /^GET \/calls answered status 200 with JSON nested deeper than any pagination envelope, too deep to judge: "\{\\"data\\":\[\[\[/,
  );
  const found = checkExchange(deep, checkContext());
  expect([...found, ...usableListPage(blocker, found)].map((violation) => violation.requirement)).not.toContain('HTTP-JSON-BODIES');
});
