// The last line of defence against a key in a report: failure messages come from many places
// (Playwright's own call logs print request headers), so every text the reporter writes passes
// here. The configured keys become the names of their variables, and any apikey header value left
// is replaced, which also covers reports merged on a machine that does not hold the keys.
import { stripVTControlCharacters } from 'node:util';
import type { Env } from '../core/run/config.ts';

/**
 * Without a terminal's controls: Playwright's colours, a target's OSC-8 link or hidden cursor. Only
 * text holding an ESC is stripped: Node also reads a lone U+009B as a control, which in traffic is
 * data (the judging proxy's HAR entries pass here as JSON, where an ESC is always escaped).
 */
const withoutTerminalControls = (text: string) => (text.includes('\u001b') ? stripVTControlCharacters(text) : text);
const APIKEY_VALUE = /(?<![A-Za-z0-9_])(apikey["']?\s*[:=]\s*["']?)(?!\$|\[redacted\])[^\s"',;}]+/gi;

export type Redactor = (text: string) => string;

export function redactorFor(env: Env): Redactor {
  const secrets = ['API_KEY', 'RESTRICTED_API_KEY']
    .flatMap((name): Array<[string, string]> => {
      const value = env[name]?.trim();
      return value !== undefined && value.length >= 4 ? [[value, `$${name}`]] : [];
    })
    // The longer key first, so a key that contains the other is replaced whole.
    .sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let clean = withoutTerminalControls(text);
    for (const [secret, name] of secrets) clean = clean.split(secret).join(name);
    return clean.replace(APIKEY_VALUE, '$1[redacted]');
  };
}
