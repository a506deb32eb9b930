import type { IncomingMessage } from 'node:http';
import type { Store } from '../store.ts';
import type { Scope } from '../auth.ts';
import type { FaultHooks } from '../faults/fault.ts';
import type { GetEnvelope } from '../get-envelope.ts';
import type { ReferenceAlternative } from '../alternatives.ts';

/** How the server answers where the words leave a choice: the same for every request. */
export interface Serving {
  /** The envelope Get Call answers in (reference/get-envelope.ts). */
  getEnvelope: GetEnvelope;
  /** The readings it serves instead of its own (reference/alternatives.ts). */
  alternatives: readonly ReferenceAlternative[];
}

/** What a route handler gets: the exchange, the store, the caller's scope and the server's fault (if any). */
export interface RequestContext extends Serving {
  req: IncomingMessage;
  search: URLSearchParams;
  store: Store;
  scope: Scope;
  fault: FaultHooks;
}
