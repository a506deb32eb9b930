// What no output may hold raw from a target or a recording: C0 controls but tab and line feed, DEL,
// C1 (CSI U+009B, OSC U+009D: a terminal acts on them), the bidirectional overrides and isolates,
// and a lone surrogate: what core/results/visible.ts escapes. Each must appear as its visible escape
// (\u009b), never as itself.
import { INVISIBLE_CHARACTER } from '../../core/results/visible.ts';

const RAW_CONTROL = INVISIBLE_CHARACTER;

/** Each output (a name and its text) holding a raw control, with the character and what surrounds it. */
export function rawControlsIn(outputs: ReadonlyArray<readonly [string, string]>): string[] {
  return outputs.flatMap(([name, text]) => {
    const found = RAW_CONTROL.exec(text);
    if (!found) return [];
    const around = JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 20));
    return [`${name}: U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${around}`];
  });
}
