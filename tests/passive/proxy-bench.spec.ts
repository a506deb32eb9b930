// `npm run bench -- --proxy-only` (tests/bench/proxy.ts), run small: the judging proxy's benchmark
// measures every row it renders, pairs each exchange through the proxy with the same one sent
// directly, and reports the proxy's own verdict on the traffic. How fast it is, is the benchmark's
// to say on a quiet machine, not a timed test's: here only the shape and the verdict are checked.
import { test, expect } from '@playwright/test';
import { measureProxy, proxyTargets, renderProxy } from '../bench/proxy.ts';

test.setTimeout(180_000);

test("the proxy benchmark, a few exchanges over loopback and 50 ms away: every row measured, and the proxy's verdict on the reference's traffic is NO VIOLATIONS", async () => {
  const results = await measureProxy(1, { exchanges: 12, remoteExchanges: 3 });
  expect(results.rows.map((row) => row.path)).toEqual(['loopback', '50 ms away']);
  for (const row of results.rows) {
    expect(row.directMedianMs).toBeGreaterThan(0);
    expect(row.proxiedMedianMs).toBeGreaterThan(0);
    expect(Number.isFinite(row.addedMedianMs)).toBe(true);
    expect(row.exitCode).toBe(0);
    expect(row.verdict).toMatch(/^NO VIOLATIONS IN \d+ EXCHANGES$/);
  }
  expect(results.rows[1]!.directMedianMs).toBeGreaterThanOrEqual(50);
  const table = renderProxy(results).join('\n');
  expect(table).toContain('| loopback | 12 |');
  expect(proxyTargets(results).map((target) => target.name)).toEqual([
    'Time the judging proxy adds per exchange on loopback (median; target < 2 ms)',
    "The proxy's verdict on the reference's traffic",
  ]);
});
