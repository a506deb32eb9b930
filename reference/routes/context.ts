import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../store.ts';
import type { Scope } from '../auth.ts';

/** What a route handler gets: the exchange, the store, and the caller's authenticated scope. */
export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  search: URLSearchParams;
  store: Store;
  scope: Scope;
}
