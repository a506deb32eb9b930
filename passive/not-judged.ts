// What a passive report says of each requirement of the catalog the traffic did not judge, derived
// from the rule table (passive/exchange-rules.ts): a requirement a rule judges, or a field
// requirement of calls, was not shown by any exchange, and the reason names what traffic would show
// it; any other requirement is one traffic never shows (the catalog minus what the table judges),
// with a reason of its own where its kind's does not say enough.
import { loadCatalog, type Catalog } from '../openapi/catalog.ts';
import { CALLS_SHOWN_BY, RULED_REQUIREMENTS, WHAT_SHOWS } from './exchange-rules.ts';
import type { RequirementTally } from './requirement-tallies.ts';

/** The field requirements of a call and its participants: every call seen is judged against them by the schema check. */
export const FIELD_REQUIREMENTS = (catalog: Catalog): string[] =>
  catalog.requirements
    .filter((requirement) => requirement.kind === 'field' && /^(CALL|PARTICIPANT)-FIELD-/.test(requirement.id))
    .map((requirement) => requirement.id);

/**
 * Why traffic cannot show a requirement no rule judges, where the kind's own reason (notShownReason)
 * would not say enough. Its ids are never ruled ones (a self-test holds it: a rule added for one of
 * them makes its entry here a lie).
 */
export const NEVER_FROM_TRAFFIC: Readonly<Record<string, string>> = {
  'CALLS-LIST-FILTER-STARTED-AT':
    'which reading of the date filter the target follows (exact or a bound, on startedAt or initiatedAt) is learned by probes a recording does not hold; under every reading at once, any call matches',
  'CALLS-LIST-FILTER-ENDED-AT':
    'which reading of the date filter the target follows is learned by probes a recording does not hold; under every reading at once, any call matches',
  'CALLS-LIST-DATE-FILTER-SEMANTICS': "the date filters' meaning is learned by probes around known calls; a recording does not hold them",
  'CALLS-LIST-FILTER-COMPLETENESS':
    'completeness needs every call of the target and the totals of every value of a filter, which only a walk the suite chooses shows',
  'PAGINATION-PAGE-PARAMETERS': 'needs requests for chosen pages and page sizes',
  'PAGINATION-SORT-ORDER': 'needs whole walks compared; not shown by the specification',
  'PAGINATION-PAGE-SIZE-BOUNDS': 'needs requests for chosen page sizes',
  'CALLS-LIST-FILTER-VALUES-ACCEPTED':
    'a refusal in traffic may answer a value the client got wrong; only values the suite sends are known to be allowed',
  'CALLS-GET-NOT-FOUND':
    'needs a session id known not to exist; traffic shows ids that exist (a Get Call answering ERR_CALL_SESSION_NOT_FOUND for one of those is judged under CALLS-GET-OK)',
  'CALLS-GET-ON-BEHALF-OF': 'needs a call and a uid known to have taken part in it, sent together',
  'CALLS-GET-ON-BEHALF-OF-OUTSIDER': 'needs a uid known to have taken no part in a call',
  'CHAT-UNREAD-REQUIRES-FULL-ACCESS': 'which keys lack fullAccess scope is not known from traffic',
  'CHAT-UNREAD-ACTING-USER': 'not shown by the specification; needs chosen requests',
  'CHAT-UNREAD-ERRORS': 'needs requests known to be wrong',
  'AUTH-HEADER-NAME-CASE-INSENSITIVE': 'needs the same request sent with differently cased header names',
  'AUTH-APIKEY-JSON-NAME': 'needs chosen requests',
  'RATE-LIMITS': 'needs bursts of requests the suite controls',
};

/** Why each requirement of the catalog that `requirements` does not hold was not judged. */
export function notJudgedOf(requirements: ReadonlyMap<string, RequirementTally>, catalog: Catalog = loadCatalog()): Map<string, string> {
  const notJudged = new Map<string, string>();
  const fields = new Set(FIELD_REQUIREMENTS(catalog));
  for (const requirement of catalog.requirements) {
    if (requirements.has(requirement.id)) continue;
    const reason =
      RULED_REQUIREMENTS.has(requirement.id) || fields.has(requirement.id)
        ? unshownReason(WHAT_SHOWS.get(requirement.id) ?? { shows: CALLS_SHOWN_BY })
        : (NEVER_FROM_TRAFFIC[requirement.id] ?? notShownReason(requirement.kind));
    notJudged.set(requirement.id, reason);
  }
  return notJudged;
}

/** A requirement the table judges that no exchange showed. */
const unshownReason = ({ shows, onlyBecause }: { shows: string; onlyBecause?: string }): string =>
  `the recorded traffic held no exchange that could show it (${shows})${onlyBecause === undefined ? '' : `: ${onlyBecause}`}`;

function notShownReason(kind: string): string {
  if (kind === 'not-shown') return 'a "not shown" item: the suite observes it with requests of its own choosing';
  return 'passive mode has no check for it: it needs requests the suite chooses, or knowledge of the target that traffic does not carry';
}
