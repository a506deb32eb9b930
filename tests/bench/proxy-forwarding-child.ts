// A one-off experiment (issue 36, item 2): one forwarder in a process of its own, judge off.
// `http`: the judging proxy as it is (passive/proxy/proxy.ts), no sinks (bodies still captured).
// The mode's name is from before commit 0673cc7, when the proxy forwarded through Node's http module.
// `pipe`: one upstream socket per client connection, bytes piped both ways as they come, the
// request head's Host rewritten, and a cheap boundary tracker (status line, headers,
// content-length or chunked framing) on the answer, keeping a copy of each body as the judge would.
import { connect, createServer, type Socket } from 'node:net';
import { startJudgingProxy } from '../../passive/proxy/proxy.ts';

const [mode, rawTarget] = process.argv.slice(2);
const target = new URL(rawTarget!);

if (mode === 'http') {
  const proxy = await startJudgingProxy({ target, sinks: [], port: 0 });
  process.stdout.write(`listening ${proxy.address}\n`);
  process.on('SIGINT', () => process.exit(0));
} else {
  let exchanges = 0;
  let bytesKept = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    pipeRequests(client, upstream, target.host);
    const tracker = new AnswerTracker((body) => {
      exchanges += 1;
      bytesKept += body.length;
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
      tracker.feed(chunk);
    });
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  });
  process.on('SIGTERM', () => {
    process.stderr.write(`pipe: ${exchanges} answers tracked, ${bytesKept} body bytes kept\n`);
    process.exit(0);
  });
}

/** The request side: each head (small) is parsed and its Host rewritten; bodies (none here) pass as they come. */
function pipeRequests(client: Socket, upstream: Socket, host: string): void {
  let pending: Buffer = Buffer.alloc(0);
  client.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = pending.subarray(0, end).toString('latin1');
      pending = pending.subarray(end + 4);
      const lines = head.split('\r\n');
      const rewritten = lines.map((line, index) => (index > 0 && /^host:/i.test(line) ? `${line.slice(0, 4)}: ${host}` : line));
      upstream.write(`${rewritten.join('\r\n')}\r\n\r\n`, 'latin1');
    }
  });
  client.on('end', () => upstream.end());
}

/** Finds where each answer ends, keeping a copy of its body: content-length or chunked. */
class AnswerTracker {
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' = 'head';
  private headBytes: Buffer[] = [];
  private remaining = 0;
  private body: Buffer[] = [];
  private bodySize = 0;
  private line = '';

  constructor(private readonly done: (body: Buffer) => void) {}

  feed(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'head') {
        const joined = this.headBytes.length === 0 ? chunk.subarray(at) : Buffer.concat([...this.headBytes, chunk.subarray(at)]);
        const end = joined.indexOf('\r\n\r\n');
        if (end === -1) {
          this.headBytes = [joined];
          return;
        }
        const consumed = end + 4 - (joined.length - (chunk.length - at));
        const head = joined.subarray(0, end).toString('latin1');
        this.headBytes = [];
        at += consumed;
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const chunked = /\r\ntransfer-encoding:[^\r]*chunked/i.test(head);
        if (chunked) this.state = 'chunk-size';
        else if (length) {
          this.remaining = Number(length[1]);
          this.state = 'length';
          if (this.remaining === 0) this.finish();
        } else this.finish();
      } else if (this.state === 'length') {
        const take = Math.min(this.remaining, chunk.length - at);
        this.keep(chunk.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) this.finish();
      } else if (this.state === 'chunk-data') {
        const take = Math.min(this.remaining, chunk.length - at);
        this.keep(chunk.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'chunk-crlf';
      } else {
        const newline = chunk.indexOf(10, at);
        if (newline === -1) {
          this.line += chunk.subarray(at).toString('latin1');
          return;
        }
        this.line += chunk.subarray(at, newline).toString('latin1');
        at = newline + 1;
        const line = this.line.replace(/\r$/, '');
        this.line = '';
        if (this.state === 'chunk-crlf') this.state = 'chunk-size';
        else if (this.state === 'chunk-size') {
          this.remaining = parseInt(line, 16);
          this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
        } else if (line === '') this.finish();
      }
    }
  }

  private keep(part: Buffer): void {
    this.body.push(part);
    this.bodySize += part.length;
  }

  private finish(): void {
    const body = Buffer.concat(this.body, this.bodySize);
    this.body = [];
    this.bodySize = 0;
    this.state = 'head';
    this.done(body);
  }
}
