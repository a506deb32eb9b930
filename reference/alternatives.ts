// Readings the specification's words allow that the reference does not follow by default: each is a
// way an implementation written elsewhere, from the words alone, may read them. The reference serves
// any of them on demand (several at once), so that the kill matrix proves the suite passes each, the
// suite having to learn it rather than assume ours (docs/readings.md names which variant proves which
// row). How a command line or a variable spells them, apart from the server so that the suite's
// configuration can import it.

export const REFERENCE_ALTERNATIVES = [
  'participants-count-people',
  'on-behalf-of-groups',
  'page-size-limit',
  'dates-exact',
  'oldest-first',
  'errors-flat',
  'unread-refused-in-result',
] as const;
export type ReferenceAlternative = (typeof REFERENCE_ALTERNATIVES)[number];

const isReferenceAlternative = (value: string): value is ReferenceAlternative =>
  (REFERENCE_ALTERNATIVES as readonly string[]).includes(value);

/** The alternatives `raw` names, comma-separated, or the first word that names none. */
export function parseAlternatives(raw: string): { alternatives: ReferenceAlternative[] } | { unknown: string } {
  const words = raw
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const unknown = words.find((word) => !isReferenceAlternative(word));
  return unknown !== undefined ? { unknown } : { alternatives: [...new Set(words as ReferenceAlternative[])] };
}
