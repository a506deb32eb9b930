// `npm run build`, run by `npm pack` (prepack): the suite's TypeScript compiled into dist/ as
// JavaScript with source maps and declarations (tsconfig.build.json), beside the files that code
// reads by a path relative to itself, so that dist/ is laid out as the clone is. Not shipped.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', new URL('tsconfig.build.json', root).pathname], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

// The contract and the catalog, read beside openapi/*.ts; the linter's redocly.yaml is the clone's only.
for (const asset of ['calls-api.openapi.yaml', 'requirements.yaml', 'requirements.schema.json']) {
  cpSync(new URL(`openapi/${asset}`, root), new URL(`openapi/${asset}`, dist));
}
// Read as ../package.json by the reports' metadata and the proxy; also what makes dist/*.js modules.
const { name, version, type } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
writeFileSync(new URL('package.json', dist), `${JSON.stringify({ name, version, private: true, type }, null, 2)}\n`);
