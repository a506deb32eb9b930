import type { IncomingMessage } from 'node:http';
import type { Store } from '../store.ts';
import type { Scope } from '../auth.ts';
import type { FaultHooks } from '../faults/fault.ts';
import type { GetEnvelope } from '../get-envelope.ts';

/** What a route handler gets: the exchange, the store, the caller's scope and the server's fault (if any). */
export interface RequestContext {
  req: IncomingMessage;
  search: URLSearchParams;
  store: Store;
  scope: Scope;
  fault: FaultHooks;
  /** The envelope Get Call answers in (reference/get-envelope.ts). */
  getEnvelope: GetEnvelope;
}
