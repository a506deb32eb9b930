// A body's bytes as text, and whether they were UTF-8. JSON exchanged between systems must be UTF-8
// (RFC 8259, 8.1), and a decoder puts U+FFFD wherever bytes are not, so the text alone cannot tell
// a target that sent the replacement character from one that sent bytes no reader can decode.
import { isUtf8 } from 'node:buffer';

export interface BodyText {
  text: string;
  /** The bytes were not UTF-8: the text holds U+FFFD where they were not. */
  notUtf8?: true;
}

export function bodyTextOf(bytes: Buffer): BodyText {
  const text = bytes.toString('utf8');
  return isUtf8(bytes) ? { text } : { text, notUtf8: true };
}
