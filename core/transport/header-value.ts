// A value the suite read from a target and sends back in a header (a uid as onBehalfOf) or a path (a
// sessionId) must be one that can carry it. A header's value is tab, visible ASCII and obs-text (the
// bytes 0x80-0xFF, which Node takes as Latin-1 characters): Node refuses any other character before
// anything is sent (ERR_INVALID_CHAR), which the transport would report as a target it cannot reach.
// A uid holding a control character, or a character beyond Latin-1, is data the target may well
// hold: it is simply not one the suite can ask about in a header, and another is chosen (or the test
// says why none was). A path carries any Unicode string, percent-encoded, but no lone surrogate.

// A lone surrogate (visible.ts's LONE_SURROGATE) is no character at all: it has no UTF-8 form and no percent-encoding.
import { LONE_SURROGATE } from '../results/visible.ts';

/**
 * Whether `value` (a sessionId read from the target) can be sent as a path segment as it is: a string
 * of Unicode characters. JSON lets a target send a lone surrogate (`"\ud800"`); no URL can carry
 * it, so the call cannot be fetched by it (CALL-FIELD-SESSION-ID fails the id itself).
 */
export function travelsInAPath(value: unknown): value is string {
  return typeof value === 'string' && !LONE_SURROGATE.test(value);
}

/**
 * A path segment for `value`, percent-encoded: a lone surrogate as U+FFFD, the replacement a decoder
 * makes, so that a request for an id no URL can carry is still sent (and answered) rather than
 * ending the test with a URIError. Callers that choose what to fetch choose ids that travel.
 */
export function pathSegment(value: string): string {
  return encodeURIComponent(value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd'));
}

/** Whether `value` can be sent as a header's value as it is. */
export function travelsInAHeader(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}
