// The hostile-data catalog (issue 46, item 7): as the fault catalog proves the checks, these answers
// prove the outputs. Each is the reference with one hostile way of answering, made at the bytes the
// target sends (a rewrite of each answer) or in the reference itself (a fault's hooks, where the
// hostile part is big). hostile-catalog.spec.ts runs the suite against each through the judging
// proxy, then `har` on the proxy's recording, and holds every run to its verdict within its bound,
// and every byte written (consoles, reports, HAR, Playwright's artefacts) to having no key, no raw
// control character, no injected markup and nothing executed.
import type { IncomingHttpHeaders } from 'node:http';
import type { Fault } from '../../reference/faults/fault.ts';

/** One answer of the reference as it is about to leave, and the key its request carried. */
interface Leaving {
  path: string;
  key: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the target sends instead. */
interface Sent {
  status?: number;
  headers?: Record<string, string>;
  body: Buffer;
}

export interface HostileAnswer {
  name: string;
  /** What the target sends, in one line. */
  description: string;
  /** Rewrites each answer as the target sends it; none: the reference's answer as it is. */
  rewrite?(leaving: Leaving): Sent;
  /** The hostile part made by the reference itself (a fault's hooks), where a rewrite would cost too much. */
  fault?(): Fault;
  /** The suite's verdict (on the tests of HOSTILE_GREP), the proxy's and har's on the traffic. */
  verdicts: { active: 'NON-CONFORMANT' | 'INCONCLUSIVE'; passive: 'VIOLATIONS FOUND' };
  /** The requirements the suite must name failed, the ones the answer breaks. */
  fails: readonly string[];
  /** Requirements the answer does not break, which a wrong blame would fail. */
  holds?: readonly string[];
  /** The most the suite's run, and then har's, may each take. */
  boundMs: number;
}

/** The tests run against each: those that quote what the target answered (fields, error bodies, statuses). */
export const HOSTILE_GREP = 'CALLS-LIST-OK |CALLS-GET-OK |CALL-FIELD-STATUS |AUTH-INVALID-KEY |ERROR-BODY-SHAPE |CHAT-UNREAD-OK ';

/** C0 (ESC, BEL, CR, NUL), DEL, C1 (CSI, OSC), a bidirectional override and isolate, a lone surrogate. */
const CONTROLS = '\u001b[2J\u0007\r\u0000\u007f\u009b31m\u009d0;x\u0007\u202e\u2066\ud800';

/**
 * Markup and commands that would act if an output let them: script and event handlers in HTML,
 * CDATA and elements in XML, template and shell substitutions (each of which, if run, would create
 * the file `MARKER`, named by the caller).
 */
const injection = (marker: string) =>
  `</script><script>alert(1)</script><img src=x onerror=alert(2)>]]><injected/>{{7*7}}\${7*7}$(touch ${marker})\`touch ${marker}\``;

/** Markup an injection leaves if a report writes it raw: what no report may hold. */
export const INJECTED_MARKUP = /<script>alert\(1\)|<img src=x onerror|<injected\/>/;

const isJson = (leaving: Leaving) => /json/i.test(String(leaving.headers['content-type'] ?? ''));

/** Every string of the JSON body changed by `change`; a body that is not JSON as it is. */
function everyString(leaving: Leaving, change: (text: string) => string): Sent {
  if (!isJson(leaving)) return { body: leaving.body };
  const walk = (value: unknown): unknown =>
    typeof value === 'string'
      ? change(value)
      : Array.isArray(value)
        ? value.map(walk)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item)]))
          : value;
  return { body: Buffer.from(JSON.stringify(walk(JSON.parse(leaving.body.toString('utf8'))))) };
}

/** The JSON text with each `"field":value` of these fields given the raw text `to` (a number JSON.stringify cannot write). */
function rawValues(leaving: Leaving, values: Record<string, string>): Sent {
  let text = leaving.body.toString('utf8');
  for (const [field, to] of Object.entries(values)) text = text.replace(new RegExp(`"${field}":(-?[\\d.eE+-]+)`, 'g'), `"${field}":${to}`);
  return { body: Buffer.from(text) };
}

const isList = (leaving: Leaving) => /\/calls$/.test(leaving.path) && leaving.status === 200;

/**
 * A target that quotes the key each request carried back in every value the suite may show: every
 * string of a JSON answer (any other body whole) and two headers of its own. The one echoing target
 * of the self-tests: the hostile catalog runs it, and so does the search for keys (secret-leaks.spec.ts).
 */
export const ECHOED_KEY: HostileAnswer = {
  name: 'echoed-key',
  description: 'every string of every answer ends with the key the request carried, and two headers echo it, as is and URL-encoded',
  rewrite: (leaving) => ({
    ...(isJson(leaving)
      ? everyString(leaving, (text) => `${text} ${leaving.key}`)
      : { body: Buffer.concat([leaving.body, Buffer.from(` ${leaving.key}`)]) }),
    headers: { 'x-echo': leaving.key, 'x-echo-url': encodeURIComponent(leaving.key) },
  }),
  verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
  fails: ['CALL-FIELD-STATUS'],
  boundMs: 120_000,
};

export function hostileAnswers(marker: string): HostileAnswer[] {
  return [
    ECHOED_KEY,
    {
      name: 'control-characters',
      description: 'every string of every answer ends with C0 and C1 controls, DEL, bidirectional overrides and a lone surrogate',
      rewrite: (leaving) => everyString(leaving, (text) => `${text}${CONTROLS}`),
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['CALL-FIELD-STATUS', 'CALL-FIELD-SESSION-ID'],
      boundMs: 120_000,
    },
    {
      name: 'injection-strings',
      description: 'every string of every answer ends with HTML, XML, template and shell injections',
      rewrite: (leaving) => everyString(leaving, (text) => `${text}${injection(marker)}`),
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['CALL-FIELD-STATUS'],
      boundMs: 120_000,
    },
    {
      name: 'huge-numbers',
      description:
        'list answers carry numbers past what a double holds or an integer means: 1e400 minutes, 2^64 participants, -0 minutes, a 30-digit time',
      rewrite: (leaving) =>
        isList(leaving)
          ? rawValues(leaving, {
              totalAudioMinutes: '1e400',
              totalParticipants: '18446744073709551616',
              totalVideoMinutes: '-0',
              joinedAt: '123456789012345678901234567890',
            })
          : { body: leaving.body },
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['CALL-FIELD-TOTAL-AUDIO-MINUTES', 'PARTICIPANT-FIELD-JOINED-AT'],
      boundMs: 120_000,
    },
    {
      name: 'duplicate-keys',
      description: 'every status of a list answer given twice, the second time as controls and an injection (JSON.parse keeps the last)',
      rewrite: (leaving) =>
        isList(leaving)
          ? {
              body: Buffer.from(
                leaving.body
                  .toString('utf8')
                  .replace(
                    /"status":("[a-z]+")/g,
                    (_, status: string) => `"status":${status},"status":${JSON.stringify(`${CONTROLS}${injection(marker)}`)}`,
                  ),
              ),
            }
          : { body: leaving.body },
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['CALL-FIELD-STATUS'],
      boundMs: 120_000,
    },
    {
      name: 'invalid-utf8',
      description: 'every call type in a list answer holds bytes that are not UTF-8 (0xC3 0x28, 0xFF)',
      rewrite: (leaving) => {
        if (!isList(leaving)) return { body: leaving.body };
        const parts = leaving.body.toString('latin1').split(/"type":"(audio|video)"/);
        const bytes = parts.map((part, index) =>
          index % 2 === 1
            ? Buffer.concat([Buffer.from(`"type":"${part}`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"')])
            : Buffer.from(part, 'latin1'),
        );
        return { body: Buffer.concat(bytes) };
      },
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['HTTP-JSON-BODIES', 'CALL-FIELD-TYPE'],
      boundMs: 120_000,
    },
    {
      name: 'deep-nesting',
      description: 'every list answer holds a data array nested 100,000 levels deep (JSON.parse takes it; a recursive walk overflows)',
      rewrite: (leaving) =>
        isList(leaving)
          ? {
              body: Buffer.from(
                `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)},"meta":{"pagination":{"total":1,"count":1,"per_page":20,"current_page":1,"total_pages":1}}}`,
              ),
            }
          : { body: leaving.body },
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['PAGINATION-ENVELOPE'],
      // Too deep to walk, it is JSON all the same.
      holds: ['HTTP-JSON-BODIES'],
      boundMs: 120_000,
    },
    {
      name: 'many-entries',
      description: `the first call of the first page of the unfiltered list carries ${MANY_ENTRIES.toLocaleString('en')} more participant entries, each missing its state and minutes (an answer of about 4 MB)`,
      fault: () => manyEntries(MANY_ENTRIES),
      verdicts: { active: 'NON-CONFORMANT', passive: 'VIOLATIONS FOUND' },
      fails: ['CALL-PARTICIPANTS-AT-MOST-50', 'PARTICIPANT-FIELD-STATE'],
      boundMs: 120_000,
    },
  ];
}

const MANY_ENTRIES = 100_000;

/**
 * The reference with the first call of the first page of the unfiltered list given `count` more
 * participant entries, each `{"uid": "user-N", "isJoined": false}`, without the state and minutes the
 * contract requires: one answer of about 40 bytes an entry (the bench times the suite against it).
 */
export function manyEntries(count: number): Fault {
  const added = Array.from({ length: count }, (_, index) => ({ uid: `user-${index}`, isJoined: false }));
  return {
    name: 'many-entries',
    description: `the first call of the unfiltered list carries ${count} more participant entries`,
    requirements: [],
    hooks: () => ({
      answer: (request, answer) => {
        const body = answer.body as { data?: Array<Record<string, unknown>> } | undefined;
        const first = body?.data?.[0];
        const unfiltered = [...request.search.keys()].every(
          (name) => name === 'perPage' || (name === 'page' && request.search.get(name) === '1'),
        );
        if (request.operation !== 'listCalls' || answer.status !== 200 || !first || !unfiltered) return answer;
        const participants = [...(first.participants as unknown[]), ...added];
        return {
          ...answer,
          body: { ...body, data: [{ ...first, participants, totalParticipants: participants.length }, ...body.data!.slice(1)] },
        };
      },
    }),
  };
}
