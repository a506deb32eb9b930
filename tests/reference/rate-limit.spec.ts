// The reference's optional rate limit, as the deployment answers it: X-Rate-Limit and
// X-Rate-Limit-Remaining on every answer; past the limit 429 ERR_TOO_MANY_REQUESTS with Retry-After
// (seconds) and X-Rate-Limit-Reset (UNIX time); answers again once the window has passed.
import { test, expect } from '@playwright/test';
import { createRateLimiter } from '../../reference/rate-limit.ts';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';
import { startReference } from './reference-process.ts';

test('the limiter admits N requests in a second, refuses the next with the time to wait, and admits again in the next second', () => {
  const admit = createRateLimiter(3);
  const second = 1_763_700_000_000;
  expect([1, 2, 3].map((step) => admit(second + step * 10).headers)).toEqual([
    { 'x-rate-limit': '3', 'x-rate-limit-remaining': '2' },
    { 'x-rate-limit': '3', 'x-rate-limit-remaining': '1' },
    { 'x-rate-limit': '3', 'x-rate-limit-remaining': '0' },
  ]);
  const refused = admit(second + 400);
  expect(refused.refused).toMatchObject({ status: 429, code: 'ERR_TOO_MANY_REQUESTS' });
  expect(refused.headers).toEqual({
    'x-rate-limit': '3',
    'x-rate-limit-remaining': '0',
    'x-rate-limit-reset': String(second / 1000 + 1),
    'retry-after': '1',
  });
  expect(admit(second + 1000)).toEqual({ headers: { 'x-rate-limit': '3', 'x-rate-limit-remaining': '2' } });
});

test("over HTTP, a rate-limited reference answers 429 with the deployment's headers and body, then answers again after Retry-After", async () => {
  const reference = createServer({ calls: 20, rateLimit: 5 });
  const base = await reference.listen(0);
  const get = () => fetch(`${base}/calls/unknown`, { headers: { apikey: DEMO_KEYS.fullAccess } });
  try {
    let refused: Response | undefined;
    // Five a second: within eleven requests sent back to back, one falls past the limit.
    for (let sent = 0; sent < 11 && !refused; sent += 1) {
      const response = await get();
      expect(response.headers.get('x-rate-limit')).toBe('5');
      expect(Number(response.headers.get('x-rate-limit-remaining'))).toBeGreaterThanOrEqual(0);
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(404);
    }
    expect(refused, 'no request was refused').toBeDefined();
    expect(refused!.headers.get('x-rate-limit-remaining')).toBe('0');
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    const reset = Number(refused!.headers.get('x-rate-limit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 2);
    expect(await refused!.json()).toEqual({
      error: expect.objectContaining({ code: 'ERR_TOO_MANY_REQUESTS', message: expect.any(String) }),
    });

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await get()).status).toBe(404);
  } finally {
    await reference.close();
  }
});

test('without a rate limit the reference sends no rate-limit headers', async () => {
  const reference = createServer({ calls: 20 });
  const base = await reference.listen(0);
  try {
    const response = await fetch(`${base}/calls`, { headers: { apikey: DEMO_KEYS.fullAccess } });
    expect(response.headers.get('x-rate-limit')).toBeNull();
    expect(response.headers.get('retry-after')).toBeNull();
  } finally {
    await reference.close();
  }
});

test('npm run reference -- --rate-limit 2 answers its third request in a second with 429', async () => {
  const reference = startReference(['--port', '0', '--calls', '20', '--rate-limit', '2']);
  try {
    const line = await reference.waitForLine(/^reference server listening on (http:\S+)$/, 20_000);
    const base = line.slice('reference server listening on '.length);
    const statuses: number[] = [];
    for (let sent = 0; sent < 5 && !statuses.includes(429); sent += 1) statuses.push((await fetch(`${base}/calls`)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(2);
  } finally {
    reference.stop();
  }
});
