// The two read operations as the auth tests send them: Get Call asks for a call that exists, so
// that the key is the only thing that can be wrong with the request.
import type { CallsApi, RequestOptions } from '../../core/transport/api.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import type { TargetSample } from '../../core/learning/target-sample.ts';
import { travelsInAPath } from '../../core/transport/header-value.ts';
import { lastMomentOf } from '../../core/checks/settling.ts';
import type { SeenCall } from '../../core/checks/calls-in.ts';

export interface ReadOperation {
  operation: 'listCalls' | 'getCall';
  label: string;
  send(api: CallsApi, sample: TargetSample, options: RequestOptions): Promise<Exchange>;
}

/**
 * The sampled call that has been still the longest (its last moment the oldest): behind a read
 * replica, Get Call answers from some seconds back (core/checks/answer-age.ts), where a call logged
 * just before the sample may not exist yet, and the key would be blamed for a call not found.
 */
function knownSessionId(sample: TargetSample): string {
  const moment = ({ call }: SeenCall) => lastMomentOf(call) ?? Number.POSITIVE_INFINITY;
  const oldest = [...sample.calls].sort((a, b) => moment(a) - moment(b));
  return oldest.map(({ call }) => call.sessionId).find(travelsInAPath) ?? 'no-call-was-sampled';
}

export const READ_OPERATIONS: readonly ReadOperation[] = [
  { operation: 'listCalls', label: 'GET /calls', send: (api, _sample, options) => api.listCalls({}, options) },
  { operation: 'getCall', label: 'GET /calls/{sessionId}', send: (api, sample, options) => api.getCall(knownSessionId(sample), options) },
];
