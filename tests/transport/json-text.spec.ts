// An answer's JSON nested deeper than MAX_JSON_DEPTH is no JSON any check reads (core/transport/json-text.ts):
// the limit itself is accepted, one level more is not, arrays and objects alike, and a body nested
// 100,000 levels deep is refused without the walk reaching the end of the call stack.
import { test, expect } from '@playwright/test';
import { MAX_JSON_DEPTH, parseJsonText } from '../../core/transport/json-text.ts';

/** `levels` arrays and objects one inside the other, alternately, with a number at the bottom. */
const nested = (levels: number): string => {
  let text = '1';
  for (let level = 0; level < levels; level += 1) text = level % 2 === 0 ? `[0,${text}]` : `{"a":1,"b":${text}}`;
  return text;
};

test('JSON nested as deep as the limit is read; one level deeper is too deep', () => {
  expect(parseJsonText(nested(MAX_JSON_DEPTH))).toMatchObject({ isJson: true });
  expect(parseJsonText(nested(MAX_JSON_DEPTH + 1))).toEqual({ parsed: undefined, isJson: false, tooDeep: true });
  // The deep branch last among shallow ones, in an array and in an object.
  expect(parseJsonText(`[1,{},[],${nested(MAX_JSON_DEPTH)}]`)).toEqual({ parsed: undefined, isJson: false, tooDeep: true });
  expect(parseJsonText(`{"x":[],"y":${nested(MAX_JSON_DEPTH - 1)}}`)).toMatchObject({ isJson: true });
});

test('a body nested 100,000 levels deep is too deep, and judging it does not overflow the stack', () => {
  expect(parseJsonText(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({ parsed: undefined, isJson: false, tooDeep: true });
});

test('text that is not JSON, and no text, are no JSON', () => {
  expect(parseJsonText('{"a":')).toEqual({ parsed: undefined, isJson: false });
  expect(parseJsonText('  ')).toEqual({ parsed: undefined, isJson: false });
  expect(parseJsonText(undefined)).toEqual({ parsed: undefined, isJson: false });
});
