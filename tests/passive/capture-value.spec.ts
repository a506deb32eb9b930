// A capture's value parsed from its bytes with its long body strings left out of the parsed text
// (passive/capture-value.ts) is the value JSON.parse makes of the bytes' text, once each LongString is
// made a string: the same value, the same refusals, whatever the strings hold (escapes, control
// characters, bytes that are not UTF-8, a mark of another reader); and a body's base64 decoded in
// pieces is the bytes decoding it whole gives.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { LongString, parseCaptureValue, withStrings } from '../../passive/capture-value.ts';

const long = (text: string, bytes = 70_000) => text.repeat(Math.ceil(bytes / text.length)).slice(0, bytes);
const base64 = randomBytes(100_000).toString('base64');

/** How many strings of a value were left out of the parsed text. */
const leftOutIn = (value: unknown): number => {
  if (value instanceof LongString) return 1;
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((sum: number, item) => sum + leftOutIn(item), 0);
};

/** Parsed both ways: JSON.parse of the text, or its SyntaxError's name; and the value read from the bytes, its long strings made strings. */
function bothWays(bytes: Buffer): { expected: unknown; actual: unknown; leftOut: number } {
  let expected: unknown;
  try {
    expected = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    expected = (error as Error).name;
  }
  let actual: unknown;
  let leftOut = 0;
  try {
    const value = parseCaptureValue(bytes);
    leftOut = leftOutIn(value);
    actual = withStrings(value);
  } catch (error) {
    actual = (error as Error).name;
  }
  return { expected, actual, leftOut };
}

const CASES: Record<string, { bytes: Buffer; leftOut: number }> = {
  'a JSON line of base64 bodies': {
    bytes: Buffer.from(JSON.stringify({ request: { body: 'x' }, response: { body: base64, bodyEncoding: 'base64' } })),
    leftOut: 1,
  },
  'an Envoy trace, pretty-printed': {
    bytes: Buffer.from(JSON.stringify({ http_buffered_trace: { response: { body: { as_bytes: base64 } } } }, null, 2)),
    leftOut: 1,
  },
  'text with escapes: parsed as it stands': { bytes: Buffer.from(JSON.stringify({ body: long('{"a":"b\\n"}') })), leftOut: 0 },
  'a long string under another key': { bytes: Buffer.from(JSON.stringify({ url: long('a') })), leftOut: 0 },
  'a long string in an array': { bytes: Buffer.from(JSON.stringify({ body: [long('a')] })), leftOut: 0 },
  'UTF-8 and bytes that are not': {
    bytes: Buffer.concat([
      Buffer.from('{"text": "'),
      Buffer.from(long('é')),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('", "n": "\u00ff\uFFFD"}'),
    ]),
    leftOut: 1,
  },
  'a control character in a long string': { bytes: Buffer.from(`{"body": "${long('a')}\t"}`), leftOut: 0 },
  'an unterminated long string': { bytes: Buffer.from(`{"body": "${long('a')}`), leftOut: 0 },
  // Refused, as JSON.parse refuses them: nothing is read.
  'a long string then bad JSON': { bytes: Buffer.from(`{"body": "${long('a')}", }`), leftOut: 0 },
  'a byte order mark first': { bytes: Buffer.from(`\uFEFF{"body": "${long('a')}"}`), leftOut: 0 },
  'an escaped quote before a long string': { bytes: Buffer.from(`{"a\\"": "\\\\", "as_string": "${long('a')}"}`), leftOut: 1 },
  'a key __proto__': { bytes: Buffer.from(`{"__proto__": {"body": "${long('a')}"}, "text": "${long('b')}"}`), leftOut: 2 },
  'a short string that looks like a mark': { bytes: Buffer.from(`{"text": "\\u00000#0", "body": "${long('a')}"}`), leftOut: 1 },
};

for (const [name, { bytes, leftOut }] of Object.entries(CASES))
  test(`the value of ${name}, or its refusal, is JSON.parse's`, () => {
    const both = bothWays(bytes);
    expect(both.actual).toEqual(both.expected);
    expect(both.leftOut).toBe(leftOut);
  });

test("a body's base64 decoded in pieces is the bytes decoded whole, in any alphabet, padded or not", () => {
  const cases = [
    base64,
    base64.slice(0, -2),
    base64.slice(0, 65_537),
    base64.replaceAll('+', '-').replaceAll('/', '_'),
    `${base64.slice(0, 70_000)}==AAAA`,
    ` ${base64}`,
  ];
  for (const text of cases) {
    const value = parseCaptureValue(Buffer.from(JSON.stringify({ as_bytes: text }))) as { as_bytes: LongString };
    expect(value.as_bytes).toBeInstanceOf(LongString);
    expect(value.as_bytes.base64().equals(Buffer.from(text, 'base64'))).toBe(true);
  }
});
