// Arbitraries of identifiers the target must not know: session ids of every shape a client could
// send (printable ASCII, any Unicode, reserved URL characters, very long), and API keys.
import fc from 'fast-check';
import { applyEdits, derivedToken, isSecretToken, type KeyEdit } from '../transport/secret-tokens.ts';

const RESERVED = [...":/?#[]@!$&'()*+,;=% "];

/**
 * Session ids that exist on no target: none of `known`, never empty, never `.` or `..` (URL
 * dot-segment normalisation would turn those into another path before they reach the target).
 */
export function unknownSessionId(known: ReadonlySet<string>): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 32 }),
      fc
        .array(fc.oneof(fc.constantFrom(...RESERVED), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 })), {
          minLength: 1,
          maxLength: 16,
        })
        .map((parts) => parts.join('')),
      fc.string({ unit: 'grapheme-ascii', minLength: 256, maxLength: 1024 }),
      fc.stringMatching(/^v1\.(us|eu|in)\.[0-9a-f]{14}\.[0-9]{10}[0-9a-f]{40}$/),
    )
    .map((id) => avoiding(id, (candidate) => candidate === '.' || candidate === '..' || known.has(candidate)));
}

/** The id, suffixed until it is none of the ids to avoid. */
function avoiding(id: string, avoid: (candidate: string) => boolean): string {
  let candidate = id;
  while (avoid(candidate)) candidate = `${candidate}-unknown`;
  return candidate;
}

const KEY_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=!#$%&*^|'];

/**
 * A key the target must refuse. A near miss of a configured key is almost the secret itself: it is
 * sent as a token the gateway resolves (transport/secret-tokens.ts) and prints as a description that
 * names it exactly without showing it (the key's placeholder and the edit), since a property tells its
 * examples apart by how they print (core/property/property.ts).
 */
export interface InvalidKey {
  /** What the client sends: the key itself for a random key, a token for a near miss. */
  value: string;
  [fc.toStringMethod](): string;
}

const plainKey = (value: string): InvalidKey => ({ value, [fc.toStringMethod]: () => JSON.stringify(value) });

/**
 * Key-like strings (visible ASCII, no whitespace) and near misses of the configured keys (given as
 * placeholder → key); never one of them.
 */
export function apiKeyLike(keys: ReadonlyMap<string, string>): fc.Arbitrary<InvalidKey> {
  const configured = new Set(keys.values());
  const avoid = (candidate: string) => configured.has(candidate) || isSecretToken(candidate, keys);
  const nearMiss = (placeholder: string, edits: KeyEdit[], how: string): InvalidKey => {
    const key = keys.get(placeholder)!;
    // Edited until it is none of the keys: the arbitrary only yields keys the target must refuse.
    while (configured.has(applyEdits(key, edits))) edits = [...edits, { kind: 'append', text: '-unknown' }];
    return { value: derivedToken(placeholder, edits), [fc.toStringMethod]: () => `${placeholder} ${how}` };
  };
  const entries = [...keys].filter(([, key]) => key !== '');
  // Near misses of a real key, the ones a sloppy comparison lets through: one character changed
  // (a comparison of a prefix or of a hash collision), characters added at the end (a prefix
  // match), the key cut short, and the key in another letter case (a case-insensitive match).
  const nearMisses =
    entries.length === 0
      ? []
      : [
          fc.constantFrom(...entries).chain(([placeholder, key]) =>
            fc.oneof(
              fc
                .nat({ max: key.length - 1 })
                .map((at) =>
                  nearMiss(placeholder, [{ kind: 'set', at, character: key[at] === 'x' ? 'y' : 'x' }], `with character ${at} changed`),
                ),
              fc
                .string({ unit: fc.constantFrom(...KEY_CHARACTERS), minLength: 1, maxLength: 8 })
                .map((extra) => nearMiss(placeholder, [{ kind: 'append', text: extra }], `with ${JSON.stringify(extra)} added at the end`)),
              fc
                .integer({ min: 1, max: Math.max(1, key.length - 1) })
                .map((length) => nearMiss(placeholder, [{ kind: 'cut', length }], `cut to its first ${length} character(s)`)),
              fc.constant(nearMiss(placeholder, [{ kind: key === key.toUpperCase() ? 'lower' : 'upper' }], 'in another letter case')),
            ),
          ),
        ];
  const random = fc.oneof(
    fc.string({ unit: fc.constantFrom(...KEY_CHARACTERS), minLength: 1, maxLength: 128 }),
    fc.stringMatching(/^[0-9a-f]{40}$/),
  );
  return fc.oneof(
    random.map((key) => plainKey(avoiding(key, avoid))),
    ...nearMisses,
  );
}

/** The header name apikey in any letter case. */
export function headerNameCasing(name = 'apikey'): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter)).join(''));
}
