// How old the reference's answers may be: a deployment answers from caches and lagging read
// replicas, each answer a true snapshot of the store, only older than the moment it arrives. How a
// command line or a variable spells it, apart from the server so that the suite's configuration can
// import it; the server's side is ./aged-answers.ts.

/**
 * `replica`: every answer is the store as it was exactly `seconds` before now. `cache`: a distinct
 * request's first successful answer is kept for `seconds` and given again to the same request.
 */
const ANSWER_AGE_MODES = ['replica', 'cache'] as const;
type AnswerAgeMode = (typeof ANSWER_AGE_MODES)[number];

export interface AnswerAge {
  mode: AnswerAgeMode;
  /** Whole seconds, 0 to MAX_ANSWER_AGE_SECONDS. */
  seconds: number;
}

/** The operations whose answers may be old, each on its own: mark-unread, the one write, never is. */
export interface AnswerAges {
  list?: AnswerAge;
  get?: AnswerAge;
}

const OPERATIONS = ['list', 'get'] as const;

/** Ten minutes: older than any cache or replica a deployment would own to, and within a run's length. */
export const MAX_ANSWER_AGE_SECONDS = 600;

/** What `--answer-age` and REFERENCE_ANSWER_AGE accept. */
export const ANSWER_AGE_RULE = `OPERATION=MODE:SECONDS, comma-separated, each operation at most once: OPERATION list or get, MODE ${ANSWER_AGE_MODES.join(' or ')}, SECONDS whole from 0 to ${MAX_ANSWER_AGE_SECONDS} (such as list=cache:10,get=replica:5)`;

/** Whether `age` is one the reference can serve: a known mode and whole seconds within the bound. */
export const isAnswerAge = (age: AnswerAge): boolean =>
  (ANSWER_AGE_MODES as readonly string[]).includes(age.mode) &&
  Number.isInteger(age.seconds) &&
  age.seconds >= 0 &&
  age.seconds <= MAX_ANSWER_AGE_SECONDS;

/** The ages `raw` spells (`list=cache:10,get=replica:5`, either part alone), or undefined when it spells none. */
export function parseAnswerAge(raw: string): AnswerAges | undefined {
  const ages: AnswerAges = {};
  for (const part of raw.split(',')) {
    const match = /^(list|get)=([a-z]+):(\d{1,4})$/.exec(part.trim());
    if (!match) return undefined;
    const operation = match[1] as keyof AnswerAges;
    const age = { mode: match[2] as AnswerAgeMode, seconds: Number(match[3]) };
    if (ages[operation] || !isAnswerAge(age)) return undefined;
    ages[operation] = age;
  }
  return ages;
}

/** The ages in the form parseAnswerAge reads, list first: what the configuration hands the command line. */
export const formatAnswerAge = (ages: AnswerAges): string =>
  OPERATIONS.flatMap((operation) => {
    const age = ages[operation];
    return age ? [`${operation}=${age.mode}:${age.seconds}`] : [];
  }).join(',');

/** The ages as the start-up line, the reports and the kill matrix's labels word them: `lists cached 10 s, Get Call 5 s behind`. */
export const describeAnswerAge = (ages: AnswerAges): string =>
  OPERATIONS.flatMap((operation) => {
    const age = ages[operation];
    if (!age) return [];
    const what = operation === 'list' ? 'lists' : 'Get Call';
    return [age.mode === 'cache' ? `${what} cached ${age.seconds} s` : `${what} ${age.seconds} s behind`];
  }).join(', ') || 'all fresh';
