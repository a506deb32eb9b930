// A recorded exchange made safe and readable: its secrets replaced by names (the apikey header
// becomes $API_KEY, as in the suite's own curl lines), and its bodies parsed as the checks read
// them. Traffic the suite did not send carries any credential a client uses (keys, bearer tokens,
// cookies), so every header whose name says so is redacted, and every secret value found in the
// request is also cut out of the URL and the response wherever it is echoed.
import type { OperationId } from '../openapi/contract.ts';
import type { Exchange } from '../core/transport/exchange.ts';
import type { RecordedExchange } from './recorded-exchange.ts';
import { echoRedactor } from '../core/transport/echoed-secrets.ts';
import { parseJsonText } from '../core/transport/json-text.ts';

/** Header names that carry credentials, in lower case, and the variable each becomes. */
const SECRET_HEADERS: Readonly<Record<string, string>> = {
  apikey: '$API_KEY',
  'api-key': '$API_KEY',
  'x-api-key': '$API_KEY',
  authorization: '$AUTHORIZATION',
  'proxy-authorization': '$PROXY_AUTHORIZATION',
  cookie: '$COOKIE',
  'set-cookie': '$SET_COOKIE',
  'x-auth-token': '$AUTH_TOKEN',
  'x-access-token': '$ACCESS_TOKEN',
  'x-csrf-token': '$CSRF_TOKEN',
  'x-xsrf-token': '$XSRF_TOKEN',
  authtoken: '$AUTH_TOKEN',
};
/** Any other header whose name says it holds a secret. */
const SECRET_NAME = /(^|[-_])(api[-_]?key|key|token|secret|password|passwd|auth|session|credential|signature)s?($|[-_])/i;
/** Query parameters that carry a key or token. */
const SECRET_PARAMETER = /^(api[-_]?key|key|token|access[-_]?token|auth|authtoken|secret|password|signature|sig|session)$/i;

export const isSecretHeader = (name: string): boolean => SECRET_HEADERS[name.toLowerCase()] !== undefined || SECRET_NAME.test(name);

/** The judging proxy's own placeholders: one number per distinct value, so each still names one key. */
const NUMBERED_PLACEHOLDER = /^\$REDACTED_\d+$/;
/** What recording tools write in place of a secret: a word saying so, a mask, or a <placeholder>. */
const PLACEHOLDER = /redact|hidden|removed|masked|saniti[sz]ed|omitted|filtered|^[*x•#.]{3,}$|^<[^>]*>$|^\[[^\]]*\]$/i;

/**
 * Whether a recorded key is a tool's placeholder rather than the key: a HAR exported with every key
 * replaced by one word holds one "key" for both a refused and an accepted request, which says nothing
 * about how the target treats a key it does not know.
 */
export const isPlaceholderKey = (value: string): boolean => !NUMBERED_PLACEHOLDER.test(value) && PLACEHOLDER.test(value);
const variableFor = (name: string) => SECRET_HEADERS[name.toLowerCase()] ?? `$${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
/**
 * Whether a curl line may let the shell expand the variable a header became. Only the suite's own
 * names expand ($API_KEY, $AUTHORIZATION, …): a name made from the traffic's header name would let
 * a recording choose which of the reader's variables a pasted line sends (a header
 * `aws-secret-access-key` becoming $AWS_SECRET_ACCESS_KEY), so such a name stays text.
 */
const expands = (name: string) => SECRET_HEADERS[name.toLowerCase()] !== undefined;

export interface Redacted {
  exchange: Exchange;
  /** The names of the headers and query parameters that were redacted (lower case). */
  redactedNames: string[];
  /** The secret values the request carried: the caller may scrub them from anything else it writes. */
  secrets: string[];
}

/** Values shorter than this are not scrubbed from free text: "1" would wreck every body. */
const MIN_SECRET_LENGTH = 6;

/**
 * The redactors of the sets of secrets last scrubbed with. Traffic carries the same few keys again
 * and again, and a report scrubs every string with one set: building the redactor (each key's forms,
 * one pattern of their pieces) for every text cost more than the searching it does.
 */
const redactors = new Map<string, (text: string) => string>();
const REDACTORS_KEPT = 64;

function redactorOf(secrets: readonly string[]): (text: string) => string {
  const key = JSON.stringify(secrets);
  let redactor = redactors.get(key);
  if (redactor === undefined) {
    if (redactors.size >= REDACTORS_KEPT) redactors.clear();
    redactor = echoRedactor(secrets.map((secret) => ['[redacted]', secret] as const));
    redactors.set(key, redactor);
  }
  return redactor;
}

/** `text` without the secrets, in every form a target may echo them in (core/transport/echoed-secrets.ts). */
export function scrub(text: string, secrets: readonly string[]): string {
  const kept = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  return kept.length === 0 ? text : redactorOf(kept)(text);
}

function parseJson(text: string | undefined): { body: unknown; isJson: boolean; tooDeep?: true } {
  const { parsed, ...rest } = parseJsonText(text);
  return { body: parsed, ...rest };
}

export function redactRecorded(recorded: RecordedExchange, operation: OperationId): Redacted {
  const redactedNames = new Set<string>();
  const secrets: string[] = [];
  const variableHeaders = new Set<string>();
  /**
   * Request headers keep the names as recorded, as an active run's exchange keeps those the suite
   * sent: the letter case of the key's header is evidence (AUTH-HEADER-NAME-CASE-INSENSITIVE, the
   * coverage of it). Response headers are named in lower case, as Node gives an active run's answers
   * to the checks. An empty value is no secret and stays empty: in its place, a variable would show
   * (and a curl line send) a key where the evidence of AUTH_ERR_EMPTY_APIKEY is that none was.
   */
  const headersOf = (pairs: ReadonlyArray<[string, string]>, ofRequest: boolean): Record<string, string> => {
    const headers: Record<string, string> = {};
    for (const [recordedName, value] of pairs) {
      // HTTP/2 pseudo-headers (:authority, :path) say nothing a check reads.
      if (recordedName.startsWith(':')) continue;
      const lower = recordedName.toLowerCase();
      const name = ofRequest ? recordedName : lower;
      if (isSecretHeader(lower) && value.trim() !== '') {
        redactedNames.add(lower);
        if (ofRequest) secrets.push(value.trim(), ...value.trim().split(/\s+/).slice(1));
        headers[name] = variableFor(lower);
        if (ofRequest && expands(lower)) variableHeaders.add(name);
      } else headers[name] = value;
    }
    return headers;
  };
  const requestHeaders = headersOf(recorded.request.headers, true);
  const responseHeaders = headersOf(recorded.response.headers, false);

  let url = recorded.request.url;
  try {
    const parsed = new URL(recorded.request.url);
    for (const [name, value] of [...parsed.searchParams]) {
      if (!SECRET_PARAMETER.test(name)) continue;
      redactedNames.add(`${name.toLowerCase()} (query)`);
      if (value !== '') secrets.push(value);
      parsed.searchParams.set(name, 'REDACTED');
    }
    url = parsed.toString();
  } catch {
    // Not a URL: the reader never hands such an entry to the judge.
  }
  const longestFirst = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  const text = scrub(recorded.response.bodyText ?? '', longestFirst);
  const requestText = recorded.request.bodyText === undefined ? undefined : scrub(recorded.request.bodyText, longestFirst);
  const requestJson = parseJson(requestText);
  return {
    exchange: {
      operation,
      request: {
        method: recorded.request.method.toUpperCase(),
        url: scrub(url, longestFirst),
        headers: requestHeaders,
        ...(variableHeaders.size > 0 && { variableHeaders: [...variableHeaders] }),
        ...(requestText !== undefined && requestText !== '' && { body: requestJson.isJson ? requestJson.body : requestText }),
      },
      response: {
        status: recorded.response.status,
        headers: responseHeaders,
        text,
        ...parseJson(text),
        ...(recorded.response.notUtf8 && { notUtf8: true }),
      },
      durationMs: recorded.durationMs,
    },
    redactedNames: [...redactedNames],
    secrets: longestFirst,
  };
}
