// The Node versions the package is tested on: package.json's engines (`^22.13.0 || >=24`), which
// npm only warns about. The suite itself runs on older Node (Playwright asks for 20), so a run there
// goes on, saying in one line that it is untested there; the project's own tests need what the
// clone's tools need (ESLint 10, Redocly: Node 22.13 or later), and on an older Node four of them
// failed with messages that did not name the cause: `npm test` there stops before any test, in one line.

/** package.json's engines.node, which tests/run/node-version.spec.ts holds this to. */
export const SUPPORTED_NODE_RANGE = '^22.13.0 || >=24';

/** Whether `version` (as process.versions.node: 22.13.0) is within SUPPORTED_NODE_RANGE. */
export function supportsNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 22 && minor >= 13) || major >= 24;
}

/** The one line a run on an unsupported Node prints before it goes on; undefined on a supported one. */
export function untestedNodeLine(version = process.versions.node): string | undefined {
  if (supportsNode(version)) return undefined;
  return `Node ${version} is not one this package is tested on (${SUPPORTED_NODE_RANGE}, package.json engines): the run goes on, but use Node 22.13 or later, or 24, for a verdict as tested`;
}

/** The one line `npm test` stops with on an unsupported Node; undefined on a supported one. */
export function selfTestsNodeLine(version = process.versions.node): string | undefined {
  if (supportsNode(version)) return undefined;
  return `The project's own tests need Node 22.13 or later, or 24 (${SUPPORTED_NODE_RANGE}, package.json engines); this is Node ${version}. Install a supported Node and run npm ci && npm test again.`;
}
