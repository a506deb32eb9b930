// The identifier arbitraries: unknown session ids and wrong keys are never ones the target knows,
// and the header name comes in every letter case.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { resolveSecretToken } from '../../core/transport/secret-tokens.ts';
import { apiKeyLike, headerNameCasing, unknownSessionId } from '../../core/arbitraries/identifiers.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { listedCall } from '../checks/exchanges.ts';

const SEED = 42;
const KNOWN_ID = String(listedCall().sessionId);

test('for any known ids, unknownSessionId never yields an empty id, a dot segment or a known id', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme-ascii', maxLength: 4 })), fc.integer(), (ids, seed) => {
      const known = new Set([...ids, '.', KNOWN_ID]);
      for (const id of fc.sample(unknownSessionId(known), { numRuns: 40, seed })) {
        expect(['', '.', '..']).not.toContain(id);
        expect(known.has(id)).toBe(false);
      }
    }),
    { seed: SEED, numRuns: 25 },
  );
});

test('unknownSessionId turns a generated dot segment or known id into another id', () => {
  const known = new Set(['a', 'b', 'c', KNOWN_ID]);
  // Enough runs that a bare '.' comes up (about one in 2,500) and is seen to be replaced.
  const ids = fc.sample(unknownSessionId(known), { numRuns: 20_000, seed: SEED });
  expect(ids.filter((id) => ['', '.', '..'].includes(id) || known.has(id))).toEqual([]);
  expect(ids).toContain('.-unknown');
  expect(ids).toContain('a-unknown');
});

test('unknownSessionId reaches reserved URL characters, non-ASCII, very long and well-formed ids', () => {
  const ids = fc.sample(unknownSessionId(new Set([KNOWN_ID])), { numRuns: 1000, seed: SEED });
  expect(ids.some((id) => /[/?#%]/.test(id))).toBe(true);
  // eslint-disable-next-line no-control-regex -- the range starts at NUL on purpose: anything outside ASCII
  expect(ids.some((id) => /[^\x00-\x7f]/.test(id))).toBe(true);
  expect(ids.some((id) => id.length >= 256)).toBe(true);
  expect(ids.some((id) => /^v1\.(us|eu|in)\./.test(id))).toBe(true);
});

/** Keys under placeholders, as the suite configures them, and what a yielded key resolves to when sent. */
const keysOf = (...keys: string[]) => new Map(keys.map((key, index) => [`$KEY_${index}`, key]));
const sentAs = (keys: ReadonlyMap<string, string>) => (key: { value: string }) => resolveSecretToken(key.value, keys);

test('apiKeyLike never yields a configured key, nor an empty one or one with whitespace', () => {
  const keys = keysOf(DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly);
  fc.assert(
    fc.property(apiKeyLike(keys), (key) => {
      const sent = sentAs(keys)(key);
      expect([DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly]).not.toContain(sent);
      expect(sent).toMatch(/^\S+$/);
    }),
    { seed: SEED, numRuns: 1000 },
  );
});

test('for any configured keys, apiKeyLike never yields one of them, and includes one-character edits of them', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      fc.integer(),
      (keys, seed) => {
        const configured = keysOf(...keys);
        const samples = fc.sample(apiKeyLike(configured), { numRuns: 50, seed }).map(sentAs(configured));
        expect(samples.filter((key) => keys.includes(key))).toEqual([]);
      },
    ),
    { seed: SEED, numRuns: 100 },
  );
  const demo = keysOf(DEMO_KEYS.fullAccess);
  const edits = fc
    .sample(apiKeyLike(demo), { numRuns: 300, seed: SEED })
    .map(sentAs(demo))
    .filter(
      (key) =>
        key.length === DEMO_KEYS.fullAccess.length &&
        [...key].filter((letter, index) => letter !== DEMO_KEYS.fullAccess[index]).length === 1,
    );
  expect(edits.length).toBeGreaterThan(0);
});

test('headerNameCasing yields apikey in letter-case variants only, the lower and upper case among them', () => {
  fc.assert(
    fc.property(headerNameCasing(), (name) => expect(name.toLowerCase()).toBe('apikey')),
    { seed: SEED, numRuns: 200 },
  );
  const names = new Set(fc.sample(headerNameCasing(), { numRuns: 500, seed: SEED }));
  expect(names.size).toBeGreaterThan(10);
  expect(names.has('apikey')).toBe(true);
  expect(names.has('APIKEY')).toBe(true);
});

test('headerNameCasing works for any header name', () => {
  expect(new Set(fc.sample(headerNameCasing('ab'), { numRuns: 200, seed: SEED }))).toEqual(new Set(['ab', 'Ab', 'aB', 'AB']));
});

test('an id or key made unknown by a suffix is checked again: the suffixed form may be known too', () => {
  const ids = fc.sample(unknownSessionId(new Set(['a', 'a-unknown', '.-unknown'])), { numRuns: 20_000, seed: SEED });
  expect(ids.filter((id) => ['a', 'a-unknown', '.', '..', '.-unknown'].includes(id))).toEqual([]);
  const configured = keysOf('ab', 'ab-unknown');
  const keys = fc.sample(apiKeyLike(configured), { numRuns: 5_000, seed: SEED }).map(sentAs(configured));
  expect(keys.filter((key) => key === 'ab' || key === 'ab-unknown')).toEqual([]);
});

test('apiKeyLike works with no configured key at all', () => {
  expect(fc.sample(apiKeyLike(new Map()), { numRuns: 50, seed: SEED }).every((key) => key.value.length > 0)).toBe(true);
});

test('a near miss of a configured key prints as a description, never as the key with one character changed', () => {
  const keys = fc.sample(apiKeyLike(keysOf(DEMO_KEYS.fullAccess)), { numRuns: 300, seed: SEED });
  const printed = keys.map((key) => fc.stringify(key));
  expect(printed).toContainEqual(expect.stringMatching(/^\$KEY_0 with character \d+ changed$/));
  expect(printed.filter((text) => text.includes(DEMO_KEYS.fullAccess.slice(0, 10)))).toEqual([]);
});

test('two keys print alike only when they are the same key: a property tells its examples apart by how they print', () => {
  const keys = fc.sample(apiKeyLike(keysOf(DEMO_KEYS.fullAccess, DEMO_KEYS.readOnly)), { numRuns: 500, seed: SEED });
  const sentFor = new Map<string, Set<string>>();
  for (const key of keys) {
    const printed = fc.stringify(key);
    sentFor.set(printed, (sentFor.get(printed) ?? new Set<string>()).add(key.value));
  }
  expect([...sentFor].filter(([, sent]) => sent.size > 1).map(([printed]) => printed)).toEqual([]);
  expect(sentFor.size).toBeGreaterThan(300);
});

test('a near miss is sent as a token of its placeholder, never as the edited key, so Playwright never holds it', () => {
  const keys = keysOf(DEMO_KEYS.fullAccess);
  const values = fc.sample(apiKeyLike(keys), { numRuns: 300, seed: SEED }).map((key) => key.value);
  const tokens = values.filter((value) => value.startsWith('$KEY_0|'));
  expect(tokens.length).toBeGreaterThan(50);
  expect(values.filter((value) => value.includes(DEMO_KEYS.fullAccess.slice(0, 6)))).toEqual([]);
  expect(
    tokens.map((token) => resolveSecretToken(token, keys)).filter((sent) => sent.includes(DEMO_KEYS.fullAccess.slice(0, 6))).length,
  ).toBeGreaterThan(20);
});
