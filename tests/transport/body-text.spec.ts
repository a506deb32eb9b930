// A body's bytes as text, and whether they were UTF-8 (core/transport/body-text.ts), as the active
// transport and the passive readers (the proxy, a HAR's base64 body) take them.
import { test, expect } from '@playwright/test';
import { bodyTextOf } from '../../core/transport/body-text.ts';
import { bodyTextOf as harBodyText } from '../../passive/har-reader.ts';

test('UTF-8 bytes, astral characters and a U+FFFD the target sent included, are UTF-8', () => {
  for (const text of ['{"a":"b"}', '{"a":"ü😀"}', '{"a":"\uFFFD"}', '']) expect(bodyTextOf(Buffer.from(text, 'utf8'))).toEqual({ text });
});

test('bytes that are not UTF-8 are said so, their text holding U+FFFD where they were not', () => {
  for (const bytes of [[0x7b, 0xc3, 0x28, 0x7d], [0xff], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
    const read = bodyTextOf(Buffer.from(bytes));
    expect(read.notUtf8, JSON.stringify(bytes)).toBe(true);
    expect(read.text).toContain('\uFFFD');
  }
});

test('a HAR body recorded in base64 keeps its bytes, so it is told; one recorded as text was decoded by the recorder', () => {
  const bad = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
  expect(harBodyText({ text: bad.toString('base64'), encoding: 'base64' })).toEqual({ text: '{"a":"\uFFFD"}', notUtf8: true });
  expect(harBodyText({ text: '{"a":"\uFFFD"}' })).toEqual({ text: '{"a":"\uFFFD"}' });
  expect(harBodyText({ size: 0 })).toEqual({ text: '' });
});
