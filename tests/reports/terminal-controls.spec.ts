// Every text a report or the console shows passes the redactor (reports/redact.ts), which takes out a
// terminal's controls with node:util's stripVTControlCharacters: Playwright's colours, and what a target
// or a recording may carry (an OSC-8 link, a hidden cursor). Traffic written as JSON (the judging
// proxy's HAR entries pass the same redactor) keeps every character it had.
import { test, expect } from '@playwright/test';
import { redactorFor } from '../../reports/redact.ts';

const redact = redactorFor({ API_KEY: 'sentinel-full-key-123' });

test('SGR colours are taken out, 8, 256 and 24-bit, with the erase-line and cursor moves of a progress line', () => {
  expect(redact('\u001b[31mred\u001b[39m \u001b[1;38;5;196mbold\u001b[0m \u001b[38;2;255;0;0mtrue\u001b[m')).toBe('red bold true');
  expect(redact('\r\u001b[2K\u001b[1Gdone')).toBe('\rdone');
});

test('an OSC-8 hyperlink keeps its text and loses its address, with either terminator', () => {
  expect(redact('see \u001b]8;;https://example.test/a?b=c\u001b\\the docs\u001b]8;;\u001b\\.')).toBe('see the docs.');
  expect(redact('\u001b]8;id=1;https://example.test\u0007link\u001b]8;;\u0007')).toBe('link');
});

test('cursor hiding and showing are taken out', () => {
  expect(redact('a\u001b[?25lb\u001b[?25hc')).toBe('abc');
});

test('a key inside coloured text is still replaced by its variable', () => {
  expect(redact('apikey: \u001b[32msentinel-full-key-123\u001b[39m')).toBe('apikey: $API_KEY');
});

test('text without an ESC is left as it is: a lone U+009B in traffic is data, and JSON holds every ESC escaped', () => {
  const entry = JSON.stringify({ text: 'Ã\u009b1m caller', escaped: '\u001b[31m' });
  expect(entry).not.toContain('\u001b');
  expect(redact(entry)).toBe(entry);
  expect(redact('[31m plain brackets')).toBe('[31m plain brackets');
});
