// What the diff asks of mark-unread, the interface's one write, where ALLOW_WRITES=true: on each side's
// own fixture (GROUP_GUID, MESSAGE_ID, ACTING_UID and their CANDIDATE_ and SECONDARY_ namesakes), the
// cases the suite's chat-unread tests send: the fullAccess key, the restricted key (due a refusal),
// no key, a key no deployment issued, the key with characters added, the key under the header's name
// in another letter case, an unknown message and malformed bodies (never a server error), no acting
// user, and the mark repeated. An unknown group is not asked: against a remote target the write guard
// (transport/write-guard.ts) lets a write go to the configured group only, and a diff's sides are remote.
//
// The plan holds at least DIFF_MIN_COMPARISONS requests (the mark repeated as often as it takes), so
// that the rule that an operation with fewer comparisons cannot be judged stays as it is for the
// reads and still lets a write plan be judged.
import fc from 'fast-check';
import { headerNameCasing } from '../arbitraries/identifiers.ts';
import type { SuiteConfig } from '../run/config.ts';
import type { PlannedMark, PlannedRequest } from './read-plan.ts';

const OPERATION = 'markGroupConversationAsUnread';

/** A message id no group holds (the suite's CHAT-UNREAD-ERRORS test asks the same). */
export const UNKNOWN_MESSAGE_ID = 9_007_199_254_740_000;

function mark(kind: string, label: string, extra: Partial<PlannedRequest> = {}, planned: Partial<PlannedMark> = {}): PlannedRequest {
  return {
    operation: OPERATION,
    kind,
    label: `Mark-unread ${label}`,
    key: 'full',
    mark: { body: 'fixture', actingUser: true, ...planned },
    ...extra,
  };
}

/** The cases, each once: the fullAccess key and the cases the words judge, before the repeats. */
function cases(seed: number, restricted: boolean): PlannedRequest[] {
  // The header's name in another letter case than the usual one: the key is due to be accepted.
  const [header] = fc.sample(
    headerNameCasing().filter((name) => name !== 'apikey'),
    { seed: seed + 900, numRuns: 1 },
  );
  return [
    mark('mark', 'with the fullAccess key'),
    mark('auth', 'without a key', { key: 'none' }),
    mark('auth', 'with a key no deployment issued', { key: 'unknown' }),
    mark('auth', 'with the key and characters added', { key: 'extended' }),
    mark('header-case', `with the key under ${header!}`, { apiKeyHeader: header! }),
    ...(restricted ? [mark('full-access', 'with the restricted key', { key: 'restricted' })] : []),
    mark('bad-input', 'of an unknown message', { malformed: true }, { body: 'unknown-message' }),
    mark('bad-input', 'with a body that is not JSON', { malformed: true }, { body: { raw: 'not json{' } }),
    mark('bad-input', 'with a messageId that is a string', { malformed: true }, { body: { raw: { messageId: 'five' } } }),
    mark('acting-user', 'without onBehalfOf', {}, { actingUser: false }),
  ];
}

/**
 * The write plan under `seed`: every case once, then the mark with the fullAccess key repeated (at
 * least once: marking twice is due the same answer) until the plan holds `minComparisons` requests.
 */
export function writePlan(seed: number, restricted: boolean, minComparisons: number): PlannedRequest[] {
  const once = cases(seed, restricted);
  const repeats = Math.max(1, minComparisons - once.length);
  return [...once, ...Array.from({ length: repeats }, () => mark('mark-repeated', 'with the fullAccess key, repeated'))];
}

/** The most requests the write plan holds (the dry run's count). */
export function writePlanBound(minComparisons: number): number {
  return Math.max(cases(0, true).length + 1, minComparisons);
}

/** The request a planned mark makes of a side, on its own fixture. */
export function markRequestOf(
  planned: PlannedMark,
  unread: NonNullable<SuiteConfig['unread']>,
): { guid: string; body: unknown; onBehalfOf?: string } {
  const body =
    planned.body === 'fixture'
      ? { messageId: unread.messageId }
      : planned.body === 'unknown-message'
        ? { messageId: UNKNOWN_MESSAGE_ID }
        : planned.body.raw;
  return { guid: unread.groupGuid, body, ...(planned.actingUser && { onBehalfOf: unread.actingUid }) };
}

/** Whether every side may be sent the write plan: ALLOW_WRITES=true, and each side's fixture named. */
export function writesAllowed(configs: ReadonlyArray<Pick<SuiteConfig, 'allowWrites' | 'unread'>>): boolean {
  return configs.every((config) => config.allowWrites && config.unread !== undefined);
}
