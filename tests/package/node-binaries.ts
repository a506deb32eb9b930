// The Node versions the package supports, as binaries to run it with: the npm registry's `node`
// package (whose install puts the binary of node-<platform>-<arch> under node_modules/.bin),
// installed once per major version into this repository's node_modules/.cache, so that a rerun
// downloads nothing. `npm i` takes the newest release of the major; delete the folder to take a newer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from '../runner/run-suite.ts';

export const SUPPORTED_NODE_MAJORS = [22, 24] as const;

/**
 * What of the machine's environment reaches npm as a user's project has it: its cache, and how it
 * reaches the registry: the certificates it trusts (a network that inspects TLS has its own
 * authority, given to Node by NODE_EXTRA_CA_CERTS and to npm by its cafile), its proxies, and npm's
 * own configuration files (`npm run` names them; the Node binaries used here would look for a global
 * one beside themselves, and miss the machine's cafile). Without them npm's every request failed with
 * SELF_SIGNED_CERT_IN_CHAIN on such a network, retried past the file's 10 minutes. Nothing of this
 * repository is among them.
 */
const MACHINE_NETWORK =
  /^(npm_config_(cache|cafile|ca|registry|proxy|https_proxy|noproxy|strict_ssl|globalconfig|userconfig)|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|all_proxy)$/i;

/** PATH without any node_modules/.bin (npx and npm test put this repository's there), HOME, and the machine's network settings. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  const network = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => MACHINE_NETWORK.test(entry[0]) && entry[1] !== undefined),
  );
  return { PATH: path, HOME: process.env.HOME ?? '/tmp', ...network, ...extra };
}

const CACHE = join(PROJECT_ROOT, 'node_modules', '.cache', 'calls-conformance-node');

/** What npm says when the registry cannot be reached, as opposed to an install that is broken. */
export const UNREACHABLE = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH|HOSTUNREACH)|ENOTCACHED|network|offline/i;

/**
 * How long npm waits on the registry here. Its default is 5 minutes a request, retried twice: a
 * request the registry left hanging once held the install past the test's 10 minutes (seen twice in
 * a row on 2026-11-28, each time a `npm i` idle on one download; the next run installed in 2 s). A
 * minute a request, retried, takes a new connection instead.
 */
export const NPM_NETWORK_BOUNDS = ['--fetch-timeout=60000', '--fetch-retries=3'];

export type NodeBinary = { bin: string; version: string } | { unavailable: string };

/** The folder holding `node` of that major version, with its exact version; or why there is none. */
export function nodeBinary(major: number, env: Record<string, string>): NodeBinary {
  const folder = join(CACHE, `node-${major}`);
  const bin = join(folder, 'node_modules', '.bin');
  if (!existsSync(join(bin, 'node'))) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{ "private": true }\n');
    const installed = spawnSync('npm', ['i', '--no-audit', '--no-fund', '--prefer-offline', ...NPM_NETWORK_BOUNDS, `node@${major}`], {
      cwd: folder,
      env,
      encoding: 'utf8',
    });
    if (installed.status !== 0) {
      const why = installed.stderr.split('\n').find((line) => UNREACHABLE.test(line));
      if (why !== undefined)
        return { unavailable: `npm could not fetch node@${major}, no npm registry reachable: ${why.replace(/^npm error /, '')}` };
      throw new Error(`npm i node@${major} failed: ${installed.stderr}`);
    }
  }
  const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${join(bin, 'node')} is ${version || 'not runnable'}, not Node ${major}`);
  return { bin, version };
}
