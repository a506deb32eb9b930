// Raw HTTP for what Playwright's request context cannot send: a body streamed in chunks without a
// Content-Length, on a connection the caller keeps alive. Every wait is bounded.
import { request, type Agent } from 'node:http';
import type { Answer } from '../reference-fixtures.ts';

export interface ChunkedRequest {
  method: string;
  headers: Record<string, string>;
  /** Sent one write each; none means no body. */
  chunks?: Iterable<string>;
  agent: Agent;
  timeoutMs: number;
}

export function sendChunked(url: string, { method, headers, chunks = [], agent, timeoutMs }: ChunkedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const answerHeaders = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)]));
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text, body: parseJson(text) });
      });
      res.on('error', (error) => reject(new Error(`${method} ${url.slice(0, 120)}: the answer broke off: ${error.message}`)));
    });
    req.on('error', (error) =>
      reject(
        new Error(
          `${method} ${url.slice(0, 120)} got no complete answer: ${error.name === 'AbortError' ? `none within ${timeoutMs} ms` : error.message}`,
        ),
      ),
    );
    void writeAll(req, chunks);
  });
}

async function writeAll(req: ReturnType<typeof request>, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
  }
  req.end();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
