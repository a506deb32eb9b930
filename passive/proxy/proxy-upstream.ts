// A client connection's connections to the target (one per route, proxy-routes.ts), and the answers
// read from them: each answer's head read to know its framing, its bytes handed to the client's
// connection as they come, and a target that fails, closes or cuts off a connection met as the
// client would have met it directly (a 502 while no byte of the answer has passed, else the cut).
import type { Socket } from 'node:net';
import type { ClientConnection } from './proxy-connection.ts';
import type { Exchange } from './proxy-exchange.ts';
import type { Route } from './proxy-routes.ts';
import {
  answerFraming,
  BodyReader,
  headEnd,
  MAX_HEAD_BYTES,
  parseHead,
  parseStatusLine,
  type Framing,
  type StatusLine,
} from './proxy-wire.ts';

const EMPTY = Buffer.alloc(0);
const UNPASSABLE = 'sent an answer that cannot be passed on for';

/** One connection to the target, for one client connection and route. */
export interface Upstream {
  socket: Socket;
  route: Route;
  connected: boolean;
  gone: boolean;
  /** The exchange whose answer it carries now. */
  exchange?: Exchange;
  /** The client's connection is not read while this one cannot take more. */
  draining: boolean;
  /** Answers it has carried whole: a connection the target closes after one has been reused, kept alive. */
  answered: number;
}

export class TargetConnections {
  private readonly open = new Map<Route, Upstream>();

  constructor(private readonly connection: ClientConnection) {}

  /** Whether a connection to a target is open for the client. */
  holdsAny(): boolean {
    return this.open.size > 0;
  }

  /** The open connection to the route's target, or a new one. */
  connectionFor(route: Route): Upstream {
    const open = this.open.get(route);
    if (open && !open.gone) return open;
    const upstream: Upstream = { socket: route.connect(), route, connected: false, gone: false, draining: false, answered: 0 };
    this.open.set(route, upstream);
    const { socket } = upstream;
    socket.setNoDelay(true);
    socket.once(route.secure ? 'secureConnect' : 'connect', () => {
      upstream.connected = true;
      upstream.exchange?.deadline.connectedNow();
    });
    socket.on('data', (chunk: Buffer) => this.fromTarget(upstream, chunk));
    socket.on('end', () => this.gone(upstream));
    socket.on('error', (error) => this.gone(upstream, error));
    socket.on('close', () => this.gone(upstream));
    return upstream;
  }

  close(upstream: Upstream): void {
    upstream.gone = true;
    upstream.exchange = undefined;
    if (this.open.get(upstream.route) === upstream) this.open.delete(upstream.route);
    upstream.socket.destroy();
  }

  closeAll(): void {
    for (const upstream of [...this.open.values()]) this.close(upstream);
  }

  private failBeforeAnswer(exchange: Exchange, error: Error, failure = 'could not be reached for'): void {
    const { connection } = this;
    if (exchange.broken || connection.ledger.cutting) return;
    this.close(exchange.upstream);
    connection.settle(exchange, 'target');
    connection.ledger.upstreamFailed(exchange.what, error);
    if (exchange.begun) return void connection.client.destroy();
    connection.answerAndClose(502, `judging proxy: the target ${exchange.target.origin} ${failure} ${exchange.what}: ${error.message}\n`);
  }

  /** An answer the proxy cannot pass on: a 502 that says why. */
  private unpassable(exchange: Exchange, why: string): void {
    this.failBeforeAnswer(exchange, new Error(why), UNPASSABLE);
  }

  private toClient(bytes: Buffer, exchange: Exchange, last: boolean): void {
    const { client } = this.connection;
    const more = client.write(bytes, last ? (error) => this.connection.flushed(exchange, error) : undefined);
    const upstream = exchange.upstream;
    if (!more && !upstream.draining) {
      upstream.draining = true;
      upstream.socket.pause();
      client.once('drain', () => {
        upstream.draining = false;
        if (!upstream.gone) upstream.socket.resume();
      });
    }
  }

  private fromTarget(upstream: Upstream, chunk: Buffer): void {
    const exchange = upstream.exchange;
    // Bytes no request asked for (a target's 408 on an idle connection, say): that connection is done.
    if (exchange === undefined || exchange.broken) return void this.close(upstream);
    if (exchange.answer) return this.answerPiece(exchange, chunk);
    const head = exchange.answerHead.length === 0 ? chunk : Buffer.concat([exchange.answerHead, chunk]);
    const end = headEnd(head);
    if (end === -1) {
      if (head.length > MAX_HEAD_BYTES * 4) return this.unpassable(exchange, 'its head is over 64 KiB');
      exchange.answerHead = head;
      return;
    }
    exchange.answerHead = EMPTY;
    this.answerHead(upstream, exchange, head, end);
  }

  /** An answer's head, whole (it ends at `end`): an interim one passed on, a final one begun, or one that cannot pass. */
  private answerHead(upstream: Upstream, exchange: Exchange, head: Buffer, end: number): void {
    const parsed = parseHead(head.toString('latin1', 0, end - 4));
    const statusLine = 'error' in parsed ? undefined : parseStatusLine(parsed.startLine);
    if ('error' in parsed || statusLine === undefined)
      return this.unpassable(
        exchange,
        'error' in parsed ? parsed.error : `a status line that is not HTTP/1.x: ${JSON.stringify(parsed.startLine.slice(0, 60))}`,
      );
    const rest = head.subarray(end);
    if (statusLine.status < 200) return this.interim(upstream, exchange, statusLine.status, head, end);
    const framing = answerFraming(exchange.method, statusLine.status, parsed.fields);
    if ('error' in framing) return this.unpassable(exchange, framing.error);
    const body = this.answerBegins(exchange, statusLine, parsed.fields, framing);
    if (body.done) {
      // No body: bytes after the head were never asked for, and the connection to the target is not used again.
      if (rest.length > 0) exchange.closeAfter = true;
      this.toClient(head.subarray(0, end), exchange, true);
      return this.connection.answerComplete(exchange);
    }
    // The head and what came of the body with it, in one write.
    this.answerPiece(exchange, head, end);
  }

  private interim(upstream: Upstream, exchange: Exchange, status: number, head: Buffer, end: number): void {
    // No upgrade is asked for (Upgrade is not passed on): a 101 is not an answer the proxy can pass.
    if (status === 101) return this.unpassable(exchange, '101 Switching Protocols, not asked for');
    // An interim answer (100 Continue, 103 Early Hints) passes on as it came; the final one follows.
    this.connection.client.write(head.subarray(0, end));
    const rest = head.subarray(end);
    if (rest.length > 0) this.fromTarget(upstream, rest);
  }

  /** The final answer's head is read: the exchange's answer has begun, and its body is read as it frames it. */
  private answerBegins(exchange: Exchange, statusLine: StatusLine, fields: Array<[string, string]>, framing: Framing): BodyReader {
    exchange.answer = {
      status: statusLine.status,
      statusText: statusLine.statusText,
      httpVersion: statusLine.version,
      fields,
    };
    exchange.headersAt = performance.now();
    exchange.deadline.answeredNow();
    this.connection.ledger.noteCredentials(fields);
    if (framing.kind === 'until close') exchange.closeAfter = true;
    exchange.answerBody = new BodyReader(framing, (part) => exchange.responseCopy.add(part));
    exchange.begun = true;
    return exchange.answerBody;
  }

  /** A piece of the answer's body, after `lead` bytes of its head in the same buffer (passed on in one write with them). */
  private answerPiece(exchange: Exchange, piece: Buffer, lead = 0): void {
    exchange.deadline.touch();
    let used: number;
    try {
      used = exchange.answerBody!.feed(lead === 0 ? piece : piece.subarray(lead));
    } catch (error) {
      this.close(exchange.upstream);
      this.connection.settle(exchange, 'target');
      const why = `the target's answer is not framed as its headers say: ${(error as Error).message}`;
      this.connection.ledger.upstreamFailed(exchange.what, new Error(why));
      return void this.connection.client.destroy();
    }
    // Bytes past the end of the answer were never asked for: the connection to the target is not used again.
    if (lead + used < piece.length) exchange.closeAfter = true;
    const done = exchange.answerBody!.done;
    if (lead + used > 0) this.toClient(lead + used === piece.length ? piece : piece.subarray(0, lead + used), exchange, done);
    if (done) this.connection.answerComplete(exchange);
  }

  private gone(upstream: Upstream, error?: NodeJS.ErrnoException): void {
    if (upstream.gone) return;
    const exchange = upstream.exchange;
    const { connection } = this;
    this.close(upstream);
    if (exchange === undefined) {
      // The target closed an idle connection: so does the proxy the client's, as the target would have.
      if (connection.idle() && !connection.closed) connection.client.end();
      return;
    }
    if (exchange.broken || connection.ledger.cutting) return;
    if (exchange.answerBody?.closed()) {
      // An answer framed by the close of its connection: whole.
      this.toClient(EMPTY, exchange, true);
      return connection.answerComplete(exchange);
    }
    if (this.closedAsKeptAlive(upstream, exchange, error)) return;
    if (!exchange.begun)
      return this.failBeforeAnswer(
        exchange,
        error ?? new Error('the target closed the connection without answering (socket hang up)'),
        error && !upstream.connected ? 'could not be reached for' : 'did not answer',
      );
    // An answer the target cut off half-way is cut off for the client too, never completed by the proxy.
    connection.settle(exchange, 'target');
    connection.ledger.upstreamFailed(exchange.what, error ?? new Error('the target closed the connection before the end of its answer'));
    connection.client.destroy();
  }

  /** Whether the target's close (or reset) was that of a connection kept alive, met as the client meets it. */
  private closedAsKeptAlive(upstream: Upstream, exchange: Exchange, error: NodeJS.ErrnoException | undefined): boolean {
    const reset = error?.code === 'ECONNRESET';
    const raced =
      !exchange.begun &&
      (error === undefined || reset) &&
      upstream.answered > 0 &&
      exchange.answerHead.length === 0 &&
      exchange.answer === undefined;
    if (!raced) return false;
    // The target closed (or reset) a connection it had kept alive just as this request reached
    // it: the race every keep-alive client meets, and meets as a connection closed (or reset)
    // with no answer, which it may send again on a new one (an idempotent request on a reused
    // connection). So the proxy closes (or resets) the client's connection with no answer, as the
    // target did, rather than answer 502.
    const { connection } = this;
    connection.settle(exchange, 'target');
    connection.ledger.counts.keptAliveClosed += 1;
    connection.ending = true;
    if (reset) connection.client.resetAndDestroy();
    else connection.client.end();
    return true;
  }
}
