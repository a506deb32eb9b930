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

/** What each alternative serves instead of the reference's own reading. */
export const ALTERNATIVE_DESCRIPTIONS: Readonly<Record<ReferenceAlternative, string>> = {
  'participants-count-people':
    'the participantsCount filter counts people, the distinct users among the entries totalParticipants counts, not the entries ("a participant is identified by a user identifier", 1.2)',
  'on-behalf-of-groups':
    'onBehalfOf scopes List Calls and Get Call to the user\'s calls and to every call addressed to a group the user is a member of ("calls are scoped to that user", 4.1)',
  'page-size-limit': 'List Calls takes its page size as limit, not perPage (the specification names no page parameter)',
  'dates-exact':
    'the startedAt and endedAt filters match a call\'s time exactly, not as bounds ("whether startedAt and endedAt match exactly or act as bounds: not shown", 4.1)',
  'oldest-first': 'List Calls answers the oldest call first, by initiatedAt ("sort order: not shown", 4.1)',
  'errors-flat': 'every error is the flat body {"code", "message"}, not wrapped in error ("body shape of an error response: not shown", 7)',
  'unread-refused-in-result':
    'mark-unread refuses a key without fullAccess with status 200 and a result whose data.success is false (2.5; "errors … of the mark-unread operation: not shown", 7)',
};

export const isReferenceAlternative = (value: string): value is ReferenceAlternative =>
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
