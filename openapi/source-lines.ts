// Where each requirement and each part of the contract stands in its file, as the line numbers a
// code-scanning alert points at (reports/render-sarif.ts). Read from the YAML's own parse tree, never
// by searching the text: an id named in a comment or in another requirement's text is never taken
// for its entry. The parser is loaded on first use, as yaml-parse.ts says why.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { LineCounter, Node, Pair, YAMLMap } from 'yaml';

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
const yaml = (): YamlModule => (yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule);

/** A YAML file's parse tree with a way from a character offset to its line (1-based). */
interface LocatedTree {
  root: Node | null;
  lineOf: (offset: number) => number;
}

function locatedTree(path: string): LocatedTree {
  const { LineCounter: Counter, parseDocument } = yaml();
  const counter: LineCounter = new Counter();
  const document = parseDocument(readFileSync(path, 'utf8'), { lineCounter: counter });
  return { root: document.contents, lineOf: (offset) => counter.linePos(offset).line };
}

/** The pair of `map` whose key is the scalar `key`. */
function pairOf(map: Node | null | undefined, key: string | number): Pair<Node, Node | null> | undefined {
  const { isMap } = yaml();
  if (!isMap(map)) return undefined;
  return (map as YAMLMap<Node, Node | null>).items.find((pair) => scalarValue(pair.key) === String(key));
}

function scalarValue(node: unknown): string | undefined {
  const { isScalar } = yaml();
  return isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number') ? String(node.value) : undefined;
}

/** The line where `node` (a key or a value the parser read from the text) starts. */
function lineOfNode(tree: LocatedTree, node: Node | null | undefined): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : tree.lineOf(start);
}

const catalogLinesByPath = new Map<string, ReadonlyMap<string, number>>();

/** The line of each requirement's `id:` in the catalog at `path` (the line that holds `- id: ID`), read once per process. */
export function requirementLines(path: string): ReadonlyMap<string, number> {
  let lines = catalogLinesByPath.get(path);
  if (lines === undefined) {
    const tree = locatedTree(path);
    const { isSeq } = yaml();
    const entries = pairOf(tree.root, 'requirements')?.value;
    const found = new Map<string, number>();
    for (const entry of isSeq(entries) ? entries.items : []) {
      const id = pairOf(entry as Node, 'id');
      const value = scalarValue(id?.value);
      const line = lineOfNode(tree, id?.key);
      if (value !== undefined && line !== undefined) found.set(value, line);
    }
    lines = found;
    catalogLinesByPath.set(path, lines);
  }
  return lines;
}

/** Where the parts of an OpenAPI document stand: each operation, and the node a JSON pointer names. */
export interface ContractLines {
  /** The line of the operation's method (`get:`) under its path, by operationId. */
  operations: ReadonlyMap<string, number>;
  /** The line of the key that holds the node `#/components/schemas/Call/properties/sessionId` names; undefined when none does. */
  pointer: (pointer: string) => number | undefined;
}

const contractLinesByPath = new Map<string, ContractLines>();

/** The OpenAPI document at `path`, located (read once per process). */
export function contractLines(path: string): ContractLines {
  let lines = contractLinesByPath.get(path);
  if (lines === undefined) {
    const tree = locatedTree(path);
    lines = { operations: operationLines(tree), pointer: (pointer) => pointerLine(tree, pointer) };
    contractLinesByPath.set(path, lines);
  }
  return lines;
}

function operationLines(tree: LocatedTree): ReadonlyMap<string, number> {
  const { isMap } = yaml();
  const found = new Map<string, number>();
  const paths = pairOf(tree.root, 'paths')?.value;
  for (const path of isMap(paths) ? (paths as YAMLMap<Node, Node | null>).items : [])
    for (const method of isMap(path.value) ? (path.value as YAMLMap<Node, Node | null>).items : []) {
      const operationId = scalarValue(pairOf(method.value, 'operationId')?.value);
      const line = lineOfNode(tree, method.key);
      if (operationId !== undefined && line !== undefined) found.set(operationId, line);
    }
  return found;
}

/** A JSON pointer's tokens, unescaped (RFC 6901: `~1` is `/`, `~0` is `~`). */
const pointerTokens = (pointer: string): string[] =>
  pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'));

function pointerLine(tree: LocatedTree, pointer: string): number | undefined {
  const { isSeq } = yaml();
  let node: Node | null | undefined = tree.root;
  let line: number | undefined;
  for (const token of pointerTokens(pointer)) {
    if (isSeq(node)) {
      node = /^\d+$/.test(token) ? (node.items[Number(token)] as Node | undefined) : undefined;
      line = lineOfNode(tree, node);
    } else {
      const pair = pairOf(node, token);
      node = pair?.value;
      line = lineOfNode(tree, pair?.key);
    }
    if (node === undefined) return undefined;
  }
  return line;
}
