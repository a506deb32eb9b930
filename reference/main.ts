// `npm run reference -- [--port N] [--host H] [--seed S] [--calls N] [--rate-limit N] [--readings R] [--get-envelope E] [--alternatives A,B] [--live RATE] [--settle-delay MIN-MAX] [--answer-age AGES] [--fault NAME]`:
// starts the reference implementation and prints one line with its base address. `--rate-limit N`
// answers at most N requests a second, with the deployment's headers and 429 (reference/rate-limit.ts).
// `--readings entries|deployment` chooses how call minutes and totalParticipants read the
// specification (reference/readings.ts): the reference's own by default, or the deployed API's.
// `--get-envelope data-object|data-array|bare` chooses how Get Call carries the call
// (reference/get-envelope.ts): {"data": call} by default, {"data": [call]}, or the call itself.
// `--alternatives A,B` serves readings the words allow instead of the reference's own
// (reference/alternatives.ts: participants-count-people, on-behalf-of-groups, page-size-limit).
// `--fault NAME` runs it with one fault of the catalog, under the first of the fault's readings
// unless --readings says otherwise; `--list-faults` prints the catalog. `--live RATE` logs RATE new
// calls a second while it runs, each moving on (reference/live/), and `--settle-delay MIN-MAX` says
// over how many seconds after its end each call's recording and final minutes arrive (2-15 by
// default; 0 settles every call as it ends; a reference standing still has nothing left to settle,
// so without --live it changes nothing). `--answer-age list=cache:10,get=replica:5` answers List
// Calls and Get Call, each on its own, as a cache keeping answers or a replica lagging that many
// seconds would (reference/answer-age.ts). Keys come from API_KEY and
// RESTRICTED_API_KEY when set (the variables that configure the suite), else the demo keys.
import { parseArgs } from 'node:util';
import { createServer } from './server.ts';
import { DEFAULT_CALLS, DEFAULT_SEED, MAX_CALLS } from './fixtures.ts';
import { describeCatalog, findFault } from './faults/catalog.ts';
import { readingsOf } from './faults/fault.ts';
import { DEFAULT_READINGS, isReferenceReadings, REFERENCE_READINGS } from './readings.ts';
import { LIVE_RATE_RULE, parseLiveRate } from './live/rate.ts';
import { DEFAULT_SETTLE_DELAY, describeSettleDelay, parseSettleDelay, SETTLE_DELAY_RULE } from './live/settle-delay.ts';

import { DEFAULT_GET_ENVELOPE, GET_ENVELOPES, isGetEnvelope } from './get-envelope.ts';
import { parseAlternatives, REFERENCE_ALTERNATIVES } from './alternatives.ts';
import { ANSWER_AGE_RULE, describeAnswerAge, parseAnswerAge } from './answer-age.ts';

const USAGE = `usage: npm run reference -- [--port N] [--host H] [--seed S] [--calls N] [--rate-limit N] [--readings ${REFERENCE_READINGS.join('|')}] [--get-envelope ${GET_ENVELOPES.join('|')}] [--alternatives ${REFERENCE_ALTERNATIVES.join(',')}] [--live RATE] [--settle-delay MIN-MAX] [--answer-age list=MODE:SECONDS,get=MODE:SECONDS] [--fault NAME | --list-faults]`;

function fail(message: string): never {
  process.stderr.write(`reference: ${message}\n`);
  process.exit(2);
}

function integerOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    fail(`--${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return Number(raw);
}

function keyOption(variable: string): string | undefined {
  const value = process.env[variable];
  if (value === undefined || value === '') return undefined;
  if (/\s/.test(value)) fail(`${variable} must not contain whitespace`);
  return value;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      calls: { type: 'string' },
      fault: { type: 'string' },
      'rate-limit': { type: 'string' },
      readings: { type: 'string' },
      live: { type: 'string' },
      'settle-delay': { type: 'string' },
      'answer-age': { type: 'string' },
      'get-envelope': { type: 'string' },
      alternatives: { type: 'string' },
      'list-faults': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message.split('\n')[0]} (${USAGE})`);
}
if (parsed.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (parsed['list-faults']) {
  process.stdout.write(`${describeCatalog()}\n`);
  process.exit(0);
}
const fault = parsed.fault === undefined ? undefined : findFault(parsed.fault);
if (parsed.fault !== undefined && !fault)
  fail(`--fault: no fault named "${parsed.fault}" (npm run reference -- --list-faults prints the catalog)`);

const readings = parsed.readings ?? (fault ? readingsOf(fault)[0]! : DEFAULT_READINGS);
if (!isReferenceReadings(readings)) fail(`--readings must be one of ${REFERENCE_READINGS.join(', ')} (got "${readings}")`);
const getEnvelope = parsed['get-envelope'] ?? DEFAULT_GET_ENVELOPE;
if (!isGetEnvelope(getEnvelope)) fail(`--get-envelope must be one of ${GET_ENVELOPES.join(', ')} (got "${getEnvelope}")`);

const alternativesRead = parseAlternatives(parsed.alternatives ?? '');
if ('unknown' in alternativesRead) fail(`--alternatives: "${alternativesRead.unknown}" is none of ${REFERENCE_ALTERNATIVES.join(', ')}`);
const { alternatives } = alternativesRead;

const port = integerOption('port', parsed.port, 8080, 0, 65535);
const seed = integerOption('seed', parsed.seed, DEFAULT_SEED, 0, 2 ** 32 - 1);
const calls = integerOption('calls', parsed.calls, fault?.calls ?? DEFAULT_CALLS, 1, MAX_CALLS);
const fullAccess = keyOption('API_KEY');
const readOnly = keyOption('RESTRICTED_API_KEY');
const rateLimit = parsed['rate-limit'] === undefined ? undefined : integerOption('rate-limit', parsed['rate-limit'], 0, 1, 1_000_000);
const liveRate =
  parsed.live === undefined ? undefined : (parseLiveRate(parsed.live) ?? fail(`--live must be ${LIVE_RATE_RULE} (got "${parsed.live}")`));
const settleDelay =
  parsed['settle-delay'] === undefined
    ? DEFAULT_SETTLE_DELAY
    : (parseSettleDelay(parsed['settle-delay']) ?? fail(`--settle-delay must be ${SETTLE_DELAY_RULE} (got "${parsed['settle-delay']}")`));
const answerAge =
  parsed['answer-age'] === undefined
    ? undefined
    : (parseAnswerAge(parsed['answer-age']) ?? fail(`--answer-age must be ${ANSWER_AGE_RULE} (got "${parsed['answer-age']}")`));
const reference = createServer({
  seed,
  calls,
  readings,
  getEnvelope,
  keys: { ...(fullAccess && { fullAccess }), ...(readOnly && { readOnly }) },
  ...(fault && { fault }),
  ...(alternatives.length > 0 && { alternatives }),
  ...(rateLimit !== undefined && { rateLimit }),
  ...(liveRate !== undefined && { live: { rate: liveRate, settleDelay } }),
  ...(answerAge && { answerAge }),
});
/** What the start-up line adds after the address: the readings and Get Call's envelope when not the defaults, the fault, the living with its settling, and old answers. */
const serving = [
  readings !== DEFAULT_READINGS && `the ${readings}'s readings`,
  getEnvelope !== DEFAULT_GET_ENVELOPE && `Get Call answering ${getEnvelope}`,
  alternatives.length > 0 && `the readings ${alternatives.join(', ')}`,
  fault && `the fault ${fault.name}`,
  liveRate !== undefined && `new calls logged at ${liveRate} a second, ${describeSettleDelay(settleDelay)}`,
  answerAge && `old answers (${describeAnswerAge(answerAge)})`,
]
  .filter(Boolean)
  .join(' and ');

try {
  const base = await reference.listen(port, parsed.host ?? '127.0.0.1');
  // Once the address is out, whoever waits for it starts up while the data set is built here.
  // Requests that arrive meanwhile wait in the listen queue and are answered once it is.
  process.stdout.write(`reference server listening on ${base}${serving ? ` with ${serving}` : ''}\n`, () => reference.prepare());
} catch (error) {
  fail(`cannot listen on ${parsed.host ?? '127.0.0.1'}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void reference.close().then(() => process.exit(0)));
}
