// The self-tests mirror the sources, as fast-check's do: a reader who changes core/X/y.ts finds its
// tests under tests/X/, and one who changes P/y.ts (any other part: passive, reports, reference …)
// under tests/P/, without a search. Held by one rule a name can check: a self-test named after a
// source file (tests/…/y.spec.ts, some y.ts among the sources) sits under the tests/ folder of the
// part of a source of that name. Tests of behaviours across parts (a whole run, the kill matrix, the
// docs) are named after the behaviour, not a file, and live where they are.
import { readdirSync } from 'node:fs';
import { join, posix, sep } from 'node:path';

/** The tests/ folder a source's tests live in: tests/X for core/X/…, tests/P for any other part P/…. */
export function mirrorFolder(source: string): string {
  const [part, folder, ...rest] = source.split('/');
  return `tests/${part === 'core' && rest.length > 0 ? folder : part}`;
}

/** The test folder a spec sits under, as mirrorFolder names them: its first folder below tests/. */
const folderOf = (spec: string) => spec.split('/').slice(0, 2).join('/');

/**
 * One line for each spec named after a source file that sits outside the tests/ folder of every
 * source of that name, saying where it belongs. Names shared by sources of several parts
 * (errors.ts of the checks and of the transport) let a spec live in the folder of any of them.
 */
export function misplacedTests(specs: readonly string[], sources: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const source of sources) {
    const name = posix.basename(source, '.ts');
    byName.set(name, [...(byName.get(name) ?? []), source]);
  }
  return specs.flatMap((spec) => {
    const namesakes = byName.get(posix.basename(spec, '.spec.ts')) ?? [];
    const homes = [...new Set(namesakes.map(mirrorFolder))];
    if (namesakes.length === 0 || homes.includes(folderOf(spec))) return [];
    return [`${spec} is named after ${namesakes.join(' and ')}: it belongs under ${homes.map((home) => `${home}/`).join(' or ')}`];
  });
}

/** The spec files under `folder` of `root`, relative to the root with '/'. */
export function specFiles(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => join(folder, name).split(sep).join('/'))
    .sort();
}
