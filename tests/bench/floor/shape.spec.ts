// The floor of the suite's shape: as many tests and requests as a default conformance run, sent
// through the same Playwright request context, checking nothing. No suite of this shape run this way
// can be faster; the gap between it and the conformance run is the suite's own work (its checks,
// fixtures and properties). The bench sets BENCH_BASE, BENCH_TESTS and BENCH_REQUESTS.
import { test } from '@playwright/test';

const base = process.env.BENCH_BASE;
const tests = Number(process.env.BENCH_TESTS ?? 0);
const requests = Number(process.env.BENCH_REQUESTS ?? 0);
const apikey = process.env.BENCH_API_KEY ?? '';

for (let index = 0; index < tests; index += 1) {
  // The requests spread over the tests as evenly as they divide.
  const share = Math.floor(requests / tests) + (index < requests % tests ? 1 : 0);
  test(`test ${index + 1} of the suite's shape`, async ({ request }) => {
    for (let sent = 0; sent < share; sent += 1) {
      const response = await request.get(`${base}/calls?perPage=10&page=${(sent % 5) + 1}`, { headers: { apikey } });
      await response.text();
    }
  });
}
