// GitHub's own parser of workflows and action metadata (@actions/workflow-parser), as a script: it
// imports its JSON schemas without import attributes, which a bundler or tsx reads and Playwright's
// loader refuses, so the self-tests run it in a process of its own (parseErrors below). Reads
// [{ kind, name, content }] as JSON on stdin, writes each file's errors as JSON on stdout.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scriptLoaderArgs } from '../../core/run/package-paths.ts';

export interface GithubYaml {
  kind: 'action' | 'workflow';
  name: string;
  content: string;
}

/** Each file's errors, as GitHub's parser words them; an empty list for a file it accepts. */
export function parseErrors(files: readonly GithubYaml[]): string[][] {
  const result = spawnSync(process.execPath, [...scriptLoaderArgs(), fileURLToPath(import.meta.url)], {
    input: JSON.stringify(files),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`github-parser.ts failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[][];
}

async function main(): Promise<void> {
  const { NoOperationTraceWriter, parseWorkflow } = await import('@actions/workflow-parser');
  const { parseAction } = await import('@actions/workflow-parser/actions/index');
  const files = JSON.parse(readFileSync(0, 'utf8')) as GithubYaml[];
  const errors = files.map(({ kind, name, content }) => {
    const parse = kind === 'action' ? parseAction : parseWorkflow;
    return parse({ name, content }, new NoOperationTraceWriter())
      .context.errors.getErrors()
      .map((error) => error.message);
  });
  process.stdout.write(JSON.stringify(errors));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
