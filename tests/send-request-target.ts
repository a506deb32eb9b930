// A request whose request target is written on the request line exactly as given: the absolute form,
// `*`, or anything else a test needs to send raw (Playwright's request context and fetch always send
// the origin form). Used by the reference's and the judging proxy's tests of the request line.
import { request } from 'node:http';

export interface RequestTargetOptions {
  method?: string;
  headers?: Record<string, string>;
  /** How long the answer may take before the request fails: 10 s by default. */
  timeoutMs?: number;
}

/** `method requestTarget HTTP/1.1` to 127.0.0.1:`port`, with a Host header for it; the answer's status and body text. */
export function sendRequestTarget(
  port: number,
  requestTarget: string,
  options: RequestTargetOptions = {},
): Promise<{ status: number; body: string }> {
  const { method = 'GET', headers = {}, timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, method, path: requestTarget, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: timeoutMs },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`no answer to ${method} ${requestTarget} within ${timeoutMs} ms`)));
    sent.on('error', reject);
    sent.end();
  });
}
