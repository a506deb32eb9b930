// API-key authentication (specification section 5): the key travels in the `apikey` header, whose
// name node:http has already lower-cased, so any letter case of the name is accepted.
import type { IncomingMessage } from 'node:http';
import { errors } from './errors.ts';

export type Scope = 'fullAccess' | 'readOnly';

export interface ApiKeys {
  fullAccess: string;
  readOnly: string;
}

export function authenticate(req: IncomingMessage, keys: ApiKeys): Scope {
  const presented = req.headers.apikey;
  const key = Array.isArray(presented) ? presented.join(',') : presented;
  if (key === undefined || key.trim() === '') throw errors.emptyApiKey();
  if (key === keys.fullAccess) return 'fullAccess';
  if (key === keys.readOnly) return 'readOnly';
  throw errors.apiKeyNotFound();
}

export function requireFullAccess(scope: Scope): void {
  if (scope !== 'fullAccess') throw errors.noAccess();
}
