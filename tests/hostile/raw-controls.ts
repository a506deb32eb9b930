// What no output may hold raw from a target or a recording: C0 controls but tab and line feed, DEL,
// C1 (CSI U+009B, OSC U+009D: a terminal acts on them), the bidirectional overrides and isolates,
// and a lone surrogate. Each must appear as its visible escape (\u009b), never as itself.

export const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Each output (a name and its text) holding a raw control, with the character and what surrounds it. */
export function rawControlsIn(outputs: ReadonlyArray<readonly [string, string]>): string[] {
  return outputs.flatMap(([name, text]) => {
    const found = RAW_CONTROL.exec(text);
    if (!found) return [];
    const around = JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 20));
    return [`${name}: U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${around}`];
  });
}
