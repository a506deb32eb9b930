// A value the suite read from a target and sends back in a header (a uid as onBehalfOf) must be one
// a header can carry: HTTP's field values are tab, visible ASCII and obs-text (the bytes 0x80-0xFF,
// which Node takes as Latin-1 characters). Node refuses any other character before anything is sent
// (ERR_INVALID_CHAR), which the transport would report as a target it cannot reach. A uid holding a
// control character, or a character beyond Latin-1, is data the target may well hold: it is simply
// not one the suite can ask about in a header, and another is chosen (or the test says why none was).

/** Whether `value` can be sent as a header's value as it is. */
export function travelsInAHeader(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}
