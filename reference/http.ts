// Small HTTP helpers over node:http: JSON answers and a capped JSON body reader.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from './errors.ts';
import type { Answer } from './faults/fault.ts';

const MAX_BODY_BYTES = 64 * 1024;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const serialized = new WeakMap<object, string>();

/** The JSON of a value; a frozen one (a kept call, which cannot change) is serialized once. */
export function jsonOf(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (Object.isFrozen(value)) serialized.set(value, text);
  }
  return text;
}

/** What an answer sends: its raw text, or its body as JSON. A kept answer (./aged-answers.ts) is kept as these. */
export function bytesOf(answer: Answer): NonNullable<Answer['raw']> {
  return answer.raw ?? { contentType: JSON_CONTENT_TYPE, text: JSON.stringify(answer.body) };
}

export function sendAnswer(res: ServerResponse, answer: Answer): void {
  const { contentType, text } = bytesOf(answer);
  res.writeHead(answer.status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Reads a JSON body of at most MAX_BODY_BYTES. A larger body is refused as soon as the limit is
 * passed, without buffering the rest; a body that is not JSON, or not sent as JSON, is a bad request.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw errors.payloadTooLarge(MAX_BODY_BYTES);
  const chunks: Buffer[] = [];
  let received = 0;
  // Leaving the loop must not destroy the request: a destroyed request stops reading its connection,
  // so the next request on it would never be answered. The rest of a too-large body is discarded.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > MAX_BODY_BYTES) break;
    chunks.push(chunk);
  }
  if (received > MAX_BODY_BYTES) {
    req.resume();
    throw errors.payloadTooLarge(MAX_BODY_BYTES);
  }
  if (received === 0) throw errors.badRequest({ body: ['A JSON body with messageId is required.'] });
  if (contentType !== 'application/json') {
    throw errors.badRequest({
      'content-type': [`The body must be sent as application/json, not "${contentType.slice(0, 64) || 'none'}".`],
    });
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw errors.badRequest({ body: ['The body is not valid JSON.'] });
  }
}
