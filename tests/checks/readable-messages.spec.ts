// The failure messages stay readable whatever the shrinker finds: an unknown session id of 256
// spaces is shown so a reader sees what was sent (escaped, with its length), its curl line still
// gives the request exactly, and no message runs to thousands of characters.
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { shown, shownString } from '../../core/checks/violation.ts';
import { curlFor, describeExchange } from '../../core/transport/exchange.ts';
import { errorCode, errorStatus } from '../../core/checks/errors.ts';
import { describeViolations } from '../../core/run/verdict.ts';
import { printedCounterexample } from '../../core/property/property.ts';
import { unknownSessionId } from '../../core/arbitraries/identifiers.ts';
import { textExchange } from './exchanges.ts';

const BASE = 'http://127.0.0.1:8080/v3';
const getCallOf = (sessionId: string) => {
  const exchange = textExchange('getCall', 200, 'ok', 'text/plain');
  return { ...exchange, request: { ...exchange.request, url: `${BASE}/calls/${encodeURIComponent(sessionId)}` } };
};
/** The URL a curl line's last word gives, as a POSIX shell expands it. */
const urlOf = (curl: string) =>
  execFileSync('sh', ['-c', `printf '%s' ${curl.slice(curl.indexOf(` '${BASE}`) + 1)}`], { encoding: 'utf8' });

/** The message a failed CALLS-GET-NOT-FOUND property gives for `sessionId`, as property.ts composes it. */
const messageFor = (sessionId: string) => {
  const exchange = getCallOf(sessionId);
  const violations = [
    ...errorCode(exchange, 'ERR_CALL_SESSION_NOT_FOUND', 'CALLS-GET-NOT-FOUND'),
    ...errorStatus(exchange, 'ERR_CALL_SESSION_NOT_FOUND', 'an unknown session id'),
  ];
  return `${describeViolations(violations)}\n\nCounterexample: ${printedCounterexample(sessionId)}`;
};

test('a string of one repeated character is named with its count; a long one is cut with its length; any one is escaped', () => {
  expect(shownString(' '.repeat(256))).toBe('"␠␠␠…" (256 spaces)');
  expect(shown(' '.repeat(256))).toBe('"␠␠␠…" (256 spaces)');
  expect(shownString('\t'.repeat(40))).toBe('"\\t\\t\\t…" (40 × "\\t")');
  expect(shownString('x'.repeat(300))).toBe('"xxx…" (300 × "x")');
  expect(shownString('a\u0000b"c')).toBe('"a\\u0000b\\"c"');
  expect(shownString('   ')).toBe('"   "');
  const long = shownString('ab'.repeat(600), 100);
  expect(long).toMatch(/^"(ab)+a?…" \(1200 characters\)$/);
  expect(long.length).toBeLessThan(130);
});

test('an unknown session id of 256 spaces: the message shows what was sent, is short, and its curl line gives the request exactly', () => {
  const sessionId = ' '.repeat(256);
  const message = messageFor(sessionId);
  expect(message).toContain('Counterexample: "␠␠␠…" (256 spaces)');
  expect(message).toContain(`GET ${BASE}/calls/%20%20%20`);
  expect(message).toMatch(/… \(\d+ characters\) → 200/);
  expect(message.length).toBeLessThan(900);
  const curl = curlFor(getCallOf(sessionId));
  expect(curl).toContain(`"$(printf '%%20%.0s' $(seq 256))"`);
  expect(urlOf(curl)).toBe(`${BASE}/calls/${'%20'.repeat(256)}`);
  expect(describeExchange(getCallOf(sessionId)).length).toBeLessThan(400);
});

test('for any unknown session id the generator makes, the curl line gives the request exactly and the rest of the message stays under 1,000 characters', () => {
  fc.assert(
    fc.property(unknownSessionId(new Set()), (sessionId) => {
      const curl = curlFor(getCallOf(sessionId));
      expect(urlOf(curl)).toBe(getCallOf(sessionId).request.url);
      const message = messageFor(sessionId);
      expect(message.replaceAll(curl, '').length).toBeLessThan(1_000);
    }),
    { seed: 20261121, numRuns: 60 },
  );
});

test('a counterexample that is no string prints as fast-check prints it', () => {
  expect(printedCounterexample({ perPage: 3, page: 2 })).toBe('{"perPage":3,"page":2}');
  expect(printedCounterexample(undefined)).toBe('undefined');
});
