// JSON values one after another however they are laid out (Envoy's /tap stream saved to a file: a
// pretty-printed trace after another), each found in the file's bytes read through one reused buffer
// and handed on as its bytes, to be parsed without making it one string (capture-value.ts). The
// token stream that read them before (stream-json) made every string of every value, and each
// body's base64 in full. Only the values' frames are read byte by byte; a string is crossed from
// one quote to the next.
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the scan is: in a value or between two, in a string or not, how deep. */
interface Scan {
  /** Copies of the bytes of a value begun in earlier chunks. */
  begun: Buffer[];
  inValue: boolean;
  depth: number;
  inString: boolean;
  /** A value that is neither an object, an array nor a string (a number, true, false, null). */
  bare: boolean;
  /** Backslashes that ended the previous chunk inside a string: a quote first in this one may be escaped by them. */
  backslashes: number;
}

/**
 * Hands the bytes of each JSON value of the file to `each`, in order: the bytes the file is read into
 * next, so `each` reads them before it returns. Throws a SyntaxError at a byte no value can begin
 * with, and at a file that ends inside a value; whether a value's bytes are JSON is its parser's to
 * say. A value is held whole before it is handed on: what bounds it is the heap of the thread that reads.
 */
export async function forEachValue(path: string, each: (value: Buffer) => void): Promise<void> {
  const file = await open(path, 'r');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const scan: Scan = { begun: [], inValue: false, depth: 0, inString: false, bare: false, backslashes: 0 };
  try {
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      scanChunk(chunk.subarray(0, bytesRead), scan, each);
    }
  } finally {
    await file.close();
  }
  if (scan.inValue && scan.bare) each(Buffer.concat(scan.begun));
  else if (scan.inValue) throw new SyntaxError('the file ends inside a JSON value');
}

/** One chunk's values handed on; the value it ends inside, kept for the next. */
function scanChunk(bytes: Buffer, scan: Scan, each: (value: Buffer) => void): void {
  let start = 0;
  const end = (at: number) => {
    const part = bytes.subarray(start, at);
    each(scan.begun.length === 0 ? part : Buffer.concat([...scan.begun, part]));
    scan.begun = [];
    scan.inValue = false;
    scan.bare = false;
  };
  let at = 0;
  while (at < bytes.length) {
    if (scan.inString) {
      const carried = scan.backslashes;
      const quote = closingQuote(bytes, at, carried);
      scan.backslashes = quote === -1 ? trailingBackslashes(bytes, at, carried) : 0;
      if (quote === -1) break;
      scan.inString = false;
      at = quote + 1;
      if (scan.depth === 0) end(at);
      continue;
    }
    const byte = bytes[at]!;
    if (!scan.inValue) {
      if (isSpace(byte)) {
        at += 1;
        continue;
      }
      if (byte === 0x7d || byte === 0x5d || byte === 0x2c || byte === 0x3a)
        throw new SyntaxError(`unexpected ${JSON.stringify(String.fromCharCode(byte))} where a JSON value should begin`);
      scan.inValue = true;
      scan.bare = byte !== 0x7b && byte !== 0x5b && byte !== QUOTE;
      start = at;
    } else if (scan.bare && (isSpace(byte) || byte === 0x7b || byte === 0x5b || byte === QUOTE || byte === 0x7d || byte === 0x5d)) {
      end(at);
      continue;
    }
    if (byte === QUOTE) scan.inString = true;
    else if (byte === 0x7b || byte === 0x5b) scan.depth += 1;
    else if ((byte === 0x7d || byte === 0x5d) && !scan.bare) {
      scan.depth -= 1;
      if (scan.depth === 0) {
        end(at + 1);
        at += 1;
        continue;
      }
    }
    at += 1;
  }
  if (scan.inValue) scan.begun.push(Buffer.from(bytes.subarray(start)));
}

/**
 * The quote that ends the string the scan is in, from `from` on, or -1. A quote ends it when the
 * backslashes before it are even in number; those the previous chunk ended with count when the run
 * reaches this chunk's start.
 */
function closingQuote(bytes: Buffer, from: number, carried: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let run = 0;
    while (quote - 1 - run >= 0 && bytes[quote - 1 - run] === BACKSLASH) run += 1;
    if (quote - run === 0) run += carried;
    if (run % 2 === 0) return quote;
  }
  return -1;
}

/** The backslashes a chunk ends with, inside a string: with those carried in when they are all it holds from `from` on. */
function trailingBackslashes(bytes: Buffer, from: number, carried: number): number {
  let run = 0;
  while (bytes.length - 1 - run >= from && bytes[bytes.length - 1 - run] === BACKSLASH) run += 1;
  return bytes.length - run === 0 ? run + carried : run;
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
