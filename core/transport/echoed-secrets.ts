// A target may answer with the key it was sent: an error message "bad key …", a field that holds it,
// a header that reflects it, URL-encoded, JSON-escaped, base64, whole or cut short, in any letter
// case. Every answer's text and header values pass here before anything reads them, so that no
// check, failure message, report, console line or runner artefact (test-results/, error-context.md)
// can hold a key the target echoed: each echo becomes the key's placeholder ($API_KEY), as the
// requests already name it. It is the one finder of a key's forms: the reports' redactor
// (reports/redact.ts), the passive judge's scrubber and the judging proxy's HAR use it too.

/** An echo shorter than the whole key is a key's only from this many characters on: a random key's shorter runs are chance. */
const PART_CHARACTERS = 12;
/** Keys shorter than this are not looked for: "test" would be found everywhere. */
const SHORTEST_KEY = 4;

export type EchoRedactor = (text: string) => string;

/** The redactor of the keys (each with its placeholder: [placeholder, key]) and of the forms a target may echo them in. */
export function echoRedactor(secrets: Iterable<readonly [placeholder: string, key: string]>): EchoRedactor {
  const forms: Array<{ form: string; placeholder: string }> = [];
  /** The forms looked for cut short too, each key's own first: its runs take the most of an echo in another form. */
  const partials: Array<{ form: string; placeholder: string }> = [];
  for (const [placeholder, key] of secrets) {
    if (key.length < SHORTEST_KEY) continue;
    const whole = [JSON.stringify(key).slice(1, -1), Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url')];
    const cut = new Set([key, encodeURIComponent(key)]);
    for (const form of cut) partials.push({ form, placeholder });
    for (const form of new Set([...cut, ...whole])) forms.push({ form, placeholder });
  }
  // The longest forms first, so a key that holds another is replaced whole.
  forms.sort((a, b) => b.form.length - a.form.length);
  const anchored = anchorsOf(partials.map(({ form }) => form));
  return (text) => {
    let clean = text;
    for (const { form, placeholder } of forms) {
      if (clean.includes(form)) clean = clean.split(form).join(placeholder);
    }
    // Cut short, or in another letter case: the key and its URL form (the others are echoed whole or
    // not at all). One case-blind search for every anchor piece first: nearly always it finds none,
    // and the text is not read again (a body of 2 MB costs a fifth of lower-casing it).
    if (anchored === undefined || !anchored.test(clean)) return clean;
    for (const { form, placeholder } of partials) clean = withoutRuns(clean, form, placeholder);
    return clean;
  };
}

/** One case-blind pattern of every anchor piece of the forms, or undefined where no form is long enough to have any. */
function anchorsOf(forms: readonly string[]): RegExp | undefined {
  const pieces = new Set<string>();
  for (const form of forms) {
    if (form.length < PART_CHARACTERS) continue;
    for (let at = 0; at + ANCHOR <= form.length; at += ANCHOR) pieces.add(form.slice(at, at + ANCHOR));
  }
  if (pieces.size === 0) return undefined;
  return new RegExp([...pieces].map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
}

/** Every run of PART_CHARACTERS holds one of the form's ANCHOR-character pieces that start at a multiple of ANCHOR: the quick test. */
const ANCHOR = PART_CHARACTERS / 2;

/**
 * `text` with every run of PART_CHARACTERS or more characters of `form` (a part of the key, echoed
 * cut short) replaced by the placeholder. Where no anchor piece of the form occurs, which is nearly
 * always, a handful of searches of the text is all it costs.
 */
function withoutRuns(text: string, form: string, placeholder: string): string {
  if (form.length < PART_CHARACTERS) return text;
  // Compared in one letter case; where lower-casing changes the text's length (a few non-ASCII
  // letters), as it is.
  const lower = text.toLowerCase();
  const [haystack, needle] = lower.length === text.length ? [lower, form.toLowerCase()] : [text, form];
  const anchors: string[] = [];
  for (let at = 0; at + ANCHOR <= needle.length; at += ANCHOR) anchors.push(needle.slice(at, at + ANCHOR));
  if (!anchors.some((anchor) => haystack.includes(anchor))) return text;
  const starts = new Map<string, number>();
  for (let at = needle.length - PART_CHARACTERS; at >= 0; at -= 1) starts.set(needle.slice(at, at + PART_CHARACTERS), at);
  let out = '';
  let kept = 0;
  let index = 0;
  while (index < haystack.length) {
    const at = starts.get(haystack.slice(index, index + PART_CHARACTERS));
    if (at === undefined) {
      index += 1;
      continue;
    }
    let end = index + PART_CHARACTERS;
    for (let next = at + PART_CHARACTERS; end < haystack.length && next < needle.length && haystack[end] === needle[next]; next += 1)
      end += 1;
    out += text.slice(kept, index) + placeholder;
    kept = index = end;
  }
  return out + text.slice(kept);
}
