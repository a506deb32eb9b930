// `npm run conformance -- proxy --target URL [--port N] [--har OUT.har]`: the judging proxy
// (fixtures/passive/proxy.ts) as a command. A team points its app, SDK or tests at the address it
// prints; on SIGINT or SIGTERM it stops accepting, lets the exchanges in flight finish, and writes the
// passive reports (the HAR mode's wording: VIOLATIONS FOUND, exit 1, or NO VIOLATIONS IN N
// EXCHANGES, exit 0) and, when asked, a HAR of what it saw with its secrets redacted. A second signal
// cuts the exchanges still in flight at once.
import { dirname, resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, environment, loadConfig, reportDirectory, type Env, type SuiteConfig } from '../../fixtures/config.ts';
import { createPassiveJudge } from '../../fixtures/passive/judge.ts';
import { harWriter, type HarWriter } from '../../fixtures/passive/proxy-har.ts';
import { startJudgingProxy, type JudgingProxy, type ProxyCounts } from '../../fixtures/passive/proxy.ts';
import { writePassiveReports } from '../passive-report.ts';
import { redactorFor } from '../redact.ts';

export const PROXY_USAGE = 'Usage: npm run conformance -- proxy --target URL [--port N] [--har OUT.har]   (port 0: any free port; default 8089)';
export const DEFAULT_PROXY_PORT = 8089;
const EXIT_USAGE = 2;

export interface ProxyArguments {
  target: URL;
  port: number;
  har?: string;
}

/** The arguments, or the one line that says which option is wrong. */
export function parseProxyArguments(argv: readonly string[]): ProxyArguments | string {
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const option = argv[index]!;
    const [name, inline] = option.startsWith('--') && option.includes('=') ? [option.slice(0, option.indexOf('=')), option.slice(option.indexOf('=') + 1)] : [option, undefined];
    if (!['--target', '--port', '--har'].includes(name!)) return `unexpected argument ${option}`;
    const value = inline ?? argv[++index];
    if (value === undefined || value === '') return `${name} needs a value`;
    values.set(name!, value);
  }
  const rawTarget = values.get('--target');
  if (rawTarget === undefined) return '--target is required: the base URL of the API to forward to (http:// or https://)';
  let target: URL;
  try {
    target = new URL(rawTarget);
  } catch {
    return `--target must be an http:// or https:// URL, not ${JSON.stringify(rawTarget)}`;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `--target must be an http:// or https:// URL, not ${JSON.stringify(rawTarget)}`;
  if (target.username !== '' || target.password !== '') return '--target must not carry credentials: the clients send their own';
  const rawPort = values.get('--port') ?? String(DEFAULT_PROXY_PORT);
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65_535) return `--port must be a whole number from 0 to 65535 (0: any free port), not ${JSON.stringify(rawPort)}`;
  const har = values.get('--har');
  if (har !== undefined && !existsSync(dirname(resolve(har)))) return `--har names a file in a folder that does not exist: ${dirname(resolve(har))}`;
  return { target, port: Number(rawPort), ...(har !== undefined && { har: resolve(har) }) };
}

const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
/** The HAR's creator: this project, by its package name and version. */
const CREATOR = { name: `${name} judging proxy`, version };

/** What the proxy itself saw besides the exchanges it judged, in lines for the console and the reports. */
export function describeCounts(counts: ProxyCounts): string[] {
  const lines = [`${counts.exchanges} exchange${counts.exchanges === 1 ? '' : 's'} passed through the proxy`];
  if (counts.upstreamErrors > 0) lines.push(`${counts.upstreamErrors} request${counts.upstreamErrors === 1 ? '' : 's'} the target did not answer whole (502 from the proxy, or an answer cut off), not judged: ${counts.upstreamErrorSamples.join('; ')}`);
  if (counts.clientAborts > 0) lines.push(`${counts.clientAborts} exchange${counts.clientAborts === 1 ? '' : 's'} the client gave up on before the answer was whole, not judged`);
  if (counts.cutAtStop > 0) lines.push(`${counts.cutAtStop} exchange${counts.cutAtStop === 1 ? '' : 's'} still in flight when the proxy stopped, cut and not judged`);
  if (counts.bodiesNotKept > 0) lines.push(`${counts.bodiesNotKept} exchange${counts.bodiesNotKept === 1 ? '' : 's'} with a body too large to keep a copy of, judged without it`);
  if (counts.sinkErrors > 0) lines.push(`${counts.sinkErrors} exchange${counts.sinkErrors === 1 ? '' : 's'} the judge or the HAR writer failed on (a bug: please report it)`);
  return lines;
}

/**
 * The configuration a passive run reads (profile, known failures), as the HAR mode reads it: judging
 * traffic sends nothing of its own, so no key is needed. The base addresses are not used: the proxy
 * records the target's URLs, and the judge finds the operations by their paths.
 */
function passiveConfig(): { config: SuiteConfig; env: Env } | string {
  try {
    const env = environment();
    return { config: loadConfig({ ...env, API_KEY: env.API_KEY || 'passive-run-sends-no-request' }), env };
  } catch (error) {
    if (error instanceof ConfigError) return `Configuration error: ${error.message}`;
    throw error;
  }
}

export async function runProxy(argv: readonly string[]): Promise<number> {
  const parsed = parseProxyArguments(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`proxy: ${parsed}\n${PROXY_USAGE}\n`);
    return EXIT_USAGE;
  }
  const configured = passiveConfig();
  if (typeof configured === 'string') {
    process.stderr.write(`${configured}\n`);
    return EXIT_USAGE;
  }
  const { config, env } = configured;
  const redactConfigured = redactorFor(env);
  const judge = createPassiveJudge({ profile: config.profile });
  const har: HarWriter | undefined = parsed.har === undefined ? undefined : harWriter(parsed.har, CREATOR, redactConfigured);
  let proxy: JudgingProxy;
  try {
    proxy = await startJudgingProxy({ target: parsed.target, port: parsed.port, sinks: har ? [judge, har] : [judge] });
  } catch (error) {
    process.stderr.write(`proxy: --port ${parsed.port} cannot be listened on: ${(error as Error).message}\n${PROXY_USAGE}\n`);
    return EXIT_USAGE;
  }
  process.stdout.write(`judging proxy listening on ${proxy.address}, forwarding to ${parsed.target.origin}\n`);
  process.stdout.write(`Point your app, SDK or tests at ${proxy.base} as their base URL. Stop with Ctrl-C (SIGINT) or SIGTERM to write the report.\n`);

  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  const inFlight = proxy.inFlight();
  process.stdout.write(`${signal}: the proxy stops accepting${inFlight > 0 ? ` and waits for ${inFlight} exchange${inFlight === 1 ? '' : 's'} in flight (a second signal cuts them)` : ''}\n`);
  const hurry = () => proxy.hurry();
  process.once('SIGINT', hurry);
  process.once('SIGTERM', hurry);
  const counts = await proxy.stop();

  const written = har ? await har.finish() : undefined;
  const result = judge.finish();
  // What passed the proxy but was never judged is counted in the reports beside what the judge left alone.
  for (const [why, count] of notJudgedByTheProxy(counts)) result.ignored[why] = count;
  const redact = (text: string) => redactConfigured(result.redact(text));
  for (const line of describeCounts(counts)) process.stdout.write(`${redact(line)}\n`);
  if (written !== undefined) process.stdout.write(`HAR of ${written} exchange${written === 1 ? '' : 's'} (secrets redacted): ${parsed.har}\n`);
  const report = writePassiveReports(result, {
    dir: resolve(reportDirectory(env)),
    sources: [`proxy → ${parsed.target.origin}`],
    rerun: parsed.har === undefined ? `npm run conformance -- proxy --target ${parsed.target.href} --har session.har (to keep the traffic), then npm run conformance -- har session.har` : `npm run conformance -- har ${parsed.har}`,
    env,
    ...(config.expectations && { expectations: config.expectations }),
  });
  process.stdout.write(report.console);
  return report.exitCode;
}

function notJudgedByTheProxy(counts: ProxyCounts): Array<[string, number]> {
  const rows: Array<[string, number]> = [
    ['requests the target did not answer whole (502 from the proxy, or an answer cut off)', counts.upstreamErrors],
    ['exchanges the client gave up on before the answer was whole', counts.clientAborts],
    ['exchanges cut when the proxy stopped', counts.cutAtStop],
    ['exchanges the judge failed on', counts.sinkErrors],
  ];
  return rows.filter(([, count]) => count > 0);
}
