// Values read from a target that the suite sends back: in a header (a uid as onBehalfOf) only what a
// header can carry; in a path (a sessionId) any Unicode string, but no lone surrogate, which no URL
// can carry. A request for such an id is still sent, never a URIError; the schema fails the id.
import { test, expect } from '@playwright/test';
import { pathSegment, travelsInAHeader, travelsInAPath } from '../../core/transport/header-value.ts';
import { responseSchemaConformance } from '../../core/checks/response-schema.ts';
import { checkContext, exchange, listedCall, listOf } from '../checks/exchanges.ts';

test('a header carries tab, visible ASCII and Latin-1, nothing else', () => {
  expect(['user-1', 'ü\tx', ' ~']).toEqual(['user-1', 'ü\tx', ' ~'].filter(travelsInAHeader));
  expect(['a\u0000', 'a\r\nb', 'a\u2028b', '😀'].filter(travelsInAHeader)).toEqual([]);
});

test('a path carries any Unicode string, astral characters included, but no lone surrogate', () => {
  expect(['v1.us.1', 'a b/c?d', 'ü😀', '\u009b'].every(travelsInAPath)).toBe(true);
  expect(['a\ud800', '\udc00b', 'x\ud83d', 42, undefined].some(travelsInAPath)).toBe(false);
});

test('pathSegment encodes any string without throwing: a lone surrogate as U+FFFD', () => {
  expect(pathSegment('a b/😀')).toBe(encodeURIComponent('a b/😀'));
  expect(() => encodeURIComponent('a\ud800')).toThrow(URIError);
  expect(pathSegment('a\ud800b\udc00')).toBe('a%EF%BF%BDb%EF%BF%BD');
});

test('a sessionId with a lone surrogate breaks CALL-FIELD-SESSION-ID, in a list and in Get Call; one with astral characters does not', () => {
  const context = checkContext();
  const ofSession = (sent: ReturnType<typeof listOf>) =>
    responseSchemaConformance(sent, context).filter((found) => found.requirement === 'CALL-FIELD-SESSION-ID');
  expect(ofSession(listOf([{ ...listedCall(), sessionId: 'v1.us.\ud800' }]))).toHaveLength(1);
  expect(ofSession(exchange('getCall', 200, { data: { ...listedCall(), sessionId: '\udfffv1' } }))).toHaveLength(1);
  expect(ofSession(listOf([{ ...listedCall(), sessionId: 'v1.us.😀' }]))).toEqual([]);
});
