// The project's import graph, read from the sources' text, and what is wrong with it. The top-level
// folders are the parts of the project, and imports run one way, from the parts a user starts down
// to what they stand on (docs/architecture.md):
//   cli -> passive -> reports -> core -> openapi
//   cli -> suite -> fixtures -> core
// `reference` stands beside: it imports no part, and only the command line, the core's configuration
// of the default target and the reports' metadata name it. No two files of the core may need each
// other either, or loading one half-loads the other and a change anywhere in a cycle can break any
// file of it. The project's own tests (tests/) may import anything.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The parts, each with the parts it may import (its own files always). */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  cli: ['passive', 'reports', 'suite', 'fixtures', 'core', 'openapi', 'reference'],
  passive: ['reports', 'core', 'openapi'],
  reports: ['core', 'openapi', 'reference'],
  suite: ['fixtures', 'core', 'openapi'],
  fixtures: ['core', 'openapi'],
  core: ['openapi', 'reference'],
  openapi: [],
  reference: [],
};

/** The folders the graph of the parts is read from. */
export const PART_FOLDERS = Object.keys(LAYERS);

/** File (relative to the root, with '/') to the files of the project it imports, type-only imports included. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The relative specifiers a source imports or re-exports, dynamic imports included: what
 * TypeScript's own pre-processor finds, so comments and strings that look like imports are not.
 */
export function relativeImportsOf(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map((file) => file.fileName).filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** The graph of the given files: each file's edges are its relative imports, resolved against it. */
export function importGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const targets = relativeImportsOf(source).map((specifier) => join(dirname(file), specifier).split(sep).join('/'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

const partOf = (file: string): string | undefined => (file.includes('/') ? file.split('/')[0] : undefined);
const isCore = (file: string) => partOf(file) === 'core';

/** "from -> to" for every import of a part that its layer does not allow. */
function importsAgainstTheLayers(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, targets]) => {
    const part = partOf(file);
    const allowed = part === undefined ? undefined : LAYERS[part];
    if (allowed === undefined) return [];
    return targets
      .filter((target) => {
        const to = partOf(target);
        return to !== undefined && to !== part && to in LAYERS && !allowed.includes(to);
      })
      .map((target) => `${file} -> ${target}`);
  });
}

/** A knot of files that need each other: all its files, and one loop through them that ends where it began. */
export interface ImportCycle {
  files: string[];
  loop: string[];
}

/**
 * Every cycle among the given files, one per strongly connected component (Tarjan's algorithm): a
 * component of many files is one knot, and naming one loop through it is enough to start cutting.
 */
export function cyclesAmong(graph: ImportGraph, keep: (file: string) => boolean = () => true): ImportCycle[] {
  const nodes = [...graph.keys()].filter(keep).sort();
  const edges = (file: string) => (graph.get(file) ?? []).filter((target) => keep(target) && graph.has(target));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges(node).includes(node)) components.push(component);
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components.map((component) => ({ files: component.sort(), loop: loopThrough(component, edges) }));
}

/** A shortest loop from the component's first file back to itself, within the component. */
function loopThrough(component: string[], edges: (file: string) => string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of edges(node).filter((target) => members.has(target))) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** The layout's problems, one line each; none when it is in order. */
export function layoutProblems(graph: ImportGraph): string[] {
  return [
    ...importsAgainstTheLayers(graph).map((edge) => `an import against the direction of the layers: ${edge}`),
    ...cyclesAmong(graph, isCore).map(
      ({ files, loop }) => `import cycle among ${files.length} core file(s) (${files.join(', ')}): ${loop.join(' -> ')}`,
    ),
  ];
}

/** Every .ts file under the given folders of root, with its text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts'))
        files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  for (const folder of folders) walk(resolve(root, folder));
  return files;
}
