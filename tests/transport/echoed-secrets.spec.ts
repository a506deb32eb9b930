// A key the target echoes is gone from an answer before anything reads it (core/transport/echoed-secrets.ts):
// whole, URL-encoded, JSON-escaped, base64, cut short, in another letter case; and an answer that
// holds no key is left exactly as it is.
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { echoRedactor } from '../../core/transport/echoed-secrets.ts';

const key = `sentinel+/"${randomBytes(16).toString('hex')}`;
const restricted = `sentinel-restricted-${randomBytes(16).toString('hex')}`;
const redact = echoRedactor(
  new Map([
    ['$API_KEY', key],
    ['$RESTRICTED_API_KEY', restricted],
  ]),
);

test('every form of an echoed key becomes its placeholder', () => {
  const echoes = {
    whole: `bad key ${key} refused`,
    url: `?apikey=${encodeURIComponent(key)}&x`,
    json: JSON.stringify({ message: `key ${key}` }),
    base64: `Basic ${Buffer.from(key).toString('base64')}`,
    base64url: Buffer.from(key).toString('base64url'),
    cut: `key starting ${key.slice(0, 20)}…`,
    tail: `…${restricted.slice(-14)}`,
    upper: `KEY ${key.toUpperCase()}`,
    both: `${restricted}/${key}`,
  };
  const clean = Object.fromEntries(Object.entries(echoes).map(([name, text]) => [name, redact(text)]));
  expect(clean).toEqual({
    whole: 'bad key $API_KEY refused',
    url: '?apikey=$API_KEY&x',
    json: '{"message":"key $API_KEY"}',
    base64: 'Basic $API_KEY',
    base64url: '$API_KEY',
    cut: 'key starting $API_KEY…',
    tail: '…$RESTRICTED_API_KEY',
    upper: 'KEY $API_KEY',
    both: '$RESTRICTED_API_KEY/$API_KEY',
  });
});

test('an answer without a key, or with fewer of its characters than a key is recognised by, is left as it is', () => {
  for (const text of ['{"data":[]}', `near ${key.slice(0, 11)} only`, 'sentinel-', '']) expect(redact(text)).toBe(text);
});
