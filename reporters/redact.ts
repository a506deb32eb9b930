// The last line of defence against a key in a report: failure messages come from many places
// (Playwright's own call logs print request headers), so every text the reporter writes passes
// here. The configured keys become the names of their variables, and any apikey header value left
// is replaced, which also covers reports merged on a machine that does not hold the keys.
import type { Env } from '../fixtures/config.ts';

// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI sequence starts with
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
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
    let clean = text.replace(ANSI, '');
    for (const [secret, name] of secrets) clean = clean.split(secret).join(name);
    return clean.replace(APIKEY_VALUE, '$1[redacted]');
  };
}
