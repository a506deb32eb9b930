// List Calls refuses malformed query values with 400 ERR_BAD_REQUEST and names every bad parameter
// in error.details at once; parameters it does not know are ignored; an unknown onBehalfOf user is 404.
import fc from 'fast-check';
import { test, expect, expectContractValid } from '../reference-fixtures.ts';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, FILTER_NAMES, INT32_MAX, INT32_MIN, RECEIVER_TYPES } from './spec-values.ts';
import { sessionIdsOf } from './list-oracle.ts';

const PARAMETERS = [...FILTER_NAMES, 'page', 'perPage'] as const;
type Parameter = (typeof PARAMETERS)[number];

/** The values one parameter is given in a query, in order: more than one means it is repeated. */
type Values = readonly string[];

const goodValues: Record<Parameter, fc.Arbitrary<string>> = {
  type: fc.constantFrom(...CALL_TYPES),
  mode: fc.constantFrom(...CALL_MODES),
  status: fc.constantFrom(...CALL_STATUSES),
  receiverType: fc.constantFrom(...RECEIVER_TYPES),
  participantsCount: fc.nat(60).map(String),
  startedAt: fc.integer({ min: INT32_MIN, max: INT32_MAX }).map(String),
  endedAt: fc.integer({ min: INT32_MIN, max: INT32_MAX }).map(String),
  hasRecording: fc.constantFrom('true', 'false'),
  uid: fc.string({ minLength: 1 }),
  page: fc.integer({ min: 1, max: 1000 }).map(String),
  perPage: fc.integer({ min: 1, max: 1000 }).map(String),
};

/** Any string, moved off the allowed values when it lands on one. */
const outside = (allowed: readonly string[]) => fc.string({ minLength: 1 }).map((value) => (allowed.includes(value) ? `${value}!` : value));

const notAnInteger = fc.oneof(
  fc.tuple(fc.integer(), fc.integer({ min: 1, max: 9 })).map(([whole, tenths]) => `${whole}.${tenths}`),
  fc.nat(9).map((digit) => `${digit}e3`),
  fc.constantFrom('0x10', 'Infinity', 'NaN', 'two', '1,5', '+-1'),
  fc.string({ minLength: 1 }).map((value) => (/^\s*[+-]?\d+\s*$/.test(value) ? `${value}x` : value)),
);

/** Empty, repeated with good values, or one malformed value. */
const badValuesOf = (name: Parameter, malformed: fc.Arbitrary<string>): fc.Arbitrary<Values> =>
  fc.oneof(
    fc.constant(['']),
    fc.tuple(goodValues[name], goodValues[name]),
    malformed.map((value) => [value]),
  );

const beyondInt32 = fc.oneof(
  fc.integer({ min: INT32_MAX + 1, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: INT32_MIN - 1 }),
);
const notPositive = fc.integer({ min: -1_000_000, max: 0 });
const badEnum = (name: Parameter, allowed: readonly string[]) =>
  badValuesOf(
    name,
    fc.oneof(
      outside(allowed),
      fc.constantFrom(...allowed).map((value) => value.toUpperCase()),
    ),
  );
const badInteger = (name: Parameter, outOfRange: fc.Arbitrary<number>) => badValuesOf(name, fc.oneof(notAnInteger, outOfRange.map(String)));

const badValues: Record<Parameter, fc.Arbitrary<Values>> = {
  type: badEnum('type', CALL_TYPES),
  mode: badEnum('mode', CALL_MODES),
  status: badEnum('status', CALL_STATUSES),
  receiverType: badEnum('receiverType', RECEIVER_TYPES),
  participantsCount: badInteger('participantsCount', fc.oneof(fc.integer({ min: -1_000_000, max: -1 }), beyondInt32)),
  startedAt: badInteger('startedAt', beyondInt32),
  endedAt: badInteger('endedAt', beyondInt32),
  hasRecording: badValuesOf('hasRecording', fc.oneof(fc.constantFrom('yes', 'no', '1', '0', 'TRUE', 'False'), outside(['true', 'false']))),
  uid: badValuesOf('uid', fc.constant('')),
  page: badInteger('page', notPositive),
  perPage: badInteger('perPage', fc.oneof(notPositive, fc.integer({ min: 1001, max: 1_000_000 }))),
};

test('for any set of malformed parameters among good ones, List Calls answers 400 ERR_BAD_REQUEST naming exactly the malformed ones', async ({
  sendAuthorized,
  contract,
}) => {
  const queries = fc.record({
    bad: fc.subarray([...PARAMETERS], { minLength: 1 }),
    good: fc.subarray([...PARAMETERS]),
    badValues: fc.record(badValues),
    goodValues: fc.record(goodValues),
  });

  await fc.assert(
    fc.asyncProperty(queries, async ({ bad, good, badValues: malformed, goodValues: wellFormed }) => {
      const search = new URLSearchParams();
      for (const name of PARAMETERS) {
        if (bad.includes(name)) for (const value of malformed[name]) search.append(name, value);
        else if (good.includes(name)) search.append(name, wellFormed[name]);
      }
      const answer = await sendAuthorized(`/calls?${search}`);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('ERR_BAD_REQUEST');
      expect(Object.keys(answer.body.error.details).sort()).toEqual([...bad].sort());
    }),
    { numRuns: 100 },
  );
});

const examples: Array<[query: string, named: Parameter[]]> = [
  ['type=fax', ['type']],
  ['mode=Meet', ['mode']],
  ['status=done', ['status']],
  ['receiverType=channel', ['receiverType']],
  ['participantsCount=two', ['participantsCount']],
  ['participantsCount=2.5', ['participantsCount']],
  ['startedAt=1735689600.5', ['startedAt']],
  ['startedAt=yesterday', ['startedAt']],
  ['endedAt=1e9', ['endedAt']],
  ['endedAt=99999999999', ['endedAt']],
  ['page=0', ['page']],
  ['page=1.5', ['page']],
  ['perPage=1001', ['perPage']],
  ['perPage=ten', ['perPage']],
  ['hasRecording=yes', ['hasRecording']],
  ['status=ended&status=ended', ['status']],
  ['uid=', ['uid']],
  ['type=&mode=call', ['type']],
  ['type=fax&page=0&perPage=0&hasRecording=1&uid=a&uid=b&status=ended', ['hasRecording', 'page', 'perPage', 'type', 'uid']],
];

for (const [query, named] of examples) {
  test(`List Calls with ?${query} answers 400 ERR_BAD_REQUEST naming ${named.join(', ')}`, async ({ sendAuthorized, contract }) => {
    const answer = await sendAuthorized(`/calls?${query}`);
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('ERR_BAD_REQUEST');
    expect(Object.keys(answer.body.error.details).sort()).toEqual(named);
  });
}

test('for any parameters List Calls does not know, it ignores them and answers as without them', async ({ sendAuthorized, contract }) => {
  const baseline = await sendAuthorized('/calls');
  expectContractValid(contract, 'listCalls', baseline);
  const known: readonly string[] = PARAMETERS;
  const unknownParameter = fc.tuple(
    fc.string({ minLength: 1 }).map((name) => (known.includes(name) ? `${name}_` : name)),
    fc.string(),
  );

  await fc.assert(
    fc.asyncProperty(fc.array(unknownParameter, { minLength: 1, maxLength: 4 }), async (parameters) => {
      const answer = await sendAuthorized(`/calls?${new URLSearchParams(parameters)}`);
      expectContractValid(contract, 'listCalls', answer);
      expect(answer.status).toBe(200);
      expect(answer.body.meta).toEqual(baseline.body.meta);
      expect(sessionIdsOf(answer.body.data)).toEqual(sessionIdsOf(baseline.body.data));
    }),
    { numRuns: 50 },
  );
});

test('List Calls on behalf of a user who does not exist answers 404 ERR_UID_NOT_FOUND', async ({ sendAuthorized, contract }) => {
  for (const onBehalfOf of ['user-99999', 'nobody', 'USER-00001']) {
    const answer = await sendAuthorized('/calls', { headers: { onBehalfOf } });
    expectContractValid(contract, 'listCalls', answer);
    expect(answer.status, onBehalfOf).toBe(404);
    expect(answer.body.error.code, onBehalfOf).toBe('ERR_UID_NOT_FOUND');
  }
});

test('List Calls with an empty onBehalfOf header answers 400 ERR_BAD_REQUEST naming onBehalfOf', async ({ sendAuthorized, contract }) => {
  const answer = await sendAuthorized('/calls', { headers: { onBehalfOf: '' } });
  expectContractValid(contract, 'listCalls', answer);
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe('ERR_BAD_REQUEST');
  expect(Object.keys(answer.body.error.details)).toEqual(['onBehalfOf']);
});
