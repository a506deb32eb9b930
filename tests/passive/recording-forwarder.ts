// A forwarder that records what passes through it as HAR 1.2, for the passive self-tests: the
// suite (or any client) is pointed at it, it sends each request on to the target unchanged and keeps
// the exchange as the entry a HAR recorder writes. Playwright's APIRequestContext cannot record a
// HAR (recordHar is a browser context option), and the suite's request log keeps no bodies, so
// recording the bytes on the wire is the faithful way to get a HAR of a suite run.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    queryString: Array<{ name: string; value: string }>;
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
    cookies: [];
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: Array<{ name: string; value: string }>;
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    cookies: [];
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] };
}

export const harOf = (entries: HarEntry[]): Har => ({
  log: { version: '1.2', creator: { name: 'calls-conformance self-test recorder', version: '1' }, entries },
});

const pairs = (headers: IncomingMessage['rawHeaders']) => {
  const list: Array<{ name: string; value: string }> = [];
  for (let index = 0; index < headers.length; index += 2) list.push({ name: headers[index]!, value: headers[index + 1]! });
  return list;
};

const read = (stream: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

export interface RecordingForwarder {
  /** The forwarder's address with the target's path (…/v3). */
  base: string;
  entries: HarEntry[];
  close(): Promise<void>;
}

/** Forwards to `target` (an address such as http://127.0.0.1:PORT/v3); every `base64Every`-th body is recorded base64. */
export async function startRecordingForwarder(target: string, options: { base64Every?: number } = {}): Promise<RecordingForwarder> {
  const targetUrl = new URL(target);
  const entries: HarEntry[] = [];
  const server: Server = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const body = await read(req);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const upstream = httpRequest(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: targetUrl.host },
      },
      (answer) => void record(answer).catch(() => res.destroy()),
    );
    async function record(answer: IncomingMessage): Promise<void> {
      const answerBody = await read(answer);
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      res.end(answerBody);
      const base64 = options.base64Every !== undefined && entries.length % options.base64Every === 0;
      entries.push({
        startedDateTime: new Date(started).toISOString(),
        time: Date.now() - started,
        request: {
          method: req.method ?? 'GET',
          url: url.toString(),
          httpVersion: 'HTTP/1.1',
          headers: pairs(req.rawHeaders),
          queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
          ...(body.length > 0 && { postData: { mimeType: String(req.headers['content-type'] ?? ''), text: body.toString('utf8') } }),
          headersSize: -1,
          bodySize: body.length,
          cookies: [],
        },
        response: {
          status: answer.statusCode ?? 0,
          statusText: answer.statusMessage ?? '',
          httpVersion: 'HTTP/1.1',
          headers: pairs(answer.rawHeaders),
          content: {
            size: answerBody.length,
            mimeType: String(answer.headers['content-type'] ?? ''),
            ...(base64 ? { text: answerBody.toString('base64'), encoding: 'base64' } : { text: answerBody.toString('utf8') }),
          },
          redirectURL: '',
          headersSize: -1,
          bodySize: answerBody.length,
          cookies: [],
        },
        cache: {},
        timings: { send: 0, wait: Date.now() - started, receive: 0 },
      });
    }
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    upstream.end(body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${targetUrl.pathname.replace(/\/$/, '')}`;
  return { base, entries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
