// The list of check labels (docs/checks.md), generated from the sources: every violation the core's
// checks and the passive judge produce carries a `check` label (the report's label), and this reads
// each one where it is made, with the function that makes it, the requirement it breaks and the first
// sentence of that function's comment; its sample failure is what that very function writes on the
// made-up inputs of check-samples.ts. So the page cannot drift from the code: the self-test
// (checks-doc.spec.ts) fails when it would say anything else, and the generator stops on a label
// without a sample or a sample that does not fail with its label. `npm run docs:checks` rewrites it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { loadCatalog, type Catalog } from '../../openapi/catalog.ts';
import { PROJECT_ROOT } from '../runner/run-suite.ts';
import type { Violation } from '../../core/checks/violation.ts';
import { CHECK_SAMPLES, type CheckSample } from './check-samples.ts';

export const CHECKS_DOC = join(PROJECT_ROOT, 'docs', 'checks.md');
/** Where violations are made: the core's checks and learning, the suite's tests and the passive judge's own rules. */
const SOURCE_FOLDERS = ['core/checks', 'core/learning', 'suite', 'passive'];

export interface CheckLabel {
  label: string;
  /** The function that makes the violation (where a helper makes it, the function that names the label). */
  producer: string;
  file: string;
  requirement: string;
  summary: string;
}

const sourcesUnder = (folder: string): string[] =>
  readdirSync(join(PROJECT_ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourcesUnder(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );

/** A value as the page shows it: a string as it is, a template with each value it interpolates as …, anything else as its code. */
function shape(node: ts.Expression | undefined, source: ts.SourceFile): string {
  if (node === undefined) return '';
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `…${span.literal.text}`).join('');
  // One of two wordings: the first stands for both.
  if (ts.isParenthesizedExpression(node)) return shape(node.expression, source);
  if (ts.isConditionalExpression(node)) return shape(node.whenTrue, source);
  return '… (worded where it is found)';
}

/** The name of the function a node is in, and its node: a declaration, a method, or a const holding an arrow function. */
function enclosingFunction(node: ts.Node): { name: string; node: ts.Node } | undefined {
  for (let at: ts.Node | undefined = node.parent; at !== undefined; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name !== undefined) return { name: at.name.getText(), node: at };
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && ts.isVariableDeclaration(at.parent))
      return { name: at.parent.name.getText(), node: at.parent.parent.parent };
  }
  return undefined;
}

/**
 * The function that makes a label: the function it is made in, or where that is a closure held by
 * a const inside another function (pagination.ts's `add`), the function that holds it.
 */
function makerOf(node: ts.Node): { name: string; node: ts.Node } | undefined {
  let maker = enclosingFunction(node);
  while (maker !== undefined && ts.isVariableStatement(maker.node)) {
    const holder = enclosingFunction(maker.node);
    if (holder === undefined) break;
    maker = holder;
  }
  return maker;
}

/** The first sentence of the comment before a function, where it has one. */
function summaryOf(node: ts.Node, source: ts.SourceFile): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  if (last === undefined) return '';
  const text = source.text
    .slice(last.pos, last.end)
    .replace(/^\/\*\*?|\*\/$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*(\*|\/\/)\s?/, '').trim())
    .join(' ')
    .trim();
  return /^(.+?\.)(\s|$)/.exec(text)?.[1] ?? text;
}

const property = (literal: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined =>
  literal.properties.find((candidate) => candidate.name?.getText() === name);
const valueOf = (element: ts.ObjectLiteralElementLike | undefined): ts.Expression | undefined =>
  element !== undefined && ts.isPropertyAssignment(element) ? element.initializer : undefined;

/** Every label a file makes: a `check: 'label'` property, or (a helper's `check` parameter) each call that names one. */
function labelsIn(file: string): CheckLabel[] {
  const source = ts.createSourceFile(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: CheckLabel[] = [];
  const helpers = new Map<string, { parameters: string[] }>();
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const check = property(node, 'check');
      const label = valueOf(check);
      const inFunction = enclosingFunction(node);
      const maker = makerOf(node);
      if (label !== undefined && ts.isStringLiteral(label))
        found.push({
          label: label.text,
          // A test of the suite makes some itself, in its body.
          producer: maker?.name ?? 'a test',
          file,
          requirement: shape(valueOf(property(node, 'requirement')), source),
          summary: maker === undefined ? '' : summaryOf(maker.node, source),
        });
      if (
        check !== undefined &&
        ts.isShorthandPropertyAssignment(check) &&
        inFunction !== undefined &&
        ts.isFunctionDeclaration(inFunction.node)
      )
        helpers.set(inFunction.name, { parameters: inFunction.node.parameters.map((parameter) => parameter.name.getText()) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const callsOfHelpers = (node: ts.Node): void => {
    const helper = ts.isCallExpression(node) ? helpers.get(node.expression.getText()) : undefined;
    const inFunction = enclosingFunction(node);
    if (helper !== undefined && inFunction !== undefined && ts.isCallExpression(node)) {
      const argument = (name: string) => node.arguments[helper.parameters.indexOf(name)];
      found.push({
        label: shape(argument('check'), source),
        producer: inFunction.name,
        file,
        requirement: shape(argument('requirement'), source),
        summary: summaryOf(inFunction.node, source),
      });
    }
    ts.forEachChild(node, callsOfHelpers);
  };
  callsOfHelpers(source);
  return found;
}

/** Every label, once each (its first maker in the order of the files), in the order of the label. */
export function checkLabels(): CheckLabel[] {
  const all = SOURCE_FOLDERS.flatMap(sourcesUnder)
    .sort()
    .flatMap((file) => labelsIn(relative(PROJECT_ROOT, join(PROJECT_ROOT, file))));
  const byLabel = new Map<string, CheckLabel>();
  for (const entry of all) if (!byLabel.has(entry.label)) byLabel.set(entry.label, entry);
  return [...byLabel.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** The name of the function that makes a label: the label in camelCase (filterNarrowing for `filter_narrowing`). */
export const camelCase = (label: string): string => label.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());

/**
 * Each label's sample failure: the first violation of that label its sample makes. Throws, naming
 * every problem, when a label has no sample, a sample calls another function than the label's maker
 * (or its namesake), makes no violation of its label, or names a label no code makes.
 */
export function sampleFailures(
  labels: readonly CheckLabel[],
  samples: Readonly<Record<string, CheckSample>> = CHECK_SAMPLES,
): Map<string, Violation> {
  const problems: string[] = [];
  const failures = new Map<string, Violation>();
  for (const entry of labels) {
    const sample = samples[entry.label];
    if (sample === undefined) {
      problems.push(`${entry.label} has no sample in tests/docs/check-samples.ts`);
      continue;
    }
    if (sample.check.name !== entry.producer && sample.check.name !== camelCase(entry.label)) {
      problems.push(`${entry.label}'s sample calls ${sample.check.name}, not ${entry.producer} that makes it`);
      continue;
    }
    const failure = sample.run().find((violation) => violation.check === entry.label);
    if (failure === undefined) problems.push(`${entry.label}'s sample makes no violation labelled ${entry.label}`);
    else failures.set(entry.label, failure);
  }
  const made = new Set(labels.map((entry) => entry.label));
  for (const label of Object.keys(samples)) if (!made.has(label)) problems.push(`${label} has a sample but no code makes it`);
  if (problems.length > 0) throw new Error(`docs/checks.md cannot be written:\n${problems.join('\n')}`);
  return failures;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** What a label checks: its function's comment, else the text of the requirement it breaks. */
function whatItChecks(entry: CheckLabel, catalog: Catalog): string {
  if (entry.summary !== '') return entry.summary;
  return catalog.byId.get(entry.requirement)?.text ?? '';
}

export function checksDoc(): string {
  const catalog = loadCatalog();
  const labels = checkLabels();
  const failures = sampleFailures(labels);
  return [
    '# Check labels',
    '',
    '<!-- Generated by `npm run docs:checks` (tests/docs/checks-doc.ts) from core/checks/ and passive/: do not edit by hand. -->',
    '',
    'Each violation a run or a passive judge reports carries the label of the check that found it (the',
    '`check` of results.json and of the HTML report). One line per label: what it checks, the requirement',
    'it breaks, the function that makes it, and a sample failure: the line that function writes on the',
    'made-up inputs of tests/docs/check-samples.ts (a report adds "Expected … / Received …" and the curl',
    'line that reproduces it).',
    '',
    '| Label | What it checks | Requirement | Made by | Sample failure |',
    '| --- | --- | --- | --- | --- |',
    ...labels.map(
      (entry) =>
        `| \`${entry.label}\` | ${cell(whatItChecks(entry, catalog))} | ${cell(entry.requirement)} | \`${entry.producer}\` (${entry.file}) | ${cell(failures.get(entry.label)!.title)} |`,
    ),
    '',
  ].join('\n');
}

if (process.argv.includes('--write')) writeFileSync(CHECKS_DOC, checksDoc());
