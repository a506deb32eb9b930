// How long the project's functions are, read as TypeScript parses them: every function declaration,
// function expression, arrow function, method, constructor and accessor, by the lines it spans from
// its first token to its last. A function is named as a reader finds it: by its own name, the
// variable or property it is assigned to, or else its line.
import ts from 'typescript';

export interface FunctionSpan {
  /** The file (relative to the root, with '/') and the function's name, `file:name`. */
  id: string;
  lines: number;
}

/** The functions of one source spanning `limit` lines or more. */
export function longFunctions(file: string, text: string, limit: number): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines >= limit) found.push({ id: `${file}:${nameOf(node, source)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The name a reader finds the function by. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText(source);
  if (ts.isCallExpression(parent)) {
    // A test's body is named by its title, as the runner shows it.
    const title = parent.arguments[0];
    if (title !== undefined && ts.isStringLiteralLike(title))
      return `${parent.expression.getText(source)}(${JSON.stringify(title.text.slice(0, 40))})`;
  }
  return `<function at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}>`;
}
