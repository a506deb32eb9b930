// One JSON value of a capture (a line of JSON Lines, a trace of an Envoy /tap stream) parsed from its
// bytes without first making the whole value one string. A value of the suite's traffic is about
// 134 KB, nearly all of it a body in base64; every string of more than 128 KiB is a page of its own
// that the system maps, faults in and unmaps, and reading such a capture cost more in those strings
// (the value's text, then its body's base64 text) than in anything else. Here the value is parsed
// with each long body string left out of the text JSON.parse reads, and the body's bytes are decoded
// from the value's bytes in pieces: only the body's own text, which the judge reads, is made whole.
import { randomBytes } from 'node:crypto';

/** A string is left out of the text parsed from this many bytes on: shorter ones cost nothing much. */
const LONG_BYTES = 8192;
/** Base64 is decoded this many characters at a time (a multiple of 4, well under 128 KiB). */
const BASE64_PIECE = 65_536;
/** The keys whose long strings are bodies the shapes read (capture-shapes.ts): only these are left out. */
const BODY_KEYS = new Set(['body', 'as_bytes', 'as_string', 'text']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * A body string of a value, not yet made a string: its bytes between the quotes, which hold no escape
 * and no control character (so they are the string's UTF-8 as they stand). They are the bytes the
 * value was read into, which the reader reads the next value into: read them before the value's
 * handler returns (capture-shapes.ts does), never keep the object.
 */
export class LongString {
  constructor(private readonly raw: Buffer) {}
  /** The string, as JSON.parse would have made it. */
  text(): string {
    return this.raw.toString('utf8');
  }
  /** The bytes the string holds in base64, as Buffer.from(its text, 'base64') would decode them. */
  base64(): Buffer {
    const { raw } = this;
    if (!plainBase64(raw)) return Buffer.from(this.text(), 'base64');
    const bytes = Buffer.allocUnsafe(Math.ceil(raw.length / 4) * 3);
    let written = 0;
    for (let at = 0; at < raw.length; at += BASE64_PIECE)
      written += bytes.write(raw.toString('latin1', at, Math.min(raw.length, at + BASE64_PIECE)), written, 'base64');
    return bytes.subarray(0, written);
  }
}

/** A string a capture's value holds, made whole if it was left out of the parsed text. */
export const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : value instanceof LongString ? value.text() : undefined;

/** The bytes of base64's standard alphabet, marked 1: a table read per byte is many times faster than comparisons. */
const BASE64_ALPHABET = new Uint8Array(256);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_ALPHABET[character.charCodeAt(0)] = 1;

/** Whether `raw` is base64 of the standard alphabet, padded at its end at most: decoded in pieces, it decodes as it does whole. */
function plainBase64(raw: Buffer): boolean {
  let end = raw.length;
  while (end > 0 && raw[end - 1] === 0x3d && raw.length - end < 2) end -= 1;
  for (let at = 0; at < end; at += 1) if (BASE64_ALPHABET[raw[at]!] === 0) return false;
  return true;
}

/** Each reader's own mark for a string left out: a value cannot hold it but by guessing it. */
const MARK = `\u0000${randomBytes(12).toString('hex')}#`;

/**
 * The JSON value `bytes` hold (UTF-8; bytes that are not read as U+FFFD), as JSON.parse reads their
 * text, but for long body strings, which are LongStrings. Throws a SyntaxError where JSON.parse would:
 * a string is one token of JSON, so the text with some strings replaced by others is JSON exactly
 * when the bytes are, and each string left out is one JSON.parse would take.
 */
export function parseCaptureValue(bytes: Buffer): unknown {
  const kept: Buffer[] = [];
  const left: LongString[] = [];
  let copied = 0;
  for (let at = bytes.indexOf(QUOTE); at !== -1;) {
    const end = stringEnd(bytes, at);
    if (end === -1) break; // an unterminated string: JSON.parse says so
    if (end - at - 1 >= LONG_BYTES && isBodyValue(bytes, at) && plainString(bytes, at + 1, end)) {
      kept.push(bytes.subarray(copied, at), Buffer.from(JSON.stringify(`${MARK}${left.length}`)));
      left.push(new LongString(bytes.subarray(at + 1, end)));
      copied = end + 1;
    }
    at = bytes.indexOf(QUOTE, end + 1);
  }
  if (left.length === 0) return JSON.parse(bytes.toString('utf8'));
  kept.push(bytes.subarray(copied));
  return withLongStrings(JSON.parse(Buffer.concat(kept).toString('utf8')), left);
}

/** The index of the quote that ends the string whose opening quote is at `start`, or -1. */
function stringEnd(bytes: Buffer, start: number): number {
  for (let quote = bytes.indexOf(QUOTE, start + 1); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/** Whether the string opening at `start` is the value of a key BODY_KEYS names: `"body": "…"`. */
function isBodyValue(bytes: Buffer, start: number): boolean {
  let at = start - 1;
  while (at >= 0 && isSpace(bytes[at]!)) at -= 1;
  if (bytes[at] !== COLON) return false;
  at -= 1;
  while (at >= 0 && isSpace(bytes[at]!)) at -= 1;
  if (bytes[at] !== QUOTE) return false;
  const keyEnd = at;
  const keyStart = bytes.lastIndexOf(QUOTE, keyEnd - 1);
  return keyStart !== -1 && keyEnd - keyStart - 1 <= 9 && BODY_KEYS.has(bytes.toString('latin1', keyStart + 1, keyEnd));
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Whether the bytes from `start` to `end` hold neither an escape nor a control character: the string is its bytes. */
function plainString(bytes: Buffer, start: number, end: number): boolean {
  const backslash = bytes.indexOf(BACKSLASH, start);
  if (backslash !== -1 && backslash < end) return false;
  for (let at = start; at < end; at += 1) if (bytes[at]! < 0x20) return false;
  return true;
}

/** The parsed value with each mark replaced by the string it stands for. */
function withLongStrings(value: unknown, left: readonly LongString[]): unknown {
  if (typeof value === 'string') return value.startsWith(MARK) ? left[Number(value.slice(MARK.length))] : value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = withLongStrings(value[index], left);
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const replaced = withLongStrings(object[key], left);
      if (replaced !== object[key]) object[key] = replaced;
    }
  }
  return value;
}

/** A value whose LongStrings are all made strings: for a reader that reads any key (an access log's configured fields). */
export function withStrings(value: unknown): unknown {
  if (value instanceof LongString) return value.text();
  if (Array.isArray(value)) return value.map(withStrings);
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const replaced = withStrings(object[key]);
      if (replaced !== object[key]) object[key] = replaced;
    }
  }
  return value;
}
