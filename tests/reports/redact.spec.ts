// The reports' redactor (reports/redact.ts), which every text a report, the console, the judging
// proxy's HAR or a passive report writes passes last, finds a configured key in every form the
// transport finds an echoed one in (core/transport/echoed-secrets.ts): a key a target or a recording
// quotes URL-encoded, JSON-escaped, base64, cut short or in another letter case is no safer in a
// report than the key itself. It once replaced the literal key only.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import ConsoleReporter from '../../reports/console-reporter.ts';
import { redactorFor } from '../../reports/redact.ts';

const key = `sentinel+/"${randomBytes(16).toString('hex')}`;
const restricted = `sentinel-restricted-${randomBytes(16).toString('hex')}`;
const redact = redactorFor({ API_KEY: key, RESTRICTED_API_KEY: restricted });

test('a configured key in any form a text may hold it becomes its variable', () => {
  const forms = {
    url: `?key=${encodeURIComponent(key)}&x`,
    json: JSON.stringify({ message: `key ${key}` }),
    base64: `Basic ${Buffer.from(key).toString('base64')}`,
    base64url: Buffer.from(restricted).toString('base64url'),
    cut: `key starting ${key.slice(0, 20)}…`,
    upper: `KEY ${restricted.toUpperCase()}`,
  };
  expect(Object.fromEntries(Object.entries(forms).map(([name, text]) => [name, redact(text)]))).toEqual({
    url: '?key=$API_KEY&x',
    json: '{"message":"key $API_KEY"}',
    base64: 'Basic $API_KEY',
    base64url: '$RESTRICTED_API_KEY',
    cut: 'key starting $API_KEY…',
    upper: 'KEY $RESTRICTED_API_KEY',
  });
});

test('what it did before it still does: the key itself, an apikey value it was not told, colours; a text without a key is left as it is', () => {
  expect(redact(`\u001b[32m${key}\u001b[39m and ${restricted}`)).toBe('$API_KEY and $RESTRICTED_API_KEY');
  expect(redact('{"apikey":"some-other-key"}')).toBe('{"apikey":"[redacted]"}');
  for (const text of ['{"data":[]}', `near ${key.slice(0, 11)} only`, '-H "apikey: $API_KEY"', '']) expect(redact(text)).toBe(text);
  // Keys shorter than four characters are not looked for: "abc" would be found everywhere.
  expect(redactorFor({ API_KEY: 'abc' })('abc abc')).toBe('abc abc');
});

test('a serialized document stays a document: an apikey value inside a JSON string is redacted without cutting an escape in half', () => {
  const texts = {
    // A diff's curl line for a key with characters added (a token, never the key): nothing to redact.
    curl: `curl -sS -X GET -H 'apikey: '"\${API_KEY}"'|append:-diff-extended' 'http://127.0.0.1:1/v3/calls'`,
    header: 'apikey: "some-other-key" was sent',
    body: '{"apikey":"some-other-key","x":1}',
    backslash: 'apikey: some\\other',
  };
  const redacted = JSON.parse(redact(JSON.stringify(texts))) as typeof texts;
  expect(redacted).toEqual({
    curl: texts.curl,
    header: 'apikey: "[redacted]" was sent',
    body: '{"apikey":"[redacted]","x":1}',
    backslash: 'apikey: [redacted]\\other',
  });
  // The same texts alone, as the console shows them, lose the whole value.
  expect(redact(texts.header)).toBe('apikey: "[redacted]" was sent');
  expect(redact('apikey: some\\other')).toBe('apikey: [redacted]');
});

test("the console's line for a runner error passes it too, when no verdict follows to say it", () => {
  const saved = process.env.API_KEY;
  const written: string[] = [];
  const write = process.stdout.write;
  process.env.API_KEY = key;
  try {
    const reporter = new ConsoleReporter();
    process.stdout.write = (text: string) => written.push(text) > 0;
    reporter.onError({ message: `global setup failed: key ${encodeURIComponent(key)} refused\n    at setup` });
  } finally {
    process.stdout.write = write;
    if (saved === undefined) delete process.env.API_KEY;
    else process.env.API_KEY = saved;
  }
  expect(written).toEqual(['Error: global setup failed: key $API_KEY refused\n']);
});
