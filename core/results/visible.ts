// Characters a reader cannot see, and a terminal or log viewer may obey: C0 controls (ESC, BEL, CR,
// NUL …), DEL, C1 controls (CSI U+009B, OSC U+009D), the bidirectional overrides and isolates that
// reorder what is shown, and lone surrogates, which are no character at all. Anything a target or a
// recording sends may hold them; every file and stream the run writes shows them as the escapes a
// reader recognises (`\u009b`), so the value stays recognisable and nothing acts on the reader.
//
// In JSON text the escape is the same character again (JSON's own `\u009b`), so results.json stays
// exactly what it was. Tab and line feed are left: they are the outputs' own layout.

/** A surrogate without its pair: no character, and no URL or header can carry it (transport/header-value.ts). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** One character a reader cannot see (not global: for a test; visible() makes its own global copy). */
export const INVISIBLE_CHARACTER = new RegExp(
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  `${/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.source}|${LONE_SURROGATE.source}`,
);
const INVISIBLE = new RegExp(INVISIBLE_CHARACTER.source, 'g');

const escape = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every character a reader cannot see (but tab and line feed) as its `\uXXXX` escape. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, escape);
}

/** `text` on one line: line feeds and tabs escaped too. */
export function visibleLine(text: string): string {
  return visible(text).replace(/[\t\n]/g, escape);
}

/** An error as one line a reader can see: its name and the first line of its message, at most 200 characters. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return visibleLine(text.split('\n')[0]!.slice(0, 200));
}
