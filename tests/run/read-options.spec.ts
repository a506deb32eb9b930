// The options of certify, verify-bundle and the bench, read by parseArgs (core/run/read-options.ts):
// what is accepted, and each refusal in one line that names the option or the word.
import { test, expect } from '@playwright/test';
import { readOptions } from '../../core/run/read-options.ts';

const options = { out: { type: 'string' }, output: { type: 'string' }, plan: { type: 'boolean' } } as const;
const read = (args: string[], allowPositionals = false) => readOptions({ args, options, allowPositionals, strict: true });

test('the documented spellings are read: a value after a space or an =, a flag, a value that is one dash', () => {
  expect(read(['--out', 'b', '--output=x', '--plan']).parsed?.values).toEqual({ out: 'b', output: 'x', plan: true });
  expect(read(['--out=-b']).parsed?.values).toEqual({ out: '-b' });
  expect(read(['--out', '-']).parsed?.values).toEqual({ out: '-' });
  expect(read(['dir', '--out', 'b'], true).parsed).toMatchObject({ values: { out: 'b' }, positionals: ['dir'] });
  expect(read(['--', '--out'], true).parsed?.positionals).toEqual(['--out']);
});

const refusals: Array<[string[], string]> = [
  [['--out'], 'option --out needs a value'],
  [['--out='], 'option --out needs a value'],
  [['--out', ''], 'option --out needs a value'],
  [['--outt', 'b'], 'unknown option --outt'],
  [['-o', 'b'], 'unknown option -o'],
  [['--out', '--output', 'x'], 'option --out needs a value: --output is an option, not its value'],
  [['--out', '-x'], 'option --out needs a value: -x is an option, not its value'],
  [['--plan=yes'], 'option --plan takes no value'],
  [['--plan', 'now'], 'unexpected argument now'],
  [['--', '--plan'], 'unexpected argument --plan'],
];

for (const [args, refusal] of refusals) {
  test(`refused in one line: ${args.join(' ') || "''"}`, () => {
    const result = read(args);
    expect(result.parsed).toBeUndefined();
    expect(result.refusal).toBe(refusal);
  });
}

test('the word that is not an option is given back where the command takes none (certify names a passive results.json)', () => {
  expect(read(['--out', 'b', 'results.json'])).toEqual({ refusal: 'unexpected argument results.json', unexpected: 'results.json' });
  expect(read(['--outt']).unexpected).toBeUndefined();
});
