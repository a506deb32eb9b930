// What two runs' observations of one "not shown" item differ in, for the terminal: the observations
// both runs made are left out, and of each pair that differs, the text both share around the
// difference is cut to "…", so that two 300-character observations that differ in one status code
// read as `…status 401 → …status 403`, not as the whole of both, twice.

/** Each side of a changed observation keeps at most this many characters. */
const SIDE_LIMIT = 120;
/** Words of shared text kept before and after the difference, so that it reads in context. */
const CONTEXT_WORDS = 2;
/** Shared text kept after the difference at most, however long its words (JSON has few spaces). */
const CONTEXT_CHARACTERS = 24;
/** A shared start or end shorter than this is kept whole: cutting it saves nothing. */
const WORTH_CUTTING = 16;
/** An observation's label ("AUTH_ERR_EMPTY_APIKEY: …"), kept when the rest of the shared start is cut. */
const LABEL = /^[^:]{1,40}: /;

/** One line per changed observation: "base part → next part"; "nothing observed" for a side without one. */
export function describeObservationChange(base: readonly string[], next: readonly string[]): string[] {
  const gone = base.filter((text) => !next.includes(text));
  const added = next.filter((text) => !base.includes(text));
  const kept = base.length - gone.length;
  const lines = Array.from({ length: Math.max(gone.length, added.length) }, (_, index) => {
    const [before, after] = [gone[index], added[index]];
    if (before === undefined || after === undefined) return `${cut(before ?? 'nothing observed')} → ${cut(after ?? 'nothing observed')}`;
    const parts = differingParts(before, after);
    return `${cut(parts.base)} → ${cut(parts.next)}`;
  });
  return kept > 0 ? [...lines, `(${kept} other observation(s) the same in both)`] : lines;
}

/** The two texts with what they share at the start and the end cut to "…", a few words of it kept. */
function differingParts(base: string, next: string): { base: string; next: string } {
  let start = 0;
  while (start < base.length && start < next.length && base[start] === next[start]) start += 1;
  let end = 0;
  while (end < base.length - start && end < next.length - start && base.at(-1 - end) === next.at(-1 - end)) end += 1;
  const from = contextStart(base, start);
  const shared = base.slice(0, from);
  const label = LABEL.exec(shared)?.[0] ?? '';
  const head = from === 0 ? '' : `${label}…`;
  const side = (text: string) => {
    const to = contextEnd(text, text.length - end);
    return `${head}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  };
  return { base: side(base), next: side(next) };
}

/** Where the shown text starts: CONTEXT_WORDS words before the first difference, or 0 when little would be cut. */
function contextStart(text: string, difference: number): number {
  let at = difference;
  for (let words = 0; words <= CONTEXT_WORDS && at > 0; words += 1) at = text.lastIndexOf(' ', at - 1);
  const from = Math.max(at + 1, 0);
  return from < WORTH_CUTTING ? 0 : from;
}

/** Where the shown text ends: CONTEXT_WORDS words after the last difference, or the end when little would be cut. */
function contextEnd(text: string, difference: number): number {
  let at = difference;
  for (let words = 0; words < CONTEXT_WORDS && at >= 0 && at < text.length; words += 1) at = text.indexOf(' ', at + 1);
  const to = at < 0 ? text.length : Math.min(at, difference + CONTEXT_CHARACTERS);
  return text.length - to < WORTH_CUTTING ? text.length : to;
}

const cut = (text: string) => (text.length > SIDE_LIMIT ? `${text.slice(0, SIDE_LIMIT - 1)}…` : text);
