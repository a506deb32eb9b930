// The benchmark's comparison of HTTP clients (`npm run bench -- --clients-only`) runs against a real reference (a few requests each, so
// that it cannot rot between benchmarks), and its table sets each client beside the direct wire.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { measureClients, renderClients } from './clients.ts';

test('every client is measured against the reference, each answer a 200, and the table sets each beside the direct wire', async () => {
  const reference = createServer({ calls: 200 });
  try {
    const costs = await measureClients(await reference.listen(0), 20, 1);
    expect(costs.map((cost) => cost.client)).toEqual([
      'direct wire (Node http, the default)',
      'request context through the gateway (tracing on)',
      'request context, key put in by the suite',
      'fetch (undici)',
    ]);
    for (const cost of costs) {
      expect(cost.cpuMsPerRequest, cost.client).toBeGreaterThan(0);
      expect(cost.wallMsPerRequest, cost.client).toBeGreaterThan(0);
    }
  } finally {
    await reference.close();
  }
  const table = renderClients([
    { client: 'direct', cpuMsPerRequest: 0.5, wallMsPerRequest: 0.8 },
    { client: 'request context', cpuMsPerRequest: 2, wallMsPerRequest: 2.4 },
  ]);
  expect(table).toContain('| direct | 0.50 ms | 0.80 ms | 1.00x |');
  expect(table).toContain('| request context | 2.00 ms | 2.40 ms | 4.00x |');
});
