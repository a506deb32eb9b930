// The two wires the transport's tests run over: Node's own client (the default), and Playwright's
// request context through the gateway (runs with tracing).
import type { APIRequestContext } from '@playwright/test';
import type { SuiteConfig } from '../../core/run/config.ts';
import { startGateway } from '../../core/transport/gateway.ts';
import { secretPlaceholders } from '../../core/transport/transport.ts';
import { directWire, requestContextWire, type Wire } from '../../core/transport/wire.ts';

export const WIRES = ['direct', 'request context'] as const;
export type WireKind = (typeof WIRES)[number];

export async function wireOf(kind: WireKind, request: APIRequestContext, config: SuiteConfig): Promise<Wire> {
  const secrets = secretPlaceholders(config);
  const limits = { maxBodyBytes: config.maxBodyBytes, timeoutMs: config.requestTimeoutMs };
  if (kind === 'direct') return directWire(secrets, limits, 8);
  return requestContextWire(request, await startGateway({ secrets, ...limits }), secrets, config.requestTimeoutMs);
}
