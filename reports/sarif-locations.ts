// Where a result of results.sarif points: a line of a file the repository the results are uploaded
// to holds, since code scanning shows an alert on the line it names (render-sarif.ts). By default,
// the requirement's entry in requirements.yaml; with SARIF_LOCATION=openapi, the part of the OpenAPI
// document it concerns: the schema a field requirement names, else its first operation, else (an
// error format, a rate limit) its entry in the catalog still. The lines are the suite's own files',
// counted from their parse trees (openapi/source-lines.ts); SARIF_PATH_PREFIX says where the user's
// repository keeps copies of them.
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOG_PATH, type Requirement } from '../openapi/catalog.ts';
import { OPENAPI_PATH } from '../openapi/contract.ts';
import { contractLines, requirementLines } from '../openapi/source-lines.ts';
import type { SarifSettings } from '../core/run/config.ts';

/** A file and a line (1-based) of it. */
interface SourceLocation {
  uri: string;
  line: number;
}

export type Locator = (requirement: Requirement) => SourceLocation;

/** How each requirement is located under `settings`, for a run started in `cwd`. */
export function sarifLocator(settings: SarifSettings, cwd: string): Locator {
  const catalog = { uri: uriOf(CATALOG_PATH, settings.pathPrefix, cwd), lines: requirementLines(CATALOG_PATH) };
  const inCatalog = (requirement: Requirement): SourceLocation => ({
    uri: catalog.uri,
    // Every requirement the catalog loaded has its entry there; line 1 only if the file changed under the run.
    line: catalog.lines.get(requirement.id) ?? 1,
  });
  if (settings.location === 'catalog') return inCatalog;
  const contract = { uri: uriOf(OPENAPI_PATH, settings.pathPrefix, cwd), lines: contractLines(OPENAPI_PATH) };
  return (requirement) => {
    const line =
      (requirement.schema === undefined ? undefined : contract.lines.pointer(requirement.schema)) ??
      requirement.operations?.map((operation) => contract.lines.operations.get(operation)).find((found) => found !== undefined);
    return line === undefined ? inCatalog(requirement) : { uri: contract.uri, line };
  };
}

/**
 * The path code scanning reads: under the prefix when one is set (the file's own name), else the
 * file's path from the working directory, with forward slashes; a file outside the working directory
 * (a run started elsewhere) is named by its absolute file URL rather than by a climb out of it.
 */
function uriOf(path: string, prefix: string | undefined, cwd: string): string {
  const name = path.split(sep).at(-1)!;
  if (prefix !== undefined) return prefix === '' ? name : `${prefix}/${name}`;
  const fromCwd = relative(cwd, path);
  if (fromCwd === '' || fromCwd.startsWith('..') || fromCwd.includes(':')) return pathToFileURL(path).href;
  return fromCwd.split(sep).join('/');
}
