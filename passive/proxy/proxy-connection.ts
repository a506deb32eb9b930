// One client connection of the judging proxy: its requests read in turn (the next ones read ahead
// while one is in flight, up to a bound), each passed on this connection's own connection to its
// target (proxy-upstream.ts), under the client's own bounds (proxy-client-clock.ts) and the target's
// (proxy-deadline.ts); each exchange counted out of those in flight once, and handed to the sinks
// once the client is seen to take its answer (proxy-receipt.ts).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BodyCapture, MAX_CAPTURED_BODY_BYTES } from './proxy-capture.ts';
import { ClientClock, type ClientWait } from './proxy-client-clock.ts';
import { timeoutReason, UpstreamDeadline, type UpstreamTimeouts, type UpstreamWait } from './proxy-deadline.ts';
import { recorded, type Exchange } from './proxy-exchange.ts';
import type { ProxyLedger } from './proxy-ledger.ts';
import { forwardedHead, hostRefusal, takeRequestHead, type RequestHead } from './proxy-request-head.ts';
import { forwardedTarget } from './proxy-request-target.ts';
import type { Route, Routes } from './proxy-routes.ts';
import { TargetConnections, type Upstream } from './proxy-upstream.ts';
import { BodyReader, keepsAlive, type Framing } from './proxy-wire.ts';
import type { JudgingProxyOptions } from './proxy.ts';

/** Bytes of a client's next requests read ahead while one is in flight, past which its connection is not read. */
const MAX_READ_AHEAD_BYTES = 2 ** 20;
const EMPTY = Buffer.alloc(0);

/** What a client connection takes of the proxy it belongs to. */
export interface ConnectionSettings {
  options: JudgingProxyOptions;
  routes: Routes;
  timeouts: UpstreamTimeouts;
  ledger: ProxyLedger;
}

/** One client connection: its requests in turn, each on this connection's own connection to its target. */
export class ClientConnection {
  readonly ledger: ProxyLedger;
  /** The exchange whose request or answer is passing now. */
  private current: Exchange | undefined;
  /** Bytes of the client's next requests, read and not yet passed on. */
  private pending: Buffer = EMPTY;
  /** Exchanges whose last byte was handed to the client's connection, not yet to the kernel. */
  private readonly unflushed = new Set<Exchange>();
  private readonly targets = new TargetConnections(this);
  private readonly clock = new ClientClock(
    () => this.targets.holdsAny(),
    (wait) => this.clientRanOut(wait),
  );
  /** Nothing more is read: the connection closes once what is under way is out. */
  ending = false;
  closed = false;
  private readAheadPaused = false;

  constructor(
    readonly client: Socket,
    private readonly settings: ConnectionSettings,
  ) {
    this.ledger = settings.ledger;
    client.setNoDelay(true);
    this.ledger.clients.set(client, { idle: () => this.idle() });
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    // The client closed its side: as Node's server did, what it had not had whole is given up, and the connection closed.
    client.on('end', () => {
      if (this.current) return void client.destroy();
      client.end();
    });
    client.on('error', () => undefined);
    client.on('close', () => this.clientClosed());
    this.clock.arm('idle');
  }

  idle(): boolean {
    return this.current === undefined && this.unflushed.size === 0 && this.pending.length === 0;
  }

  /** The exchange leaves the count in flight, once: `broken` says why it was not passed whole. */
  settle(exchange: Exchange, broken?: 'target' | 'client'): boolean {
    if (broken && !exchange.broken) exchange.broken = broken;
    exchange.deadline.clear();
    if (this.current === exchange) this.current = undefined;
    this.unflushed.delete(exchange);
    if (exchange.settled) return false;
    exchange.settled = true;
    this.ledger.inFlight -= 1;
    return true;
  }

  /** The proxy's own answer, and the connection closed after it: nothing more can follow it safely. */
  answerAndClose(status: number, body: string): void {
    this.ending = true;
    answerPlain(this.client, status, body);
  }

  /** The answer's last byte reached the kernel: passed whole, judged once the client is seen to take it. */
  flushed(exchange: Exchange, error: Error | null | undefined): void {
    if (error || exchange.broken || !this.settle(exchange)) return;
    const { ledger } = this;
    const { options } = this.settings;
    ledger.receipts.hold(
      this.client,
      () => {
        ledger.counts.exchanges += 1;
        options.sampler?.passed(exchange.sampledIn);
        if (exchange.sampledIn) ledger.deliver(() => recorded(exchange, options.bodyTexts ?? true));
      },
      () => void (ledger.counts.clientAborts += 1),
    );
  }

  /** The answer's last byte handed to the client's connection: the next request, or the connection closed. */
  answerComplete(exchange: Exchange): void {
    exchange.deadline.clear();
    exchange.responseCopy.seal();
    exchange.answered = true;
    const answer = exchange.answer!;
    if (
      !exchange.requestDone ||
      this.ledger.stopping ||
      !keepsAlive(answer.httpVersion, answer.fields) ||
      !keepsAlive(exchange.requestVersion, exchange.requestFields)
    )
      exchange.closeAfter = true;
    this.current = undefined;
    this.unflushed.add(exchange);
    exchange.upstream.answered += 1;
    if (exchange.closeAfter) {
      this.targets.close(exchange.upstream);
      this.ending = true;
      this.client.end();
      return;
    }
    exchange.upstream.exchange = undefined;
    if (this.readAheadPaused) {
      this.readAheadPaused = false;
      this.client.resume();
    }
    this.next();
  }

  private clientRanOut(wait: ClientWait): void {
    if (wait === 'idle') return void this.client.end();
    // Node's server answered a request that took too long to come 408; so does the proxy.
    // The client did not send its whole request in time: its exchange is its own abort.
    if (this.current && !this.current.begun) {
      this.targets.close(this.current.upstream);
      if (this.settle(this.current, 'client') && !this.ledger.cutting) this.ledger.counts.clientAborts += 1;
    }
    if (this.current?.begun) return void this.client.destroy();
    answerPlain(this.client, 408, 'judging proxy: the request did not come whole in time\n');
    this.ending = true;
  }

  private fromClient(chunk: Buffer): void {
    if (this.ending || this.closed) return;
    const { current } = this;
    if (current && !current.requestDone) return this.requestPiece(current, chunk);
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    if (current) {
      if (this.pending.length > MAX_READ_AHEAD_BYTES && !this.readAheadPaused) {
        this.readAheadPaused = true;
        this.client.pause();
      }
      return;
    }
    this.next();
  }

  private clientClosed(): void {
    this.closed = true;
    this.clock.disarm();
    this.ledger.clients.delete(this.client);
    for (const exchange of [...this.unflushed, ...(this.current ? [this.current] : [])]) {
      // The client went away first (or the proxy is stopping and cut it): the target's answer is dropped with it, and not judged.
      if (this.settle(exchange, 'client') && !this.ledger.cutting) this.ledger.counts.clientAborts += 1;
    }
    this.targets.closeAll();
  }

  private toTarget(upstream: Upstream, bytes: Buffer): void {
    if (upstream.socket.write(bytes)) return;
    this.client.pause();
    upstream.socket.once('drain', () => this.readAheadPaused || this.client.resume());
  }

  private requestDone(exchange: Exchange): void {
    exchange.requestDone = true;
    exchange.requestCopy.seal();
    exchange.deadline.sentNow();
    if (this.current === exchange) this.clock.disarm();
  }

  private requestPiece(exchange: Exchange, piece: Buffer): void {
    let used: number;
    try {
      used = exchange.requestBody.feed(piece);
    } catch (error) {
      this.targets.close(exchange.upstream);
      this.settle(exchange, 'client');
      this.ledger.counts.clientAborts += 1;
      if (exchange.begun) return void this.client.destroy();
      return this.refuse(exchange.what, `its body is not framed as its headers say: ${(error as Error).message}`);
    }
    if (used > 0 && !exchange.upstream.gone) this.toTarget(exchange.upstream, used === piece.length ? piece : piece.subarray(0, used));
    if (exchange.requestBody.done) this.requestDone(exchange);
    if (used < piece.length)
      this.pending = this.pending.length === 0 ? piece.subarray(used) : Buffer.concat([this.pending, piece.subarray(used)]);
  }

  private refuse(what: string, why: string): void {
    this.answerAndClose(400, `judging proxy: refused ${what}: ${why}\n`);
  }

  /** The next request, once its head has come whole. */
  private next(): void {
    if (this.current || this.ending || this.closed) return;
    const taken = takeRequestHead(this.pending);
    this.pending = taken.pending;
    if ('wait' in taken) return this.clock.arm(taken.wait);
    if ('refused' in taken) return this.answerAndClose(taken.refused.status, taken.refused.body);
    this.begin(taken.head, taken.rest);
  }

  /** A request whose head has come whole: refused, or passed on to its target with what came of its body. */
  private begin(head: RequestHead, rest: Buffer): void {
    const { ledger } = this;
    const { routes } = this.settings;
    // A client that gave up before reading its answers would not send another request.
    ledger.receipts.nextRequest(this.client);
    ledger.noteCredentials(head.fields);
    const { framing, what } = head;
    if ('error' in framing) return this.refuse(what, framing.error);
    const hostless = hostRefusal(head);
    if (hostless !== undefined) return this.refuse(what, hostless);
    const route = routes.pick(head.target);
    const forwarded = forwardedTarget(head.target, route.target, routes.origins);
    if ('refused' in forwarded) {
      ledger.counts.refused += 1;
      ledger.sample(ledger.counts.refusedSamples, `${what}: ${forwarded.refused}`);
      return this.refuse(what, forwarded.refused);
    }
    const exchange = this.open(head, framing, route, forwarded.url);
    this.clock.arm('request');
    this.toTarget(exchange.upstream, forwardedHead(head, route.target.host));
    if (exchange.requestBody.done) this.requestDone(exchange);
    if (rest.length > 0) {
      if (exchange.requestDone) this.pending = rest;
      else this.requestPiece(exchange, rest);
    }
  }

  /** The exchange of a request passed on: in flight, and current, on the connection to its route's target. */
  private open(head: RequestHead, framing: Framing, route: Route, url: string): Exchange {
    const { ledger, client } = this;
    const { options, timeouts } = this.settings;
    ledger.inFlight += 1;
    // An exchange the sampler leaves out keeps no copy of its bodies: it costs the traffic nothing more.
    const sampledIn = options.sampler?.wants(client) ?? true;
    const upstream = this.targets.connectionFor(route);
    const exchange: Exchange = {
      id: ledger.nextId(),
      startedAt: new Date(),
      t0: performance.now(),
      headersAt: 0,
      what: head.what,
      method: head.method,
      url,
      requestVersion: head.version,
      requestFields: head.fields,
      target: route.target,
      upstream,
      sampledIn,
      requestCopy: new BodyCapture(sampledIn ? MAX_CAPTURED_BODY_BYTES : 0),
      responseCopy: new BodyCapture(sampledIn ? MAX_CAPTURED_BODY_BYTES : 0),
      deadline: new UpstreamDeadline(
        timeouts,
        () => client.writableNeedDrain,
        (wait, ms) => this.targetRanOut(exchange, wait, ms),
      ),
      requestBody: new BodyReader(framing, (part) => exchange.requestCopy.add(part)),
      requestDone: false,
      answerHead: EMPTY,
      begun: false,
      answered: false,
      settled: false,
      closeAfter: false,
    };
    this.current = exchange;
    upstream.exchange = exchange;
    if (upstream.connected) exchange.deadline.connectedNow();
    return exchange;
  }

  // The target ran out a wait: a 504 that says which and how long, or, once the answer has begun, the answer cut off.
  private targetRanOut(exchange: Exchange, wait: UpstreamWait, ms: number): void {
    if (exchange.broken) return;
    const { ledger } = this;
    ledger.counts.timeouts[wait] += 1;
    const reason = timeoutReason(wait, ms, exchange.what);
    ledger.sample(ledger.counts.timeoutSamples, reason);
    this.targets.close(exchange.upstream);
    this.settle(exchange, 'target');
    if (exchange.begun) return void this.client.destroy();
    this.answerAndClose(504, `judging proxy: the target ${exchange.target.origin} ${reason}\n`);
  }
}

/** An answer of the proxy's own, in plain text, after which it closes the connection: why it refused, could not reach, or gave up on the target. */
function answerPlain(client: Socket, status: number, body: string): void {
  const bytes = Buffer.byteLength(body);
  client.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${bytes}\r\nconnection: close\r\n\r\n${body}`,
  );
}
