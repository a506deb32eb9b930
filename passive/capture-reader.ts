// Captures of traffic other than HAR, read as the HAR reader reads a HAR: streamed, one exchange at a
// time handed to the same sink, so a capture of gigabytes costs the memory of one exchange. A file
// may hold any number of JSON values one after another (one per line, or pretty-printed), and each is
// read on its own:
// - an Envoy tap trace (`{"http_buffered_trace": …}`), as the tap filter's `file_per_tap` sink writes
//   one per file and its admin `/tap` stream writes one after another (capture-shapes.ts);
// - an exchange in the suite's own JSON Lines shape (`{"request": …, "response": …}`, docs/passive.md);
// - a line of a JSON access log (access-log.ts), whose field names `accessLog` gives.
// A file whose first value starts with `"log"` is a HAR, and goes to the HAR reader.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ExchangeSink } from './recorded-exchange.ts';
import { forEachLine } from './file-lines.ts';
import { forEachValue } from './file-values.ts';
import { parseCaptureValue } from './capture-value.ts';
import { fileReadError, HarError, readHar } from './har-reader.ts';
import { capturedExchange, type CapturedValue } from './capture-shapes.ts';
import { DEFAULT_ACCESS_LOG_FIELDS, type AccessLogFields } from './access-log.ts';

export interface CaptureReadSummary {
  /** What was read: exchanges, HAR entries or tap traces, recognised or not. */
  entries: number;
  /** Values that are no exchange of any shape read (a HAR entry without a request, an Envoy streamed segment): counted, left alone. */
  malformed: number;
  /** Exchanges whose recorded bodies the capture cut short (Envoy keeps 1 KiB each way by default): judged without them. */
  truncated: number;
}

const TRAFFIC = 'a HAR file, an Envoy tap capture, JSON Lines of exchanges or a JSON access log';

/** How many bytes of a file are looked at to tell a HAR from a capture of values. */
const SNIFF_BYTES = 4096;

/** Reads one file of traffic into the sink, whatever its shape. Throws HarError (one line) when it is neither. */
export async function readCapture(
  path: string,
  sink: ExchangeSink,
  accessLog: AccessLogFields = DEFAULT_ACCESS_LOG_FIELDS,
): Promise<CaptureReadSummary> {
  if (await looksLikeHar(path)) return { ...(await readHar(path, sink)), truncated: 0 };
  const name = basename(path);
  const summary: CaptureReadSummary = { entries: 0, malformed: 0, truncated: 0 };
  const add = (value: unknown, index: number) => tally(summary, capturedExchange(value, `${name}, value ${index + 1}`, accessLog), sink);
  try {
    if (!(await readLines(path, add))) await readValues(path, add);
  } catch (error) {
    throw fileReadError(path, error, TRAFFIC);
  }
  if (summary.entries === 0) throw new HarError(`${path} is not ${TRAFFIC}: it holds no JSON value`);
  return summary;
}

/**
 * JSON Lines, a value a line, each line's bytes parsed (capture-value.ts). False, having read
 * nothing, when the first line that holds anything is not a whole value (a pretty-printed trace). Past the first, a line that is not JSON (one cut short at the
 * end of a file still being written) counts as no exchange, and the reading goes on.
 */
async function readLines(path: string, add: (value: unknown, index: number) => void): Promise<boolean> {
  let index = 0;
  let lines = true;
  await forEachLine(path, (line) => {
    if (isBlank(line)) return true;
    let value: unknown;
    try {
      value = parseCaptureValue(line);
    } catch {
      if (index === 0) return (lines = false);
      value = undefined;
    }
    add(value, index);
    index += 1;
    return true;
  });
  return lines;
}

/** Whether a line's text is all white space, as String.prototype.trim sees it; read as text only where a byte is not ASCII. */
function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte >= 0x80) return line.toString('utf8').trim() === '';
    if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d)) return false;
  }
  return true;
}

/** JSON values one after another however they are laid out (file-values.ts), each parsed from its bytes. */
async function readValues(path: string, add: (value: unknown, index: number) => void): Promise<void> {
  let index = 0;
  await forEachValue(path, (bytes) => {
    add(parseCaptureValue(bytes), index);
    index += 1;
  });
}

function tally(summary: CaptureReadSummary, captured: CapturedValue, sink: ExchangeSink): void {
  summary.entries += 1;
  if (captured.exchange === undefined) {
    summary.malformed += 1;
    return;
  }
  if (captured.truncated) summary.truncated += 1;
  sink.add(captured.exchange);
}

/** Whether the file's first JSON value is an object whose first key is "log", as every HAR writer writes it. */
async function looksLikeHar(path: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw fileReadError(path, error, TRAFFIC);
  }
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return /^\uFEFF?\s*\{\s*"log"\s*:/.test(buffer.subarray(0, bytesRead).toString('utf8'));
  } catch (error) {
    throw fileReadError(path, error, TRAFFIC);
  } finally {
    await file.close();
  }
}
