// The JSON Lines reader's own line splitter (passive/file-lines.ts) cuts a file where Node's readline
// cuts it: at \n, \r\n and a lone \r, with lines longer than its buffer and lines that span two reads,
// and no line after the last end unless bytes follow it; each line's bytes, read as UTF-8 (U+FFFD
// where they are not), are readline's line.
import { test, expect } from '@playwright/test';
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { forEachLine } from '../../passive/file-lines.ts';
import { freshDir } from '../fresh-dir.ts';

async function readlineLines(path: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
  return lines;
}

/** The lines as the splitter hands them, read as UTF-8. */
async function splitLines(path: string): Promise<string[]> {
  const lines: string[] = [];
  await forEachLine(path, (line) => {
    lines.push(line.toString('utf8'));
    return true;
  });
  return lines;
}

/** Blank lines left out of both: the splitter hands an empty line between a `\r\n`'s two bytes, which its reader skips as it skips any blank line. */
const nonBlank = (lines: string[]) => lines.filter((line) => line !== '');

test('lines cut as readline cuts them, across reads of the file and past the size of one', async () => {
  const dir = freshDir('passive-file-lines');
  const long = 'x'.repeat(3 * 2 ** 20 + 17);
  const cases: Record<string, Buffer> = {
    'endings.txt': Buffer.from('a\nb\r\nc\rd\r\r\ne\n\nf'),
    'trailing.txt': Buffer.from('one\ntwo\n'),
    'long.txt': Buffer.from(`${long}\n${'é'.repeat(700_000)}\r\n${long}`),
    // A line whose last bytes are the first read's last: the two-byte é split between two reads.
    'split-character.txt': Buffer.concat([Buffer.from('y'.repeat(2 ** 20 - 1)), Buffer.from('é\nz')]),
    'not-utf8.txt': Buffer.from([0x61, 0xff, 0xfe, 0x0a, 0xc3, 0x0a, 0x62]),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    expect(nonBlank(await splitLines(path)), name).toEqual(nonBlank(await readlineLines(path)));
  }
  expect(await splitLines(join(dir, 'trailing.txt'))).toEqual(['one', 'two']);
});

test('reading stops at the line its reader refuses', async () => {
  const path = join(freshDir('passive-file-lines-stop'), 'lines.txt');
  writeFileSync(path, 'a\nb\nc\n');
  const seen: string[] = [];
  await forEachLine(path, (line) => {
    seen.push(line.toString('utf8'));
    return line.toString('utf8') !== 'b';
  });
  expect(seen).toEqual(['a', 'b']);
});
