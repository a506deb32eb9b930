// The two read operations as the auth tests send them: Get Call asks for a call that exists, so
// that the key is the only thing that can be wrong with the request.
import type { CallsApi, RequestOptions } from '../../core/transport/api.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { TargetSample } from '../../core/learning/target-sample.ts';
import { travelsInAPath } from '../../core/transport/header-value.ts';

export interface ReadOperation {
  operation: 'listCalls' | 'getCall';
  label: string;
  send(api: CallsApi, sample: TargetSample, options: RequestOptions): Promise<Exchange>;
}

const knownSessionId = (sample: TargetSample): string =>
  sample.calls.map(({ call }) => call.sessionId).find(travelsInAPath) ?? 'no-call-was-sampled';

export const READ_OPERATIONS: readonly ReadOperation[] = [
  { operation: 'listCalls', label: 'GET /calls', send: (api, _sample, options) => api.listCalls({}, options) },
  { operation: 'getCall', label: 'GET /calls/{sessionId}', send: (api, sample, options) => api.getCall(knownSessionId(sample), options) },
];
