// What the run writes shows a target's text as a reader can see it (core/results/visible.ts): the
// characters a terminal obeys as their escapes, and an error as one line of them.
import { test, expect } from '@playwright/test';
import { errorLine, visible, visibleLine } from '../../core/results/visible.ts';

test('visible escapes what a terminal obeys and keeps tab and line feed; visibleLine escapes those too', () => {
  expect(visible('a\u001b[31mb\u009bc\u202ed\t\n')).toBe('a\\u001b[31mb\\u009bc\\u202ed\t\n');
  expect(visibleLine('a\tb\nc')).toBe('a\\u0009b\\u000ac');
});

test('an error is one visible line: its name and the first line of its message, at most 200 characters', () => {
  expect(errorLine(new TypeError('bad \u001b]0;title\u0007 value\nsecond line'))).toBe('TypeError: bad \\u001b]0;title\\u0007 value');
  expect(errorLine('plain text\nmore')).toBe('plain text');
  expect(errorLine(new Error('x'.repeat(500)))).toHaveLength(200);
});
