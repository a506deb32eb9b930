// Get Call answers, wrapped in data, the very call List Calls shows for its session id, with its
// recordings; any other id, or a call outside the onBehalfOf user's scope, is ERR_CALL_SESSION_NOT_FOUND.
import fc from 'fast-check';
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { sessionIdsOf } from './list-oracle.ts';

const callPath = (sessionId: string) => `/calls/${encodeURIComponent(sessionId)}`;

/** Ids a URL can carry: no lone surrogate (encodeURIComponent refuses it) and no dot segment (the client resolves it away). */
function sendable(id: string): boolean {
  try {
    encodeURIComponent(id);
  } catch {
    return false;
  }
  return id !== '.' && id !== '..';
}

test('every call of the list is, field for field, what Get Call answers in data for its session id', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const list = await sendAuthorized('/calls?perPage=1000');
  expectContractValid(contract, 'listCalls', list);
  const rows = reference.store.data.rows;
  expect(sessionIdsOf(list.body.data)).toEqual(sessionIdsOf(rows));

  for (const [position, listed] of (list.body.data as Array<Record<string, unknown>>).entries()) {
    expect(listed).toEqual(reference.store.materialize(rows[position]!).call);
    const answer = await sendAuthorized(callPath(listed.sessionId as string));
    expectContractValid(contract, 'getCall', answer);
    expect(answer.status).toBe(200);
    const shown = Object.fromEntries(Object.keys(listed).map((field) => [field, answer.body.data[field]]));
    expect(shown, `call ${String(listed.sessionId)}`).toEqual(listed);
  }
});

test('for any unknown session id, Get Call answers 404 ERR_CALL_SESSION_NOT_FOUND and never a server error', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const known = sessionIdsOf(reference.store.data.rows);
  const reserved = fc.constantFrom(...':/?#[]@!$&\'()*+,;=% .~\\"<>{}|^`');
  const nearlyKnown = fc
    .constantFrom(...known)
    .chain((id) => fc.constantFrom(id.toUpperCase(), id.slice(0, -1), `${id}0`, ` ${id}`, `${id}/`, id.slice(0, 6)));
  // A pattern repeated to a length: shrinks in a few steps, where a 10,000-character string would take thousands of requests.
  const longId = fc
    .tuple(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 16 }), fc.integer({ min: 1_000, max: 10_000 }))
    .map(([pattern, length]) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length));
  const ids = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }),
    fc.string({ unit: reserved, minLength: 1, maxLength: 40 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    longId,
    nearlyKnown,
  );

  await fc.assert(
    fc.asyncProperty(ids, async (id) => {
      fc.pre(sendable(id) && !known.includes(id));
      const answer = await sendAuthorized(callPath(id));
      expectContractValid(contract, 'getCall', answer);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('ERR_CALL_SESSION_NOT_FOUND');
    }),
    { numRuns: 100 },
  );
});

test('on behalf of one of its participants Get Call answers the call, on behalf of anyone else ERR_CALL_SESSION_NOT_FOUND', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const { rows, users } = reference.store.data;
  const cases = fc.record({ position: fc.integer({ min: 0, max: rows.length - 1 }), pick: fc.nat() });

  await fc.assert(
    fc.asyncProperty(cases, async ({ position, pick }) => {
      const { call } = reference.store.materialize(rows[position]!);
      const participants = [...new Set(call.participants.map((participant) => participant.uid))];
      const outsiders = users.map((user) => user.uid).filter((uid) => !participants.includes(uid));
      const participant = participants[pick % participants.length]!;
      const outsider = outsiders[pick % outsiders.length]!;

      const mine = await sendAuthorized(callPath(call.sessionId), { headers: { onBehalfOf: participant } });
      expectContractValid(contract, 'getCall', mine);
      expect(mine.status).toBe(200);
      expect(mine.body.data.sessionId).toBe(call.sessionId);

      const theirs = await sendAuthorized(callPath(call.sessionId), { headers: { onBehalfOf: outsider } });
      expectContractValid(contract, 'getCall', theirs);
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.code).toBe('ERR_CALL_SESSION_NOT_FOUND');
    }),
    { numRuns: 50 },
  );
});

test('Get Call shows a valid, non-empty recordings array exactly for the calls with hasRecording true', async ({
  sendAuthorized,
  contract,
  reference,
}) => {
  const rows = reference.store.data.rows;
  const recorded = rows.filter((row) => row.hasRecording);
  expect(recorded.length, 'the data set has recorded calls').toBeGreaterThan(0);

  for (const row of [...recorded, ...rows.filter((other) => !other.hasRecording).slice(0, 20)]) {
    const answer = await sendAuthorized(callPath(row.sessionId));
    expectContractValid(contract, 'getCall', answer);
    expect(answer.status).toBe(200);
    const { hasRecording, recordings = [] } = answer.body.data;
    expect(recordings.length > 0, `recordings of ${row.sessionId}`).toBe(hasRecording);
    for (const recording of recordings) expect(contract.validateSchema('Recording', recording)).toEqual([]);
    expect(recordings).toEqual(reference.store.materialize(row).recordings);
  }
});
