// Two reference servers on the same data set and readings, one with a fault and one without, so a
// test can compare what the fault changes with what the reference answers. The data set is the
// kill matrix's (seed 5, the default size): large enough for calls of more than 30 entries.
import type { APIRequestContext } from '@playwright/test';
import { createServer, type ReferenceServer } from '../../reference/server.ts';
import type { Fault } from '../../reference/faults/catalog.ts';
import type { ReferenceReadings } from '../../reference/readings.ts';
import { DEFAULT_CALLS } from '../../reference/fixtures.ts';
import { sendRaw, type Answer } from '../reference-fixtures.ts';

const SEED = 5;

export interface PairedServers {
  faulted: ReferenceServer;
  clean: ReferenceServer;
  /** List Calls' or Get Call's answer from the faulted server, then from the clean one, for a path under the base. */
  both(path: string, headers?: Record<string, string>): Promise<[faulted: Answer, clean: Answer]>;
}

export async function withPairedServers(
  request: APIRequestContext,
  options: { fault: Fault; readings: ReferenceReadings },
  run: (servers: PairedServers) => Promise<void>,
): Promise<void> {
  const data = { seed: SEED, calls: DEFAULT_CALLS, readings: options.readings };
  const faulted = createServer({ ...data, fault: options.fault });
  const clean = createServer(data);
  try {
    const bases = await Promise.all([faulted.listen(0), clean.listen(0)]);
    const send = (base: string, path: string, headers: Record<string, string>) =>
      sendRaw(request, `${base}${path}`, { headers: { apikey: faulted.keys.fullAccess, ...headers } });
    await run({
      faulted,
      clean,
      both: (path, headers = {}) => Promise.all([send(bases[0], path, headers), send(bases[1], path, headers)]),
    });
  } finally {
    await Promise.all([faulted.close(), clean.close()]);
  }
}
