// What a report says about the run beyond its tests: the suite's version and commit, the hashes of
// the OpenAPI document and the requirement catalog it judged by, the configuration with secrets
// redacted. Computed once in the runner (playwright.config.ts) and carried as the config's metadata,
// which blob reports keep, so a report merged from shards says the same as one unsharded run.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { redactedConfig, type SuiteConfig } from '../core/run/config.ts';
import type { RunMetadata } from '../core/results/report-model.ts';
import { CATALOG_PATH } from '../openapi/catalog.ts';
import { OPENAPI_PATH } from '../openapi/contract.ts';
import { isExpired } from '../core/results/expectations.ts';
import { DEFAULT_GET_ENVELOPE } from '../reference/get-envelope.ts';
import { describeAnswerAge, parseAnswerAge } from '../reference/answer-age.ts';

export const METADATA_KEY = 'conformance';
const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
export const sha256OfFile = (path: string): string => sha256(readFileSync(path));

export function runMetadata(config: SuiteConfig): RunMetadata {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return {
    suite: { name: pkg.name, version: pkg.version, ...commitOf(PROJECT_ROOT) },
    openapi: { file: 'openapi/calls-api.openapi.yaml', sha256: sha256OfFile(OPENAPI_PATH) },
    catalog: { file: 'openapi/requirements.yaml', sha256: sha256OfFile(CATALOG_PATH) },
    profile: config.profile,
    seed: config.seed,
    runs: config.runs,
    target: describeTarget(config),
    allowWrites: config.allowWrites,
    ...(config.coverageMin !== undefined && { coverageMin: config.coverageMin }),
    maxAnswerAgeSeconds: config.maxAnswerAgeSeconds,
    configuration: redactedConfig(config),
    ...(config.expectations && {
      expectations: {
        file: config.expectations.file,
        entries: config.expectations.entries.map((entry) => ({ ...entry, expired: isExpired(entry, new Date()) })),
      },
    }),
  };
}

function describeTarget(config: SuiteConfig): string {
  const { target } = config;
  if (target.kind === 'embedded') {
    const readings = target.readings === 'deployment' ? ", the deployment's readings" : '';
    const envelope = target.getEnvelope === DEFAULT_GET_ENVELOPE ? '' : `, Get Call answering ${target.getEnvelope}`;
    const alternatives = target.alternatives.length === 0 ? '' : `, serving the readings ${target.alternatives.join(', ')}`;
    const living = target.live === undefined ? '' : `, living: new calls logged at ${target.live} a second`;
    const ages = target.answerAge === undefined ? undefined : parseAnswerAge(target.answerAge);
    const old = ages === undefined ? '' : `, old answers: ${describeAnswerAge(ages)}`;
    return `the embedded reference implementation (data seed ${target.seed}, ${target.calls} calls${readings}${envelope}${alternatives}${living}${old})`;
  }
  return `${config.callsBaseUrl} (calls) and ${config.chatBaseUrl} (chat)`;
}

/** The checkout's commit and whether it has changes; nothing when the suite is not a git checkout. */
function commitOf(root: string): { commit?: string; modified?: boolean } {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8', timeout: 5_000 });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return {};
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { commit: head.stdout.trim(), modified: status.status === 0 ? status.stdout.trim() !== '' : undefined };
}
