// An exchange is one request and its response as the checks see them: parsed, timed, and with
// every secret already redacted, so that nothing downstream can leak a key.
import type { OperationId } from '../../openapi/contract.ts';
import { shellWord } from '../results/shell-quote.ts';

/** A request that got no answer the suite can judge: it is counted in the reports all the same. */
export interface Unanswered {
  operation: OperationId;
  method: string;
  url: string;
}

export interface Exchange {
  operation: OperationId;
  request: {
    method: string;
    url: string;
    /** Header values with keys replaced by the name of the variable that holds them. */
    headers: Record<string, string>;
    /**
     * The headers (named as in `headers`) whose value is such a variable, put there by the suite:
     * a curl line lets the shell expand these and only these. Any other value is text, even one
     * that reads `$API_KEY`.
     */
    variableHeaders?: readonly string[];
    body?: unknown;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    /** The parsed JSON body, or undefined when the body is not JSON (or is, nested too deep to judge). */
    body: unknown;
    text: string;
    isJson: boolean;
    /** JSON nested deeper than any answer of the contract (json-text.ts): the body's schema fails, no other check walks it. */
    tooDeep?: true;
    /** The body's bytes were not UTF-8 (body-text.ts); `text` holds U+FFFD where they were not. */
    notUtf8?: true;
  };
  durationMs: number;
  /**
   * When the answer arrived, in milliseconds since the epoch: an answer shows the target as it was at
   * that moment or, behind a cache or a read replica, some seconds before (checks/answer-age.ts).
   * Absent where a recording does not say.
   */
  receivedAt?: number;
  /** Requests sent for this exchange, when a retry made it more than one. */
  attempts?: number;
}

/**
 * A request header by its name in any letter case, as HTTP reads names: the name as the request
 * gave it and its value. An active run's exchange names headers as the suite sent them, a recorded
 * one as the recording has them (passive/redaction.ts).
 */
export function headerOf(headers: Readonly<Record<string, string>>, name: string): [name: string, value: string] | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers).find(([key]) => key.toLowerCase() === wanted);
}

/** What a failure shows in place of a curl line that no shell could give exactly. */
export const NO_CURL_LINE = '(no curl line: the request holds a NUL character, which no command-line argument can carry)';

/**
 * A shell line that replays the request; keys appear as $API_KEY-style variables, never in clear.
 * Every value is a shell word (shell-quote.ts): only the variables the suite put in place of a key
 * (`variableHeaders`) expand.
 */
export function curlFor(exchange: Exchange): string {
  const { method, url, headers, body, variableHeaders = [] } = exchange.request;
  const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if ([method, url, ...Object.entries(headers).flat(), bodyText ?? ''].some((text) => text.includes('\0'))) return NO_CURL_LINE;
  const variables = new Set(variableHeaders);
  const words = ['curl', '-sS'];
  // curl reads [] and {} in a URL as a range or a list of URLs to fetch; -g sends them as they are.
  if (/[[\]{}]/.test(url)) words.push('-g');
  words.push('-X', shellWord(method));
  for (const [name, value] of Object.entries(headers))
    words.push('-H', variables.has(name) ? headerWord(name, value) : shellWord(emptyHeader(name, value) ?? `${name}: ${value}`));
  if (bodyText !== undefined) words.push('--data-raw', shellWord(bodyText));
  // A last word that starts with a dash would be read as an option.
  if (url.startsWith('-')) words.push('--url');
  words.push(shellUrl(url));
  return words.join(' ');
}

/**
 * A header sent with no value, as curl sends one: `name;`. Given `name:` or `name: ` curl removes the
 * header instead, so the line would send a request without it (a missing key where the failure was
 * about an empty one). A value of blanks only is the same on the wire: HTTP trims them.
 */
function emptyHeader(name: string, value: string): string | undefined {
  return value.trim() === '' ? `${name};` : undefined;
}

/** A header whose value is a variable of the suite's ($API_KEY, or a token such as `$API_KEY|cut:12`): the variable expands, the rest is text. */
function headerWord(name: string, value: string): string {
  const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(value);
  if (!variable) return shellWord(`${name}: ${value}`);
  return shellWord(`${name}: `, { variable: variable[1]! }, value.slice(variable[0].length));
}

/**
 * The URL as a shell word that gives it exactly, with each long run of one character or escape
 * written by printf (`'…/calls/'"$(printf '%%20%.0s' $(seq 256))"` for 256 spaces): a shrunk
 * id of 256 spaces would otherwise make a line of 768 `%20`s no reader can count.
 */
function shellUrl(url: string): string {
  // A run is one escape, or one character printf and the shell read plainly inside '…', repeated: 16 in all at least.
  const run = /(%[0-9A-Fa-f]{2}|[A-Za-z0-9_.~+,:@/=-])\1{15,}/g;
  const words: string[] = [];
  let at = 0;
  for (const match of url.matchAll(run)) {
    if (match.index > at) words.push(shellWord(url.slice(at, match.index)));
    const unit = match[1]!;
    words.push(`"$(printf '${unit.replace(/%/g, '%%')}%.0s' $(seq ${match[0].length / unit.length}))"`);
    at = match.index + match[0].length;
  }
  if (at < url.length || words.length === 0) words.push(shellWord(url.slice(at)));
  return words.join('');
}

/** A URL for a message line: whole when short, else its start and its length (the curl line gives it whole). */
export function shownUrl(url: string, limit = 160): string {
  return url.length > limit ? `${url.slice(0, limit)}… (${url.length} characters)` : url;
}

/** A short account of an exchange for failure messages: the status, a body excerpt and the curl line. */
export function describeExchange(exchange: Exchange, excerptLength = 400): string {
  const excerpt =
    exchange.response.text.length > excerptLength ? `${exchange.response.text.slice(0, excerptLength)}…` : exchange.response.text;
  return `${exchange.request.method} ${shownUrl(exchange.request.url)} → ${exchange.response.status}\n${excerpt}\n${reproduceLines(exchange).join('\n')}`;
}

/** Puts the variables of .env into the shell it runs in, as curl lines need them; the README says the same. */
export const ENV_INTO_SHELL = 'set -a; . ./.env; set +a';

/** The configured keys, as the variables a curl line names them by (transport.ts, secretPlaceholders). */
const CONFIGURED_KEYS = ['$API_KEY', '$RESTRICTED_API_KEY'] as const;

/**
 * "Reproduce with:", the curl line, and when the line expands a configured key, how to get it into
 * the shell: a key kept in .env is not there, and pasted without it the line sends an empty key and
 * gets AUTH_ERR_EMPTY_APIKEY instead of the answer it reproduces.
 */
export function reproduceLines(exchange: Exchange): string[] {
  const { headers, variableHeaders = [] } = exchange.request;
  const keys = CONFIGURED_KEYS.filter((key) => variableHeaders.some((name) => headers[name]?.startsWith(key)));
  const hint = keys.length === 0 ? [] : [`(needs ${keys.join(' and ')} in the shell; from .env: ${ENV_INTO_SHELL})`];
  return ['Reproduce with:', curlFor(exchange), ...hint];
}
