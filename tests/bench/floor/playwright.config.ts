// The floor's Playwright run: the same runner, one trivial test, no web server, no reporter output.
import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: '.', reporter: [['dot']] });
