// Where the suite's own files are, whether it runs from its clone or installed as a package in
// another project (node_modules/calls-conformance), and how a child Node process loads them.
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Passed to Playwright explicitly: an installed suite runs from the user's directory, where Playwright would find no config. */
export const PLAYWRIGHT_CONFIG = fileURLToPath(new URL('../../playwright.config.ts', import.meta.url));
export const INSTALLED = PACKAGE_ROOT.split(sep).includes('node_modules');

/**
 * Node options for a Playwright child that loads the suite's TypeScript. Playwright transforms
 * TypeScript only outside node_modules (measured with 1.65: ERR_UNKNOWN_FILE_EXTENSION on the
 * installed playwright.config.ts), so an installed suite has tsx's loader registered first, with
 * the source maps Playwright needs to place tests (typescript-loader.js says why); Playwright's
 * workers inherit it. From the clone nothing is added: Playwright's own transform keeps source
 * locations exact.
 */
export function typescriptLoaderArgs(installed: boolean = INSTALLED): string[] {
  return installed ? ['--import', new URL('./typescript-loader.js', import.meta.url).href] : [];
}

/** For scripts run as a child (certify, verify-bundle, the reference), whatever the checkout: tsx always. */
export function tsxArgs(): string[] {
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}
