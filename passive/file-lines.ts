// A file's lines read through one reused buffer, each handed on as its bytes: the JSON Lines reader
// parses them without making the line a string (capture-value.ts). Node's readline over a read
// stream made each chunk a fresh buffer and each line a string (of 134 KB on average on the suite's
// traffic), and every string of more than 128 KiB is a page of its own that the system maps, faults
// in and unmaps.
import { open } from 'node:fs/promises';

/** How much of the file is read at once: a line of the suite's traffic is about 134 KB. */
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Hands the bytes of each line of the file to `each`, in order, until it answers false. Lines end as
 * readline ends them: at `\n`, `\r\n` or a lone `\r`. The bytes are those the file is read into next:
 * `each` reads them before it returns. A line is held whole before it is handed on, as readline held
 * it: what bounds it is the heap of the thread that reads.
 */
export async function forEachLine(path: string, each: (line: Buffer) => boolean): Promise<void> {
  const file = await open(path, 'r');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  // A line begun in earlier chunks: copies of its pieces, since the chunk is read into again.
  let begun: Buffer[] = [];
  const hand = (bytes: Buffer): boolean => {
    const line = begun.length === 0 ? bytes : Buffer.concat([...begun, bytes]);
    begun = [];
    return handLine(line, each);
  };
  try {
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, bytesRead);
      let start = 0;
      for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
        if (!hand(bytes.subarray(start, end))) return;
        start = end + 1;
      }
      if (start < bytesRead) begun.push(Buffer.from(bytes.subarray(start)));
    }
    if (begun.length > 0) hand(Buffer.alloc(0));
  } finally {
    await file.close();
  }
}

/** A line ended by `\n`, split where a `\r` ends a line too, as readline splits it. */
function handLine(line: Buffer, each: (line: Buffer) => boolean): boolean {
  let start = 0;
  for (let end = line.indexOf(RETURN); end !== -1; end = line.indexOf(RETURN, start)) {
    if (!each(line.subarray(start, end))) return false;
    start = end + 1;
  }
  return each(line.subarray(start));
}
