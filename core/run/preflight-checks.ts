// What the preflight asks a remote target before any test, beyond that it answers at all: whether
// it knows the values the run is configured with. A value the target does not know makes every test
// that uses it fail on a refusal, so that a rotated secret or a deleted fixture would read as a
// NON-CONFORMANT target: the suite cannot judge a target with a value it does not know, and stops as
// for any other configuration error.
// The reads are each the same List Calls request: the first with API_KEY, and when that one succeeded,
// the same request with RESTRICTED_API_KEY, and with onBehalfOf set to ACTING_UID when writes are
// allowed. GROUP_GUID and MESSAGE_ID have no read in the interface: when writes are allowed, the one
// write the tests send anyway (mark-unread of the fixture) is sent once here, and the codes by which
// the deployment says a group, a message or a member does not exist name the variable to check.
// One table, read by the preflight (what it sends), the budget (how many) and the dry run (what it says).
import type { SuiteConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { errorCodesIn } from '../checks/errors.ts';
import { parseJsonText } from '../transport/json-text.ts';

/** The one read of every check: the first page of calls, one call to a page where perPage names the page size. */
const PREFLIGHT_PATH = '/calls?perPage=1';

type Variable = 'API_KEY' | 'RESTRICTED_API_KEY' | 'ACTING_UID' | 'GROUP_GUID' | 'MESSAGE_ID';

/** An error code by which the target says it does not know a configured value. */
interface UnknownValue {
  code: string;
  /** The variable whose value the target does not know. */
  variable: Variable;
  /** What the code is, and what the value should be, in the line's words. */
  codeIs: string;
  shouldBe: string;
}

export interface PreflightAsk {
  method: 'GET' | 'DELETE';
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /** The variables whose values the target must know for this ask to succeed. */
  variables: readonly Variable[];
  /** How the line names what was sent, never the value of a key. */
  sent: string;
  unknown: readonly UnknownValue[];
}

type ChecksConfig = Pick<SuiteConfig, 'target' | 'apiKey' | 'restrictedApiKey' | 'allowWrites' | 'unread' | 'callsBaseUrl' | 'chatBaseUrl'>;

const keyUnknown = (variable: Variable): UnknownValue => ({
  code: 'AUTH_ERR_APIKEY_NOT_FOUND',
  variable,
  codeIs: "the specification's code for a key that is not valid",
  shouldBe: 'a key the target knows',
});

// The specification names no code for these; they are the deployment's (the conventions' documented
// codes near this interface), and the reference's.
const USER_UNKNOWN: UnknownValue = {
  code: 'ERR_UID_NOT_FOUND',
  variable: 'ACTING_UID',
  codeIs: 'the code for a user that does not exist',
  shouldBe: 'a user the target knows',
};
const FIXTURE_UNKNOWN: readonly UnknownValue[] = [
  {
    code: 'ERR_GUID_NOT_FOUND',
    variable: 'GROUP_GUID',
    codeIs: 'the code for a group that does not exist',
    shouldBe: 'a group the target knows',
  },
  {
    code: 'ERR_MESSAGE_ID_NOT_FOUND',
    variable: 'MESSAGE_ID',
    codeIs: 'the code for a message that does not exist in the conversation',
    shouldBe: "a message of GROUP_GUID's conversation",
  },
  USER_UNKNOWN,
  { code: 'ERR_NOT_A_MEMBER', variable: 'ACTING_UID', codeIs: 'the code for a user outside the group', shouldBe: 'a member of GROUP_GUID' },
  {
    code: 'ERR_GROUP_NOT_JOINED',
    variable: 'ACTING_UID',
    codeIs: 'the code for a user who has not joined the group',
    shouldBe: 'a member of GROUP_GUID',
  },
];

/** What the preflight sends, in order; nothing to the embedded reference, which shares the suite's keys and fixtures. */
export function preflightAsks(config: ChecksConfig): PreflightAsk[] {
  if (config.target.kind === 'embedded') return [];
  const url = `${config.callsBaseUrl}${PREFLIGHT_PATH}`;
  const read = (variables: Variable[], headers: Record<string, string>, sent: string, unknown: UnknownValue): PreflightAsk => ({
    method: 'GET',
    url,
    headers,
    variables,
    sent,
    unknown: [unknown],
  });
  const asks = [read(['API_KEY'], { apikey: config.apiKey }, 'with API_KEY', keyUnknown('API_KEY'))];
  if (config.restrictedApiKey !== undefined)
    asks.push(
      read(['RESTRICTED_API_KEY'], { apikey: config.restrictedApiKey }, 'with RESTRICTED_API_KEY', keyUnknown('RESTRICTED_API_KEY')),
    );
  if (!config.allowWrites || config.unread === undefined) return asks;
  const { actingUid, groupGuid, messageId } = config.unread;
  asks.push(
    read(['ACTING_UID'], { apikey: config.apiKey, onBehalfOf: actingUid }, 'with API_KEY and onBehalfOf set to ACTING_UID', USER_UNKNOWN),
  );
  asks.push({
    method: 'DELETE',
    // The very address the write guard lets through (transport/write-guard.ts).
    url: `${config.chatBaseUrl}/groups/${encodeURIComponent(groupGuid)}/conversation/read`,
    headers: { apikey: config.apiKey, onBehalfOf: actingUid, 'content-type': 'application/json' },
    body: JSON.stringify({ messageId }),
    variables: ['GROUP_GUID', 'MESSAGE_ID', 'ACTING_UID'],
    sent: 'with API_KEY, onBehalfOf set to ACTING_UID and messageId MESSAGE_ID (the write the tests send)',
    unknown: FIXTURE_UNKNOWN,
  });
  return asks;
}

/**
 * The configuration error when the target's answer to `ask` says it does not know a value: an
 * error status carrying one of the ask's codes. Any other answer, a bare 401, 403 or 404 included,
 * says nothing certain about the value, and the tests judge it.
 */
export function refusalOf(ask: PreflightAsk, status: number, bodyText: string | undefined): ConfigError | undefined {
  if (status >= 200 && status < 300) return undefined;
  const codes = errorCodesIn(parseJsonText(bodyText).parsed);
  const unknown = ask.unknown.find((candidate) => codes.includes(candidate.code));
  if (unknown === undefined) return undefined;
  return new ConfigError(
    unknown.variable,
    `is not ${unknown.shouldBe}: ${ask.method} ${ask.url} ${ask.sent} answered status ${status} with ${unknown.code}, ${unknown.codeIs}. Check ${unknown.variable}; nothing was judged.`,
  );
}
