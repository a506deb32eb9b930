// Preloaded (`node --import`) into the Playwright process of an installed suite, and so into its
// workers, which inherit Node's options: tsx's loader for the suite's TypeScript, plus the one thing
// tsx's output lacks for Playwright, exact source positions.
//
// Why: Playwright places a test where its `test()` call is, from the raw V8 stack of that call
// mapped by its own copy of source-map-support, which knows only the maps of files Playwright
// transformed itself, never those inside node_modules. tsx's output is minified to a few lines, so
// unmapped every test sat at line 1. Node's own source maps (tsx enables them; `--enable-source-maps`
// too, measured: still line 1) rewrite only printed stacks, not the call sites Playwright reads. So
// Playwright's source-map-support is given Node's map of each module tsx loaded.
// Plain JavaScript: it runs before any TypeScript loader exists.
import { createRequire, findSourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

/** Node's map of a module, its sources made paths: source-map-support would join file URLs onto the module's folder. */
function nodeSourceMap(source) {
  const map = findSourceMap(source.startsWith('file:') ? source : pathToFileURL(source).href);
  if (!map) return null;
  const payload = map.payload;
  const sources = payload.sources.map((entry) => (entry.startsWith('file:') ? fileURLToPath(entry) : entry));
  return { url: source, map: { ...payload, sources } };
}

try {
  // The same module instance Playwright's loader uses (playwright-core exports this path); handlers
  // add up, Playwright's own (for files it transformed) still comes first.
  const { sourceMapSupport } = createRequire(import.meta.url)('playwright-core/lib/utilsBundle');
  sourceMapSupport.install({ environment: 'node', handleUncaughtExceptions: false, retrieveSourceMap: nodeSourceMap });
} catch {
  // A Playwright without that module still runs the suite, its tests placed at line 1:
  // tests/self/package/installed.spec.ts fails on that, so an upgrade that removes it is seen.
}
