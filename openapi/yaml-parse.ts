// The YAML parser, loaded on first use. Every process of a run imports the modules that may parse
// YAML (the contract, the catalog, known failures), but most read both documents back from the cache
// (yaml-cache.ts) and parse nothing: loading the parser anyway cost each of them tens of
// milliseconds, in a run that starts a process per worker and per failed test.
import { createRequire } from 'node:module';

type Parse = (text: string) => unknown;
let parser: Parse | undefined;

/** `text` parsed as YAML, as the `yaml` package's `parse` does. */
export function parseYaml(text: string): unknown {
  // The package's Node entry point is CommonJS (its exports map), so require loads what import would.
  parser ??= (createRequire(import.meta.url)('yaml') as { parse: Parse }).parse;
  return parser(text);
}
