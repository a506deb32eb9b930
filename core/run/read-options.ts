// The options of a script of its own (certify, verify-bundle, the bench) read by node:util's
// parseArgs, strict, and a refused command line said in one line that names what is wrong:
// `unknown option --outt`, `option --out needs a value`. parseArgs's own messages run over several
// lines and change between Node versions, so the refusal is read from its tokens instead.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;
type Config = ParseArgsConfig & { args: string[]; options: OptionsConfig; strict: true };

export type OptionsRead<T extends Config> =
  | { parsed: ReturnType<typeof parseArgs<T>>; refusal?: undefined; unexpected?: undefined }
  /** `unexpected`: the word that is not an option, where the command takes none. */
  | { parsed?: undefined; refusal: string; unexpected?: string };

export function readOptions<T extends Config>(config: T): OptionsRead<T> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch {
    return refusalOf(config);
  }
  // parseArgs takes `--out=` as the value ''; no option here has an empty value that means something.
  const empty = Object.entries(parsed.values).find(([, value]) => value === '');
  return empty ? { refusal: `option --${empty[0]} needs a value` } : { parsed };
}

/** What strict parsing refused, from the tokens of a lenient parse: the first option or word that is wrong. */
function refusalOf(config: Config): { refusal: string; unexpected?: string } {
  const { tokens } = parseArgs({ ...config, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional' && config.allowPositionals !== true)
      return { refusal: `unexpected argument ${token.value}`, unexpected: token.value };
    if (token.kind !== 'option') continue;
    const declared = Object.hasOwn(config.options, token.name) ? config.options[token.name] : undefined;
    if (declared === undefined) return { refusal: `unknown option ${token.rawName}` };
    if (declared.type === 'boolean') {
      if (token.value !== undefined) return { refusal: `option ${token.rawName} takes no value` };
      continue;
    }
    if (token.value === undefined) return { refusal: `option ${token.rawName} needs a value` };
    // `--out --output x`: the next word is an option, not the value that was left out (`--out=-x` gives one).
    if (!token.inlineValue && /^-./.test(token.value))
      return { refusal: `option ${token.rawName} needs a value: ${token.value} is an option, not its value` };
  }
  return { refusal: 'the command line cannot be read' };
}
