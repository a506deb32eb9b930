// The command line's help, as data: every command with its synopsis, one line of description, its
// options and a few lines of detail; the variables with the defaults core/run/config.ts really
// applies (read from a configuration it builds, so the help cannot drift from it); the exit codes.
// Adding a command is one entry of COMMANDS (and its dispatch in conformance.ts).
import { loadConfig, REGIONS, reportDirectory, type SuiteConfig } from '../core/run/config.ts';
import { PROFILES } from '../core/run/profile.ts';
import { EXPECTATIONS_VARIABLE } from '../core/results/expectations.ts';
import { REFERENCE_READINGS } from '../reference/readings.ts';
import { REFERENCE_ALTERNATIVES } from '../reference/alternatives.ts';
import { GET_ENVELOPES } from '../reference/get-envelope.ts';
import { REPORT_FILES } from '../reports/conformance-reporter.ts';
import { EXIT } from './playwright-run.ts';
import { DEFAULT_UPSTREAM_TIMEOUTS } from '../passive/proxy/proxy-deadline.ts';
import { DEFAULT_REPORT_EVERY_MINUTES, REPORT_SIGNAL } from '../passive/proxy/proxy-interim.ts';
import { PLAYWRIGHT_TEST_OPTIONS, REFUSED_PLAYWRIGHT_OPTIONS } from '../core/run/playwright-options.ts';
import { commandLineHere } from '../core/results/replay-command.ts';
import { DEFAULT_HISTORY_LIMIT } from '../core/history/history-settings.ts';
import { DEFAULT_NOISE } from '../core/diff/diff-settings.ts';

/** The run's Playwright options described one by one below; the rest are named in a list. */
const SHOWN_RUN_OPTIONS = ['-g', '--grep', '-G', '--grep-invert', '-j', '--workers', '--shard'];

export const PROGRAM = 'calls-conformance';

interface OptionHelp {
  /** As typed, e.g. `--out`; aliases after a comma (`-h, --help`). */
  flag: string;
  /** The value's placeholder, when the option takes one. */
  value?: string;
  text: string;
}

export interface CommandHelp {
  name: string;
  /** What follows the command's name on the command line. */
  synopsis: string;
  summary: string;
  options: readonly OptionHelp[];
  details?: readonly string[];
}

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'run',
    synopsis: '[PLAYWRIGHT OPTIONS] [TEST FILTERS] [-- OTHER PLAYWRIGHT ARGUMENTS]',
    summary:
      'Run the suite against the configured target (the embedded reference when none is) and exit with its verdict. The default command.',
    options: [
      { flag: '--playwright-help', text: "Print Playwright's own options of `playwright test`." },
      {
        flag: '-g, --grep',
        value: 'REGEXP',
        text: 'Only the tests whose title matches: a requirement (@CALLS-GET-NOT-FOUND), a level (@must), an operation (@get-call), @writes.',
      },
      { flag: '-G, --grep-invert', value: 'REGEXP', text: 'Leave out the tests whose title matches.' },
      { flag: '-j, --workers', value: 'N', text: 'Parallel workers (default: chosen from the target and MAX_IN_FLIGHT).' },
      { flag: '--shard', value: 'I/N', text: 'Run shard I of N (with the same CONFORMANCE_SEED on every machine; see merge).' },
    ],
    details: [
      `The other Playwright options it passes on: ${Object.keys(PLAYWRIGHT_TEST_OPTIONS)
        .filter((name) => !SHOWN_RUN_OPTIONS.includes(name))
        .join(', ')}.`,
      'Anything after `--` is passed to Playwright unchecked. Words that are not options are test-file filters.',
      `Refused: ${refusedOptions()}.`,
    ],
  },
  {
    name: 'dry-run',
    synopsis: '',
    summary: 'List what a run would send (operations, about how many requests, which writes) and send nothing.',
    options: [],
    details: ['The same as CONFORMANCE_DRY_RUN=true. Exit 0, or 2 on a bad configuration.'],
  },
  {
    name: 'merge',
    synopsis: 'BLOB_REPORTS_DIR | PROXY_REPORT_DIR...',
    summary: 'Merge the blob reports of sharded runs (run --shard=I/N --reporter=blob) into one report, and exit with its verdict.',
    options: [],
    details: [
      'Given the report folders of several judging proxies (each holding passive-state.json), merges them into one passive report in',
      'REPORT_DIR, compared across the proxies as one proxy that saw all the traffic would; exit 1 when violations are found.',
    ],
  },
  {
    name: 'compare',
    synopsis: 'BASE NEW',
    summary: 'Compare two runs (each a results.json or its folder) requirement by requirement; exit 1 when something newly fails.',
    options: [],
  },
  {
    name: 'summary',
    synopsis: '[REPORT_DIR] [--report-url URL]',
    summary:
      "Print a report folder's job summary in Markdown (verdict, what failed, coverage; a diff's differences and readings), for a CI page or a pull request.",
    options: [{ flag: '--report-url', value: 'URL', text: 'Where readers find the whole report (an artifact), linked at its end.' }],
    details: ['REPORT_DIR defaults to REPORT_DIR, else conformance-report. Exit 0, or 2 when the folder holds no results.json.'],
  },
  {
    name: 'history',
    synopsis: '[--trim N] [FILE]',
    summary: "Print the runs' history (FILE, or HISTORY_FILE) a line a run, then the flaky requirements and the new failures.",
    options: [{ flag: '--trim', value: 'N', text: 'First keep only the last N runs (lines it cannot read are kept).' }],
    details: ['Lines it cannot read are named on stderr and skipped, never removed. Exit 0, or 2 when the file cannot be read or written.'],
  },
  {
    name: 'diff',
    synopsis: '',
    summary:
      "Ask the primary (the configured target) and a candidate (CANDIDATE_CALLS_BASE_URL, …) the suite's read plan; report where the candidate differs beyond the primary's own noise.",
    options: [],
    details: [
      'Each difference is classed against the words: a regression (the requirement named), a fix, a reading changed, or a behaviour change.',
      'Exit 0 no difference beyond noise, 1 differences, 2 a configuration error, 3 inconclusive. Reports in REPORT_DIR, else diff-report/.',
    ],
  },
  {
    name: 'certify',
    synopsis: '[--out BUNDLE_DIR] [--signing-key KEY.pem] [--output DIR]',
    summary: 'Run the whole suite, writes included, and write a certification bundle (reports, manifest, signature).',
    options: [
      { flag: '--out', value: 'BUNDLE_DIR', text: 'Where the bundle goes, a new or empty folder (default: certification-bundle).' },
      { flag: '--signing-key', value: 'FILE', text: 'An Ed25519 private key (PEM) to sign the manifest of a certified run.' },
      { flag: '--output', value: 'DIR', text: "Playwright's folder for traces and attachments." },
    ],
    details: ['Needs ALLOW_WRITES=true with GROUP_GUID, MESSAGE_ID and ACTING_UID, and RESTRICTED_API_KEY. A refused run exits non-zero.'],
  },
  {
    name: 'verify-bundle',
    synopsis: 'BUNDLE_DIR [--public-key KEY.pem]',
    summary: "Check a certification bundle's hashes and signature; exit 0 when it verifies, 1 when it does not, 2 on a usage error.",
    options: [
      { flag: '--public-key', value: 'FILE', text: "The signer's Ed25519 public key (PEM); without it, the key the bundle names." },
    ],
  },
  {
    name: 'har',
    synopsis: '[--access-log-fields PART=FIELD,...] FILE...',
    summary:
      'Judge every exchange of the three operations recorded in HAR 1.2 files, Envoy tap traces, JSON Lines of exchanges or JSON access logs; exit 1 when violations are found.',
    options: [
      {
        flag: '--access-log-fields',
        value: 'PART=FIELD,...',
        text: "A JSON access log's field names where they are not nginx's: the parts method, uri, status, time, seconds, milliseconds, host, scheme.",
      },
    ],
    details: ['A passive run never says CONFORMANT: "VIOLATIONS FOUND" (exit 1) or "NO VIOLATIONS IN N EXCHANGES" (exit 0).'],
  },
  {
    name: 'proxy',
    synopsis: '--target URL [--chat-target URL] [--port N] [--har OUT.har] [--report-every-minutes N]',
    summary: 'A pass-through proxy to the target that judges every exchange as it passes; reports while it runs and when it stops.',
    options: [
      { flag: '--target', value: 'URL', text: 'Where requests are forwarded (http or https).' },
      {
        flag: '--chat-target',
        value: 'URL',
        text: 'The chat service, when it is elsewhere: mark-unread and every path but …/calls go there, the calls to --target.',
      },
      { flag: '--port', value: 'N', text: 'The port it listens on, on 127.0.0.1 (default 8089; 0 for any free port, printed).' },
      {
        flag: '--har',
        value: 'OUT.har',
        text: 'Also write a HAR file of what it saw (secrets redacted); named OUT.jsonl or OUT.ndjson, JSON Lines of exchanges instead.',
      },
      {
        flag: '--connect-timeout-ms',
        value: 'MS',
        text: `How long to wait for a connection to the target (default ${DEFAULT_UPSTREAM_TIMEOUTS.connectMs}).`,
      },
      {
        flag: '--first-byte-timeout-ms',
        value: 'MS',
        text: `How long the target may take to begin its answer (default ${DEFAULT_UPSTREAM_TIMEOUTS.firstByteMs}).`,
      },
      {
        flag: '--idle-timeout-ms',
        value: 'MS',
        text: `How long the target may go quiet in the middle of an answer (default ${DEFAULT_UPSTREAM_TIMEOUTS.idleMs}).`,
      },
      {
        flag: '--report-every-minutes',
        value: 'N',
        text: `Write an interim report of the traffic so far every N minutes (default ${DEFAULT_REPORT_EVERY_MINUTES}; 0: only on ${REPORT_SIGNAL}).`,
      },
    ],
    details: [
      'A target that runs out a timeout gets the client a 504 saying which, or the answer cut off once begun; counted, not judged.',
      `${REPORT_SIGNAL} writes an interim report at once. Each report file is written whole (a temporary file, then renamed).`,
      "Stop it with Ctrl-C (SIGINT) or SIGTERM: the final report. Several proxies' reports merge into one with merge.",
    ],
  },
  {
    name: 'reference',
    synopsis:
      '[--port N] [--host H] [--seed S] [--calls N] [--readings R] [--get-envelope E] [--alternatives A,B] [--rate-limit N] [--live RATE] [--answer-age AGES] [--fault NAME | --list-faults]',
    summary: 'Start the reference implementation (the default target) as a server, and print its base address.',
    options: [
      { flag: '--port', value: 'N', text: 'The port (default 8080; 0 for any free port).' },
      { flag: '--host', value: 'H', text: 'The address it listens on.' },
      { flag: '--seed', value: 'S', text: 'The seed of its data.' },
      { flag: '--calls', value: 'N', text: 'How many calls it logs.' },
      { flag: '--readings', value: 'R', text: `How it reads the open points of the specification: ${REFERENCE_READINGS.join(', ')}.` },
      { flag: '--get-envelope', value: 'E', text: `How Get Call carries the call: ${GET_ENVELOPES.join(', ')}.` },
      {
        flag: '--alternatives',
        value: 'A,B',
        text: `Readings the words allow that it serves instead of its own: ${REFERENCE_ALTERNATIVES.join(', ')}.`,
      },
      { flag: '--rate-limit', value: 'N', text: 'At most N requests a second, then 429.' },
      { flag: '--live', value: 'RATE', text: 'Log RATE new calls a second while it runs.' },
      {
        flag: '--answer-age',
        value: 'AGES',
        text: 'Answer List Calls and Get Call old, as a cache or a lagging replica would: list=cache:10,get=replica:5.',
      },
      { flag: '--fault', value: 'NAME', text: 'Run with one fault of the catalog.' },
      { flag: '--list-faults', text: 'Print the fault catalog.' },
    ],
    details: ['Keys: API_KEY and RESTRICTED_API_KEY when set, else the demo keys.'],
  },
  {
    name: 'help',
    synopsis: '[COMMAND]',
    summary: "This help, or one command's (the same as COMMAND --help).",
    options: [],
  },
];

/** The refused options, those refused for one reason together: `-c, --config (…)`. */
function refusedOptions(): string {
  const byReason = new Map<string, string[]>();
  for (const [name, why] of Object.entries(REFUSED_PLAYWRIGHT_OPTIONS)) byReason.set(why, [...(byReason.get(why) ?? []), name]);
  return [...byReason].map(([why, names]) => `${names.sort().join(', ')} (${why})`).join('; ');
}

export const HELP_FLAGS = ['--help', '-h'] as const;

export function findCommand(name: string): CommandHelp | undefined {
  return COMMANDS.find((command) => command.name === name);
}

interface VariableHelp {
  name: string;
  default: string;
  text: string;
}

/** The main variables, each with the default the configuration applies when it is unset. */
export function variables(): VariableHelp[] {
  // Built from an empty environment: the embedded target's defaults, and a remote target's where they differ.
  const embedded = loadConfig({ CONFORMANCE_SEED: '0' });
  const remote = loadConfig({
    CALLS_BASE_URL: 'http://target.invalid/v3',
    CHAT_BASE_URL: 'http://target.invalid/v3',
    API_KEY: 'k',
    CONFORMANCE_SEED: '0',
  });
  const readings = (embedded.target.kind === 'embedded' ? embedded.target.readings : undefined) ?? 'entries';
  return [
    ...targetVariables(embedded, remote),
    ...runVariables(embedded, readings),
    ...diffVariables(),
    { name: 'ENV_FILE', default: '.env', text: 'The file read under the environment (the environment wins); empty for none.' },
  ];
}

/** Where the target is, its keys, what may be written to it, and how it is asked. */
function targetVariables(embedded: SuiteConfig, remote: SuiteConfig): VariableHelp[] {
  return [
    {
      name: 'CALLS_BASE_URL, CHAT_BASE_URL',
      default: 'unset: the embedded reference',
      text: "The target's base addresses, each ending in /v3.",
    },
    { name: 'APP_ID, REGION', default: 'unset', text: `Or the deployment's app id and region (${REGIONS.join(', ')}).` },
    {
      name: 'API_KEY',
      default: "the reference's demo key",
      text: 'A key with fullAccess scope; required with a remote target. Never printed.',
    },
    { name: 'RESTRICTED_API_KEY', default: 'unset', text: 'A key without fullAccess, to check that mark-unread refuses it.' },
    {
      name: 'ALLOW_WRITES',
      default: `${embedded.allowWrites} for the reference, ${remote.allowWrites} for a remote target`,
      text: 'Whether mark-unread (the one write) is sent.',
    },
    {
      name: 'GROUP_GUID, MESSAGE_ID, ACTING_UID',
      default: 'unset',
      text: 'The group, message and member mark-unread writes to (with ALLOW_WRITES=true).',
    },
    { name: 'REQUEST_TIMEOUT_MS', default: String(embedded.requestTimeoutMs), text: 'How long one request may take.' },
    { name: 'MAX_RPS', default: 'unset: no limit', text: 'At most this many requests a second.' },
    { name: 'MAX_IN_FLIGHT', default: String(embedded.maxInFlight), text: 'At most this many requests waiting on the target at once.' },
    { name: 'REQUEST_BUDGET', default: 'unset: no limit', text: 'At most this many requests in the run; property runs are scaled to fit.' },
    {
      name: 'TRACE_HEADERS',
      default: String(embedded.traceHeaders),
      text: 'false: no traceparent and x-conformance-test headers, for a target that refuses headers it does not know.',
    },
    {
      name: 'PAGE_SIZE_PARAMETER',
      default: 'unset',
      text: "List Calls' page-size parameter, where none of perPage, per_page, limit, pageSize, page_size, size is acknowledged.",
    },
    {
      name: 'SETTLE_SECONDS',
      default: String(embedded.settleSeconds),
      text: "How long after a call ends (the target's clock) its recording and totals may still settle.",
    },
  ];
}

/** How a run judges, replays and reports. */
function runVariables(embedded: SuiteConfig, readings: string): VariableHelp[] {
  return [
    {
      name: 'CONFORMANCE_PROFILE',
      default: embedded.profile,
      text: `${PROFILES.join(' or ')}: the specification alone, or with the deployed API's conventions.`,
    },
    {
      name: 'CONFORMANCE_SEED',
      default: 'random, printed at the start',
      text: 'The seed of generated inputs; the same seed replays a run.',
    },
    { name: 'CONFORMANCE_RUNS', default: String(embedded.runs), text: 'Generated cases per property.' },
    {
      name: 'CONFORMANCE_RETRIES',
      default: String(embedded.retries),
      text: 'Times a failed test is run again before its requirement is judged.',
    },
    { name: EXPECTATIONS_VARIABLE, default: 'unset', text: 'A YAML file of known failures, excused with a reason and an expiry date.' },
    { name: 'BASELINE', default: 'unset', text: "An earlier run's results.json (or its folder) to compare this run with." },
    {
      name: 'HISTORY_FILE',
      default: 'unset',
      text: 'A JSON Lines file each run adds a line to; the report shows the last runs and the flaky requirements.',
    },
    { name: 'HISTORY_LIMIT', default: String(DEFAULT_HISTORY_LIMIT), text: 'The most runs HISTORY_FILE keeps; the oldest go first.' },
    {
      name: 'COVERAGE_MIN',
      default: 'unset',
      text: 'The least share (0-100, percent) of each coverage dimension the run must cover; under it a CONFORMANT run is INCONCLUSIVE.',
    },
    {
      name: 'REFERENCE_READINGS',
      default: readings,
      text: `The embedded reference's readings (${REFERENCE_READINGS.join(', ')}).`,
    },
    {
      name: 'CONFORMANCE_CONSOLE',
      default: embedded.console,
      text: 'compact: progress, then one line per failed requirement and the verdict; verbose: every failure in full.',
    },
    {
      name: 'REPORT_DIR',
      default: `${reportDirectory({})}; ${reportDirectory({}, 'passive')} for har, proxy`,
      text: 'Where the reports are written, relative to the current directory.',
    },
  ];
}

/** The diff command's candidate, secondary copy and noise. */
function diffVariables(): VariableHelp[] {
  return [
    {
      name: 'CANDIDATE_CALLS_BASE_URL',
      default: 'unset',
      text: "diff's candidate, with CANDIDATE_CHAT_BASE_URL, read as CALLS_BASE_URL and CHAT_BASE_URL are.",
    },
    {
      name: 'CANDIDATE_API_KEY',
      default: 'unset',
      text: "diff's candidate's key (and CANDIDATE_RESTRICTED_API_KEY). Never printed.",
    },
    {
      name: 'CANDIDATE_GROUP_GUID',
      default: 'unset',
      text: "With ALLOW_WRITES=true, diff compares mark-unread: the candidate's fixture (with CANDIDATE_MESSAGE_ID, CANDIDATE_ACTING_UID), as GROUP_GUID … are the primary's; SECONDARY_GROUP_GUID … the secondary's.",
    },
    {
      name: 'SECONDARY_CALLS_BASE_URL',
      default: 'unset',
      text: "diff's secondary trusted copy of the primary, asked in the A/A pass instead of the primary again (with SECONDARY_CHAT_BASE_URL, SECONDARY_API_KEY, SECONDARY_RESTRICTED_API_KEY; the key never printed).",
    },
    {
      name: 'DIFF_NOISE_RELATIVE',
      default: String(DEFAULT_NOISE.relativePercent),
      text: 'diff reports a path only where the candidate differs more often than the primary differs from itself, by this percent of it',
    },
    { name: 'DIFF_NOISE_ABSOLUTE', default: String(DEFAULT_NOISE.absolutePercent), text: '… and by at least these percentage points.' },
    {
      name: 'DIFF_IGNORE',
      default: 'unset',
      text: "diff's declared noise: operation:path,path;… (listCalls:data[].mid); a whole answer is refused.",
    },
  ];
}

const EXIT_MEANINGS: ReadonlyArray<[number, string]> = [
  [EXIT.conformant, 'CONFORMANT'],
  [EXIT.nonConformant, 'NON-CONFORMANT: a MUST requirement failed'],
  [EXIT.error, 'configuration or suite error (a bad variable, named in one line), or a refused command line'],
  [EXIT.inconclusive, 'INCONCLUSIVE: the target could not be reached, or a test could not finish'],
];

const WIDTH = 100;

/** Words filled to WIDTH columns; lines after the first start at `indent`, under the first one's text. */
function wrap(text: string, indent: number, first = ''): string {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    if (line.trim() !== '' && line.length + 1 + word.length > WIDTH && line.length > indent) {
      lines.push(line);
      line = ' '.repeat(indent) + word;
    } else line = line.length === 0 || line.endsWith(' ') ? `${line}${word}` : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** A term and its text in two columns, the text wrapped under itself. */
function entry(term: string, text: string, width: number): string {
  const head = `  ${term.length >= width ? `${term}  ` : term.padEnd(width)}`;
  return wrap(text, head.length, head);
}

function optionLine(option: OptionHelp): string {
  return entry(option.value ? `${option.flag} ${option.value}` : option.flag, option.text, 28);
}

/** The commands, one line each: what a refused command line prints under its reason. */
export function commandList(): string {
  return [
    `Usage: ${commandLineHere()} [COMMAND] [OPTIONS]`,
    '',
    'Commands:',
    ...COMMANDS.map((command) => entry(command.name === 'run' ? 'run (default)' : command.name, command.summary, 16)),
  ].join('\n');
}

/** `calls-conformance --help`: every command line in it is typed as it runs where the help is printed. */
export function mainHelp(): string {
  const here = commandLineHere();
  return [
    wrap(`${PROGRAM}: the conformance suite of the calls interface (List Calls, Get Call, Mark Group Conversation As Unread).`, 0),
    '',
    commandList(),
    '',
    `Variables (the environment, over ${'.env'} in the current directory), with their defaults:`,
    ...variables().map((variable) => entry(variable.name, `${variable.text} [${variable.default}]`, 36)),
    '',
    'Exit codes:',
    ...EXIT_MEANINGS.map(([code, meaning]) => `  ${code}  ${meaning}`),
    '',
    wrap(
      `Reports: ${Object.values(REPORT_FILES).join(', ')} in REPORT_DIR (${reportDirectory({})}/ in the current directory; ${reportDirectory({}, 'passive')}/ for har and the proxy, with summary.md), and a summary on the console.`,
      0,
    ),
    '',
    wrap(`Other options of run are Playwright's: see them with \`${here} run --playwright-help\` (or \`npx playwright test --help\`).`, 0),
    `One command's help: \`${here} COMMAND --help\`.`,
  ].join('\n');
}

/** `calls-conformance COMMAND --help`. */
export function commandHelp(command: CommandHelp): string {
  const here = commandLineHere();
  return [
    wrap(`${command.name}${command.synopsis ? ` ${command.synopsis}` : ''}`, 8 + here.length, `Usage: ${here} `),
    '',
    wrap(command.summary, 0),
    ...(command.options.length > 0 ? ['', 'Options:', ...command.options.map(optionLine)] : []),
    ...(command.details ? ['', ...command.details.map((line) => wrap(line, 0))] : []),
    '',
    `Variables, exit codes and reports: \`${here} --help\`.`,
  ].join('\n');
}
