// The one escaping of the HTML report, in a module of its own so that every part of the page that
// renders in a file of its own (render-coverage.ts) takes it without importing render-html.ts,
// which imports them: the parts would need each other.

/** A text as HTML, for an element's content or a quoted attribute's value. */
export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
