// The bounds on a client connection's own pace, as Node's http server kept them: its request's head
// within a while, the whole request within a longer one, and an idle connection closed after a
// while. One clock per client connection (proxy-connection.ts), running for one wait at a time.

/** Node's http server's own bounds on a client, kept: its request's head within 60 s, the whole request within 300 s. */
const HEADERS_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 300_000;
/**
 * A client connection left idle is closed after this while the proxy holds no connection to the
 * target for it (Node's keepAliveTimeout, as before). Once it holds one, the target's own keep-alive
 * decides: the proxy closes the client's connection when the target closes its own, so that the
 * client sees the target's behaviour, bounded by IDLE_CLIENT_MAX_MS.
 */
const IDLE_CLIENT_MS = 5_000;
const IDLE_CLIENT_MAX_MS = 600_000;

/** What the client's connection waits for: the rest of a request's head, the rest of its request, or its next request. */
export type ClientWait = 'head' | 'request' | 'idle';

export interface ClientBounds {
  headMs: number;
  requestMs: number;
  idleMs: number;
  /** The idle bound while the proxy holds a connection to the target for the client. */
  idleMaxMs: number;
}

const NODE_BOUNDS: Readonly<ClientBounds> = {
  headMs: HEADERS_TIMEOUT_MS,
  requestMs: REQUEST_TIMEOUT_MS,
  idleMs: IDLE_CLIENT_MS,
  idleMaxMs: IDLE_CLIENT_MAX_MS,
};

export class ClientClock {
  private timer: NodeJS.Timeout | undefined;
  private waitingFor: ClientWait | undefined;

  constructor(
    /** Whether the proxy holds a connection to the target for this client now. */
    private readonly holdsUpstream: () => boolean,
    /** The wait ran out. */
    private readonly ranOut: (wait: ClientWait) => void,
    private readonly bounds: Readonly<ClientBounds> = NODE_BOUNDS,
  ) {}

  /** Starts the wait, unless it is the one already running. */
  arm(wait: ClientWait): void {
    if (this.waitingFor === wait && this.timer) return;
    clearTimeout(this.timer);
    this.waitingFor = wait;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ranOut(wait);
    }, this.ms(wait));
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waitingFor = undefined;
  }

  private ms(wait: ClientWait): number {
    if (wait === 'head') return this.bounds.headMs;
    if (wait === 'request') return this.bounds.requestMs;
    return this.holdsUpstream() ? this.bounds.idleMaxMs : this.bounds.idleMs;
  }
}
