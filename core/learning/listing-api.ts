// What learning the target needs of the client: the two read operations. Learning runs over the
// worker's client once per run, and over a replay of what that run recorded everywhere else
// (learned-target-cache.ts), through this one interface.
import type { CallsApi } from '../transport/api.ts';

export type ListingApi = Pick<CallsApi, 'listCalls' | 'getCall'>;
