// What the preflight asks a remote target before any test, beyond that it answers at all: whether
// it knows the values the run is configured with. A key the target does not know makes every test
// fail on a refusal, so that a rotated secret would read as a NON-CONFORMANT target: the suite cannot
// judge a target with a value it does not know, and stops as for any other configuration error.
// Only reads are sent, each the same List Calls request: the first with API_KEY, and when that one
// succeeded, the same request with RESTRICTED_API_KEY, and with onBehalfOf set to ACTING_UID when
// writes are allowed. GROUP_GUID and MESSAGE_ID have no read in the interface, so they are not asked.
// One table, read by the preflight (what it sends), the budget (how many) and the dry run (what it says).
import type { SuiteConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { errorCodesIn } from '../checks/errors.ts';
import { parseJsonText } from '../transport/json-text.ts';

/** The one request of every check: the first page of calls, one call to a page where perPage names the page size. */
export const PREFLIGHT_PATH = '/calls?perPage=1';

export interface PreflightRead {
  /** The variable whose value the target must know. */
  variable: 'API_KEY' | 'RESTRICTED_API_KEY' | 'ACTING_UID';
  headers: Readonly<Record<string, string>>;
  /** How the line names what was sent, never the value of a key. */
  sent: string;
  /** The error code by which the target says it does not know the value, and what the code is. */
  unknownCode: string;
  codeIs: string;
  /** What the value should be, in the line's words: "a key", "a user". */
  noun: string;
}

type ChecksConfig = Pick<SuiteConfig, 'target' | 'apiKey' | 'restrictedApiKey' | 'allowWrites' | 'unread'>;

const KEY_UNKNOWN = {
  unknownCode: 'AUTH_ERR_APIKEY_NOT_FOUND',
  codeIs: "the specification's code for a key that is not valid",
  noun: 'a key',
};

/** The reads the preflight sends, in order; none to the embedded reference, which shares the suite's keys. */
export function preflightReads(config: ChecksConfig): PreflightRead[] {
  if (config.target.kind === 'embedded') return [];
  const reads: PreflightRead[] = [{ variable: 'API_KEY', headers: { apikey: config.apiKey }, sent: 'with API_KEY', ...KEY_UNKNOWN }];
  if (config.restrictedApiKey !== undefined)
    reads.push({
      variable: 'RESTRICTED_API_KEY',
      headers: { apikey: config.restrictedApiKey },
      sent: 'with RESTRICTED_API_KEY',
      ...KEY_UNKNOWN,
    });
  if (config.allowWrites && config.unread !== undefined)
    reads.push({
      variable: 'ACTING_UID',
      headers: { apikey: config.apiKey, onBehalfOf: config.unread.actingUid },
      sent: 'with API_KEY and onBehalfOf set to ACTING_UID',
      // The specification names no code for an unknown user; this is the deployment's, and the reference's.
      unknownCode: 'ERR_UID_NOT_FOUND',
      codeIs: 'the code for a user that does not exist',
      noun: 'a user',
    });
  return reads;
}

/**
 * The configuration error when the target's answer to `read` says it does not know the value: an
 * error status carrying the read's code. Any other answer, a bare 401 or 403 included, says nothing
 * certain about the value, and the tests judge it.
 */
export function refusalOf(read: PreflightRead, url: string, status: number, bodyText: string | undefined): ConfigError | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (!errorCodesIn(parseJsonText(bodyText).parsed).includes(read.unknownCode)) return undefined;
  return new ConfigError(
    read.variable,
    `is not ${read.noun} the target knows: GET ${url} ${read.sent} answered status ${status} with ${read.unknownCode}, ${read.codeIs}. Check ${read.variable}; nothing was judged.`,
  );
}
