// One store through two doors: both answer from the same calls; the second serves its own fault or
// readings and its own keys; a reading of the store itself is served from a store built alike, standing still only.
import { test, expect } from '@playwright/test';
import { openTwoDoors } from '../../reference/two-doors.ts';
import { findFault } from '../../reference/faults/catalog.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';

const get = async (base: string, path: string, key: string) => {
  const response = await fetch(`${base}${path}`, { headers: { apikey: key } });
  return { status: response.status, body: (await response.json()) as { data: Array<Record<string, unknown>> } };
};

test('the two doors list the same calls; the second answers with its fault, its readings and its keys', async () => {
  const doors = await openTwoDoors(
    { calls: 50 },
    { fault: findFault('receiver-missing-for-groups')!, keys: { fullAccess: 'second-door-key-123' } },
  );
  try {
    const [first, second] = [
      await get(doors.primary, '/calls?perPage=50', DEMO_KEYS.fullAccess),
      await get(doors.candidate, '/calls?perPage=50', 'second-door-key-123'),
    ];
    expect(second.body.data.map((call) => call.sessionId)).toEqual(first.body.data.map((call) => call.sessionId));
    const groups = first.body.data.filter((call) => call.receiverType === 'group').map((call) => call.sessionId);
    expect(groups.length).toBeGreaterThan(0);
    expect(second.body.data.filter((call) => groups.includes(call.sessionId)).every((call) => !('receiver' in call))).toBe(true);
    expect(first.body.data.filter((call) => groups.includes(call.sessionId)).every((call) => 'receiver' in call)).toBe(true);
    expect((await get(doors.candidate, '/calls', DEMO_KEYS.fullAccess)).status).toBe(401);
  } finally {
    await doors.close();
  }
  const oldest = await openTwoDoors({ calls: 50 }, { alternatives: ['oldest-first'] });
  try {
    const [first, second] = [
      await get(oldest.primary, '/calls?perPage=50', DEMO_KEYS.fullAccess),
      await get(oldest.candidate, '/calls?perPage=50', DEMO_KEYS.fullAccess),
    ];
    expect(second.body.data.map((call) => call.sessionId)).toEqual(first.body.data.map((call) => call.sessionId).reverse());
  } finally {
    await oldest.close();
  }
  // A reading of the store is served from a store of its own, built alike: the same calls, standing still only.
  const exact = await openTwoDoors({ calls: 50 }, { alternatives: ['dates-exact'], readings: 'deployment' });
  try {
    const [first, second] = [
      await get(exact.primary, '/calls?perPage=50', DEMO_KEYS.fullAccess),
      await get(exact.candidate, '/calls?perPage=50', DEMO_KEYS.fullAccess),
    ];
    expect(second.body.data.map((call) => call.sessionId)).toEqual(first.body.data.map((call) => call.sessionId));
  } finally {
    await exact.close();
  }
  await expect(openTwoDoors({ calls: 50, live: { rate: 1 } }, { alternatives: ['dates-exact'] })).rejects.toThrow(/standing still only/);
});
