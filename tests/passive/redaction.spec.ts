// A recorded exchange made safe (passive/redaction.ts) keeps what its request showed: each request
// header's name as recorded (the letter case of the key's header is evidence, as an active run's
// exchange keeps the names the suite sent) and an empty key empty. An empty key is no secret: a
// variable in its place would say, and a curl line would send, a key where the evidence of
// AUTH_ERR_EMPTY_APIKEY is that there was none. Both were once lost: names lower-cased, and every
// key, an empty one too, written as $API_KEY.
import { test, expect } from '@playwright/test';
import { createPassiveJudge } from '../../passive/judge.ts';
import { redactRecorded } from '../../passive/redaction.ts';
import type { RecordedExchange } from '../../passive/recorded-exchange.ts';
import { reproduceLines } from '../../core/transport/exchange.ts';

const CALLS = 'https://31780434a95d45.call-us.cometchat.io/v3';
const KEY = 'a-team-key-7f3e9c2d';

const recorded = (headers: Array<[string, string]>, status = 200, body: unknown = { data: [] }): RecordedExchange => ({
  source: 'hand-made, exchange 1',
  startedAt: '2026-11-26T00:00:00.000Z',
  request: { method: 'GET', url: `${CALLS}/calls`, headers },
  response: { status, headers: [['Content-Type', 'application/json']], bodyText: JSON.stringify(body) },
  durationMs: 10,
});

test("request headers keep their recorded names; a key becomes its variable, an empty one stays empty and is not named redacted; response headers are named as Node names an active run's", () => {
  const { exchange, redactedNames, secrets } = redactRecorded(
    recorded([
      ['ApiKey', KEY],
      ['OnBehalfOf', 'user-1'],
      ['X-Api-Key', ''],
      ['Authorization', '   '],
    ]),
    'listCalls',
  );
  expect(exchange.request.headers).toEqual({ ApiKey: '$API_KEY', OnBehalfOf: 'user-1', 'X-Api-Key': '', Authorization: '   ' });
  expect(exchange.request.variableHeaders).toEqual(['ApiKey']);
  expect(redactedNames).toEqual(['apikey']);
  expect(secrets).toEqual([KEY]);
  expect(exchange.response.headers).toEqual({ 'content-type': 'application/json' });
  expect(reproduceLines(exchange)[1]).toContain('-H "ApiKey: $API_KEY"');
});

test("AUTH-EMPTY-KEY a request with an empty apikey header answered 200: the violation shows the empty key, and its curl line sends none of the reader's", () => {
  const judge = createPassiveJudge();
  judge.add(recorded([['APIKEY', '']]));
  const [example] = judge.finish().requirements.get('AUTH-EMPTY-KEY')?.examples ?? [];
  expect(example?.exchange?.request.headers).toEqual({ APIKEY: '' });
  expect(reproduceLines(example!.exchange!).join('\n')).not.toContain('$API_KEY');
});

test('CALLS-LIST-ON-BEHALF-OF an onBehalfOf header in any letter case scopes the list it was sent with', () => {
  const judge = createPassiveJudge();
  const call = { sessionId: 's1', receiverType: 'user', receiver: 'user-2', initiator: 'user-3', participants: [] };
  const page = { data: [call], meta: { pagination: { total: 1, count: 1, per_page: 25, current_page: 1, total_pages: 1 } } };
  judge.add(
    recorded(
      [
        ['apikey', KEY],
        ['ONBEHALFOF', 'user-1'],
      ],
      200,
      page,
    ),
  );
  const tally = judge.finish().requirements.get('CALLS-LIST-ON-BEHALF-OF');
  expect(tally).toMatchObject({ judged: 1, violations: 1 });
});
