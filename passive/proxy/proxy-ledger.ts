// What every client connection of one judging proxy shares: the counts, the exchanges in flight,
// whether it is stopping (and cutting what is left), the client connections open, and the hand-off
// of each exchange passed whole to the sinks. proxy.ts reads it to stop and to count; each
// connection (proxy-connection.ts) writes to it.
import type { Socket } from 'node:net';
import { Receipts } from './proxy-receipt.ts';
import type { PassedExchange, PassedExchangeSink, ProxyCounts } from './proxy.ts';
import { isSecretHeader } from '../redaction.ts';

const ERROR_SAMPLES = 5;
/** Credential header names kept: a client can make up any number of them (x-token-1, x-token-2, …). */
const MAX_CREDENTIAL_HEADERS = 50;

export class ProxyLedger {
  readonly counts: ProxyCounts = {
    exchanges: 0,
    upstreamErrors: 0,
    upstreamErrorSamples: [],
    timeouts: { connect: 0, firstByte: 0, idle: 0 },
    timeoutSamples: [],
    refused: 0,
    refusedSamples: [],
    keptAliveClosed: 0,
    clientAborts: 0,
    bodiesTooLarge: 0,
    bodiesNotDecodable: 0,
    cutAtStop: 0,
    sinkErrors: 0,
    credentialHeaders: [],
  };
  inFlight = 0;
  pendingDeliveries = 0;
  stopping = false;
  // Set when a stop cuts the exchanges still in flight: they are counted as cut, not as the client's aborts.
  cutting = false;
  readonly receipts = new Receipts();
  /** The open client connections, and how to close each when it is idle. */
  readonly clients = new Map<Socket, { idle: () => boolean }>();
  private sequence = 0;
  private readonly credentials = new Set<string>();

  constructor(private readonly sinks: PassedExchangeSink[]) {}

  /** The next exchange's number, counted from 1. */
  nextId(): number {
    return (this.sequence += 1);
  }

  // The exchange is built (bodies joined and decoded) and judged on a later turn, never before the answer is out.
  deliver(build: () => PassedExchange): void {
    this.pendingDeliveries += 1;
    setImmediate(() => {
      this.pendingDeliveries -= 1;
      const exchange = build();
      const notKept = [exchange.passed.requestBodyNotKept?.kind, exchange.passed.responseBodyNotKept?.kind];
      if (notKept.includes('too large')) this.counts.bodiesTooLarge += 1;
      else if (notKept.includes('not decodable')) this.counts.bodiesNotDecodable += 1;
      for (const sink of this.sinks) {
        try {
          sink.add(exchange);
        } catch (error) {
          this.counts.sinkErrors += 1;
          process.stderr.write(`judging proxy: ${exchange.source} could not be recorded: ${(error as Error).message}\n`);
        }
      }
    });
  }

  sample(samples: string[], text: string): void {
    if (samples.length < ERROR_SAMPLES) samples.push(text);
  }

  upstreamFailed(what: string, error: Error): void {
    this.counts.upstreamErrors += 1;
    this.sample(this.counts.upstreamErrorSamples, `${what}: ${error.message}`);
  }

  noteCredentials(fields: ReadonlyArray<[string, string]>): void {
    for (const [field] of fields) {
      if (this.credentials.size >= MAX_CREDENTIAL_HEADERS) return;
      const name = field.toLowerCase();
      if (this.credentials.has(name) || !isSecretHeader(name)) continue;
      this.credentials.add(name);
      this.counts.credentialHeaders.push(name);
    }
  }
}
