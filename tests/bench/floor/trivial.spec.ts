// The floor's runner half: one trivial test, so a run measures only Playwright's own start-up,
// worker launch and shutdown.
import { test, expect } from '@playwright/test';

test('a trivial test', () => {
  expect(1 + 1).toBe(2);
});
