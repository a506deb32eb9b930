// `npm run build`, run by `npm pack` (prepack): the suite's TypeScript compiled into dist/ as
// JavaScript with source maps and declarations (tsconfig.build.json), beside the files that code
// reads by a path relative to itself, so that dist/ is laid out as the clone is. Not shipped.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);
const CONFIG = join(root, 'tsconfig.build.json');

const compiled = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', CONFIG], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// The build is incremental, so a source deleted or moved out of the build leaves its output behind:
// anything compiled in dist/ that no source of the build's own list compiles to goes.
const ts = require('typescript');
const { config } = ts.readConfigFile(CONFIG, ts.sys.readFile);
const sources = ts.parseJsonConfigFileContent(config, ts.sys, root).fileNames.map((file) => relative(root, file).replace(/\.ts$/, ''));
const expected = new Set(sources.flatMap((source) => ['.js', '.js.map', '.d.ts'].map((extension) => join(dist, source + extension))));
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (entry.isFile() && /\.(js|js\.map|d\.ts)$/.test(entry.name) && !expected.has(path)) rmSync(path);
}

// The contract and the catalog, read beside openapi/*.ts; the linter's redocly.yaml is the clone's only.
for (const asset of ['calls-api.openapi.yaml', 'requirements.yaml', 'requirements.schema.json']) {
  cpSync(join(root, 'openapi', asset), join(dist, 'openapi', asset));
}
// Read as ../package.json by the reports' metadata and the proxy; also what makes dist/*.js modules.
const { name, version, type } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ name, version, private: true, type }, null, 2)}\n`);
