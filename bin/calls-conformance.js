#!/usr/bin/env node
// `npx calls-conformance [COMMAND]` in a project that installed the suite: the same entry as
// `npm run conformance` in the clone, run from the JavaScript the package ships (dist/, which
// `npm run build` compiles when the package is packed).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

// In the suite's clone dist/ is not there until `npm run build` (or `npm pack`) makes it, and an
// import of it would end in a stack trace: one line saying what to run instead (issue 54).
const ENTRY = new URL('../dist/cli/conformance.js', import.meta.url);
if (!existsSync(ENTRY)) {
  process.stderr.write(
    "calls-conformance: the compiled suite (dist/) is not built: this is the suite's clone, where `npm run conformance -- [COMMAND]` runs it (or run `npm run build` first)\n",
  );
  process.exit(2);
}

// The suite stands on Playwright's reporter API and on Playwright placing each compiled test at its
// TypeScript line through the source map beside it; tests/package/installed.spec.ts checks both
// with the Playwright the package pins. npm keeps to the pin unless a project overrides it, and a
// Playwright that changed either would give wrong reports without an error: so any other is refused.
const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).dependencies['@playwright/test'];
const found = createRequire(import.meta.url)('@playwright/test/package.json').version;
const [, minor, patch] = /^~(\d+\.\d+)\.(\d+)$/.exec(pinned);
if (!found.startsWith(`${minor}.`) || Number(found.split('.')[2]) < Number(patch)) {
  process.stderr.write(
    `calls-conformance: needs @playwright/test ${pinned}, the version it is tested with; found ${found} (an npm override?)\n`,
  );
  process.exit(2);
}
await import(ENTRY.href);
