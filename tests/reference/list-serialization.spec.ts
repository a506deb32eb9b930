// List Calls writes its pages from each call's JSON serialized once; the bytes must be those of
// serializing the whole body, page after page, whether the calls were just generated or kept.
import { test, expect } from '@playwright/test';
import { createServer } from '../../reference/server.ts';
import { DEMO_KEYS } from '../../reference/fixtures.ts';

test('a List Calls page is exactly the JSON of its body, the first time and when its calls are kept', async () => {
  const reference = createServer({ calls: 300 });
  const base = await reference.listen(0);
  try {
    for (const query of [
      '',
      '?perPage=7&page=3',
      '?type=video&status=ended&perPage=25',
      '?hasRecording=true',
      '?uid=user-00003',
      '?perPage=1000',
    ]) {
      for (const time of ['first', 'again']) {
        const response = await fetch(`${base}/calls${query}`, { headers: { apikey: DEMO_KEYS.fullAccess } });
        const text = await response.text();
        expect(response.headers.get('content-type'), `${query} ${time}`).toBe('application/json; charset=utf-8');
        expect(Number(response.headers.get('content-length')), `${query} ${time}`).toBe(Buffer.byteLength(text));
        expect(text, `${query} ${time}`).toBe(JSON.stringify(JSON.parse(text)));
        expect(Object.keys(JSON.parse(text)), `${query} ${time}`).toEqual(['data', 'meta']);
      }
    }
  } finally {
    await reference.close();
  }
});
