// Where the suite's own files are, and how a child Node process loads them: in the clone, the
// TypeScript sources run (tsx for the command-line scripts, Playwright's own transform for the
// suite); packed, the JavaScript that `npm run build` compiled into dist/ runs, with no loader.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PLAYWRIGHT_TEST_OPTIONS } from './playwright-options.ts';

/** True when this module is the compiled JavaScript (dist/, as the package ships it), false in the clone. */
export const COMPILED = import.meta.url.endsWith('.js');

/**
 * Where the suite runs, which decides the form of every command line it prints (replay-command.ts):
 * `clone`, the suite's own repository, where `npm run conformance -- …` works and `npx
 * calls-conformance` needs a build first; `installed`, another project that installed the package,
 * where only `npx calls-conformance …` works. The clone is the suite running from its TypeScript
 * (only the clone has it), or compiled with the suite's own package.json in the working directory (a
 * clone whose dist/ was built); the package's files are never a project's working directory.
 */
export type SuitePlace = 'clone' | 'installed';

export function suitePlace(cwd: string = process.cwd(), compiled: boolean = COMPILED): SuitePlace {
  if (!compiled) return 'clone';
  // The suite's name from the package.json beside its code (dist/package.json, which build.js writes).
  const own = readPackage(fileURLToPath(new URL('../../package.json', import.meta.url)));
  const project = readPackage(join(cwd, 'package.json'));
  return project?.name === own?.name && typeof project?.scripts?.conformance === 'string' ? 'clone' : 'installed';
}

function readPackage(path: string): { name?: unknown; scripts?: Record<string, unknown> } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; scripts?: Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/**
 * A path to one of the suite's own modules, named at run time rather than imported (a reporter, a
 * script run as a child): the build rewrites the extensions of imports only.
 */
export const ownFile = (path: string): string => (COMPILED ? path.replace(/\.ts$/, '.js') : path);

/** Passed to Playwright explicitly: an installed suite runs from the user's directory, where Playwright would find no config. */
export const PLAYWRIGHT_CONFIG = fileURLToPath(new URL(ownFile('../../playwright.config.ts'), import.meta.url));

/** Node options for a script run as a child (certify, verify-bundle, the reference): tsx in the clone, nothing compiled. */
export function scriptLoaderArgs(): string[] {
  return COMPILED ? [] : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

/** The embedded reference's start command, run by Playwright's webServer from the config's folder. */
export const REFERENCE_COMMAND = COMPILED ? 'node reference/main.js' : 'node --import tsx reference/main.ts';

/**
 * Compiled, Playwright collects a test file as dist/suite/…/x.spec.js and places its tests, through
 * the file's source map, in suite/…/x.spec.ts; it matches a file filter against the first to collect
 * and against the second to select by line. A filter naming the TypeScript file, as rerun lines and
 * the docs do (`run node_modules/calls-conformance/suite/calls-get/get-call.spec.ts:21`), is
 * widened to match both. Playwright reads every filter as a regular expression.
 */
export function testFilter(filter: string, compiled: boolean = COMPILED): string {
  const parts = /^(.*\.ts)((?::\d+){0,2})$/.exec(filter);
  if (!compiled || !parts) return filter;
  const file = parts[1]!.replace(/(^|\/)suite\/(?!.*\/suite\/)/, '$1(?:dist/)?suite/').replace(/\.ts$/, '\\.[jt]s');
  return `${file}${parts[2]}`;
}

/** The arguments of `playwright test` with each test filter (a word that is neither an option nor its value) widened. */
export function testFilterArgs(args: readonly string[], compiled: boolean = COMPILED): string[] {
  return args.map((arg, index) => {
    const previous = args[index - 1];
    const isValue = previous !== undefined && PLAYWRIGHT_TEST_OPTIONS[previous] === 'value';
    return arg.startsWith('-') || isValue ? arg : testFilter(arg, compiled);
  });
}
