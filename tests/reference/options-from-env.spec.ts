// The embedded reference's options as the environment spells them, read in reference/: the
// defaults, and a bad value thrown as the variable and what it allows, which the suite's
// configuration turns into its one line (tests/config/load-config.spec.ts).
import { test, expect } from '@playwright/test';
import { referenceOptionsFromEnv, ReferenceOptionError } from '../../reference/options-from-env.ts';
import { DEFAULT_CALLS, DEFAULT_SEED } from '../../reference/fixtures.ts';

const from = (env: Record<string, string>) => referenceOptionsFromEnv((name) => env[name]);

test('with no REFERENCE_ variable set, the reference runs with its own defaults', () => {
  expect(from({})).toEqual({ seed: DEFAULT_SEED, calls: DEFAULT_CALLS, readings: 'entries', getEnvelope: 'data-object', alternatives: [] });
});

test('each option is read from its variable, in the shape the reference command line takes', () => {
  expect(
    from({
      REFERENCE_SEED: '9',
      REFERENCE_CALLS: '50',
      REFERENCE_READINGS: 'deployment',
      REFERENCE_LIVE: '0.5',
      REFERENCE_SETTLE_DELAY: '4',
      REFERENCE_ANSWER_AGE: ' get=replica:5, list=cache:10 ',
      REFERENCE_GET_ENVELOPE: 'bare',
      REFERENCE_ALTERNATIVES: 'page-size-limit',
    }),
  ).toEqual({
    seed: 9,
    calls: 50,
    readings: 'deployment',
    live: 0.5,
    settleDelay: '4-4',
    answerAge: 'list=cache:10,get=replica:5',
    getEnvelope: 'bare',
    alternatives: ['page-size-limit'],
  });
});

test('a bad value is thrown naming its variable, with what is allowed apart for the configuration to word', () => {
  let thrown: unknown;
  try {
    from({ REFERENCE_CALLS: '0' });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ReferenceOptionError);
  expect(thrown).toMatchObject({ variable: 'REFERENCE_CALLS', detail: 'must be an integer from 1 to 1000000 (got "0")' });
});
