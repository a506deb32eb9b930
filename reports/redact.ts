// The last line of defence against a key in a report: failure messages come from many places
// (Playwright's own call logs print request headers), so every text the reporter writes passes
// here. The configured keys become the names of their variables in every form a text may hold them
// (URL-encoded, JSON-escaped, base64, cut short, in another letter case: the one finder of them all
// is core/transport/echoed-secrets.ts, which answers already passed), and any apikey header value
// left is replaced, which also covers reports merged on a machine that does not hold the keys.
import { stripVTControlCharacters } from 'node:util';
import type { Env } from '../core/run/config.ts';
import { echoRedactor } from '../core/transport/echoed-secrets.ts';

/**
 * Without a terminal's controls: Playwright's colours, a target's OSC-8 link or hidden cursor. Only
 * text holding an ESC is stripped: Node also reads a lone U+009B as a control, which in traffic is
 * data (the judging proxy's HAR entries pass here as JSON, where an ESC is always escaped).
 */
const withoutTerminalControls = (text: string) => (text.includes('\u001b') ? stripVTControlCharacters(text) : text);
/**
 * An apikey value the redactor was not told, in plain text or JSON-escaped (`\"apikey\": \"…\"`, as
 * a text holding it is inside results.json or a HAR): the value stops at a backslash that starts an
 * escape, so that redacting a serialized document never cuts one in half (which once left a diff's
 * results.json that no JSON reader could parse).
 */
const APIKEY_VALUE =
  /(?<![A-Za-z0-9_])(apikey(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)(?!\$|\[redacted\])(?:[^\s"',;}\\]|\\(?![\\"'/bfnrtu]))+/gi;

export type Redactor = (text: string) => string;

/** The redactor of the configured keys (API_KEY, RESTRICTED_API_KEY and the diff's candidate and secondary keys in `env`), which every writer of the run's outputs passes its text through. */
export function redactorFor(env: Env): Redactor {
  const keys = echoRedactor(
    (
      [
        'API_KEY',
        'RESTRICTED_API_KEY',
        'CANDIDATE_API_KEY',
        'CANDIDATE_RESTRICTED_API_KEY',
        'SECONDARY_API_KEY',
        'SECONDARY_RESTRICTED_API_KEY',
      ] as const
    ).flatMap((name): Array<[string, string]> => {
      const value = env[name]?.trim();
      return value === undefined ? [] : [[`$${name}`, value]];
    }),
  );
  return (text) => keys(withoutTerminalControls(text)).replace(APIKEY_VALUE, '$1[redacted]');
}
