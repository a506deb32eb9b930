// The bounds on a client connection's own pace (passive/proxy/proxy-client-clock.ts): one wait at a
// time, the one already running not started again, and the idle bound longer while the proxy holds
// a connection to the target for the client. With bounds of a few tens of milliseconds.
import { test, expect } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientClock, type ClientWait } from '../../passive/proxy/proxy-client-clock.ts';

const BOUNDS = { headMs: 40, requestMs: 80, idleMs: 40, idleMaxMs: 400 };

function clock(holdsUpstream = () => false) {
  const ranOut: Array<{ wait: ClientWait; at: number }> = [];
  const started = performance.now();
  const running = new ClientClock(holdsUpstream, (wait) => ranOut.push({ wait, at: performance.now() - started }), BOUNDS);
  return { running, ranOut };
}

test('a wait runs out once, after its own bound; arming another replaces it, and disarming ends it', async () => {
  const head = clock();
  head.running.arm('head');
  head.running.arm('request');
  await sleep(200);
  expect(head.ranOut.map(({ wait }) => wait)).toEqual(['request']);
  expect(head.ranOut[0]!.at).toBeGreaterThanOrEqual(BOUNDS.requestMs - 1);
  const disarmed = clock();
  disarmed.running.arm('head');
  disarmed.running.disarm();
  await sleep(100);
  expect(disarmed.ranOut).toEqual([]);
});

test('arming the wait already running does not start it again', async () => {
  const { running, ranOut } = clock();
  running.arm('request');
  await sleep(50);
  running.arm('request');
  await sleep(60);
  expect(ranOut.map(({ wait }) => wait)).toEqual(['request']);
  expect(ranOut[0]!.at).toBeLessThan(BOUNDS.requestMs + 50);
});

test('the idle bound is the longer one while the proxy holds a connection to the target for the client', async () => {
  let holds = true;
  const { running, ranOut } = clock(() => holds);
  running.arm('idle');
  await sleep(150);
  expect(ranOut).toEqual([]);
  running.disarm();
  holds = false;
  running.arm('idle');
  await sleep(150);
  expect(ranOut.map(({ wait }) => wait)).toEqual(['idle']);
});
