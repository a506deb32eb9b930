// The rate tests' door (counting-door.ts) is itself tested: what passes through it is the server's
// answer, every request is noted, and one that arrived while the door could not run is known only
// within that spell, never placed only at the moment it was read.
import { test, expect } from '@playwright/test';
import { startCountingDoor, type CountingDoor } from './counting-door.ts';
import { json, startScriptedServer } from '../transport/scripted-server.ts';

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

async function doorInFront() {
  const server = await startScriptedServer((request, response) => {
    response.setHeader('x-rate-limit-remaining', '7');
    json(response, request.url?.includes('missing') ? 404 : 200, { data: [{ id: 'call-1' }] });
  });
  const door = await startCountingDoor(server.base);
  return { server, door, close: async () => (await door.close(), await server.close()) };
}

test('the door passes each request to the server and its answer back, and notes when it arrived', async () => {
  const { server, door, close } = await doorInFront();
  try {
    const answer = await fetch(`${door.base}/calls?perPage=1`, { headers: { apikey: 'door-key' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-rate-limit-remaining')).toBe('7');
    expect(await answer.json()).toEqual({ data: [{ id: 'call-1' }] });
    expect((await fetch(`${door.base}/calls/missing`)).status).toBe(404);
    expect(server.received.map(({ url, headers }) => [url, headers.apikey])).toEqual([['/v3/calls?perPage=1', 'door-key'], ['/v3/calls/missing', undefined]]);
    const arrivals = await door.arrivals();
    expect(arrivals).toHaveLength(2);
    for (const { earliest, at } of arrivals) expect(earliest).toBe(at);
  } finally {
    await close();
  }
});

// The two ways a spell ends: the heartbeat runs before the requests are read (after work of the
// door's own) or after them (a process the system stopped reads what came as it wakes).
for (const [kept, keep] of [
  ['busy with work of its own', (door: CountingDoor) => (door.hold(400), pause(400))],
  ['stopped by the system', (door: CountingDoor) => door.stop(400)],
] as const) {
  test(`requests that arrive while the door is ${kept} are known only within that spell`, async () => {
    const { door, close } = await doorInFront();
    try {
      await fetch(`${door.base}/calls`);
      const spell = keep(door);
      await pause(100);
      const held = Promise.all([fetch(`${door.base}/calls`), fetch(`${door.base}/calls`)]);
      await spell;
      expect((await held).map((answer) => answer.status)).toEqual([200, 200]);
      await pause(100);
      await fetch(`${door.base}/calls`);
      const [before, ...rest] = await door.arrivals();
      const after = rest.pop()!;
      expect(before!.earliest).toBe(before!.at);
      expect(after.earliest).toBe(after.at);
      // They came about 100 ms into a 400 ms spell and were read at its end: each may have come at
      // any time in it, so each is placed from before they came.
      expect(rest).toHaveLength(2);
      for (const { earliest, at } of rest) expect(at - earliest).toBeGreaterThan(300);
    } finally {
      await close();
    }
  });
}
