// Debian's chromium, for the self-tests that open a report or record a HAR in a real browser (never a
// browser download). Without it such a test skips, saying what to install; .ci/run installs it.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, test, type Browser, type Page } from '@playwright/test';

const CHROMIUM = '/usr/bin/chromium';

/** Skips the test where chromium is not installed, saying how to install it. */
export function skipWithoutChromium(): void {
  test.skip(
    !existsSync(CHROMIUM),
    `Debian's chromium is not installed at ${CHROMIUM}: run apt-get install -y chromium (.ci/run does this in CI).`,
  );
}

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

/**
 * Opens a report file offline: the page may load files and nothing else; every other request is
 * refused and kept in `requested`, which a self-contained report leaves empty.
 */
export async function openOffline(browser: Browser, file: string): Promise<{ page: Page; requested: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requested: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requested.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href);
  return { page, requested };
}
