// Everything a run wrote, searched for secrets: every file under the given folders, and inside each
// zip (traces, blob reports, the HTML report's embedded data) entry by entry, zips within zips too.
// A secret is looked for as itself and in the forms a writer might turn it into (URL-encoded,
// base64 at any byte alignment), and as any run of 16 of its characters in any letter case: a near
// miss of a key (one character changed, characters added, cut short, upper-cased) gives it away too.
// Zips are read with adm-zip, whose synchronous reader keeps the scan synchronous.
import AdmZip from 'adm-zip';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ZipEntry {
  name: string;
  data: Buffer;
}

export interface Secret {
  /** What a finding calls it (API_KEY): the value itself is never printed. */
  name: string;
  value: string;
}

export interface Finding {
  /** The file, then each zip entry on the way in: `test-results/x/trace.zip!trace.network`. */
  where: string;
  secret: string;
  form: string;
  /** The text around the find, the secret itself replaced by its name. */
  context: string;
}

export interface Scan {
  findings: Finding[];
  /** Every place searched, files and zip entries alike, with the same naming as `where`. */
  searched: string[];
  /** The contents of the zip entries searched, by `where`, so a caller can check what was in them. */
  entries: Map<string, Buffer>;
}

const MAX_DEPTH = 4;
/** A run of this many characters of a secret, found anywhere, counts as a leak of it. */
export const FRAGMENT_LENGTH = 16;

/** Starts with a local file header: a buffer to open as a zip. */
const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

/** The entries of a zip archive, in archive order. adm-zip reads zip64 archives too, and throws on a zip it cannot read or an entry whose CRC is wrong. */
function readZip(zip: Buffer): ZipEntry[] {
  const archive = new AdmZip(zip, { noSort: true, readEntries: true });
  return archive.getEntries().map((entry) => ({ name: entry.entryName, data: entry.getData() }));
}

/** The forms a secret is looked for in, each named: itself, URL-encoded, and base64 of it at each byte alignment. */
function secretForms(value: string): Array<{ form: string; text: string }> {
  const forms = [
    { form: 'as is', text: value },
    { form: 'URL-encoded', text: encodeURIComponent(value) },
    { form: 'form-encoded', text: new URLSearchParams({ k: value }).toString().slice(2) },
  ];
  const bytes = Buffer.from(value, 'utf8');
  for (let shift = 0; shift < 3; shift += 1) {
    // Base64 of the secret inside a longer text, `shift` bytes after a 3-byte boundary: only the
    // characters made of the secret's bits alone, not those shared with the bytes around it.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    forms.push({ form: `base64 (offset ${shift})`, text: core });
    forms.push({ form: `base64url (offset ${shift})`, text: core.replace(/\+/g, '-').replace(/\//g, '_') });
  }
  const seen = new Set<string>();
  return forms.filter(({ text }) => text.length >= 8 && !seen.has(text) && seen.add(text));
}

/** Every run of FRAGMENT_LENGTH characters of the secret, lower-cased. */
function fragmentsOf(value: string): string[] {
  const lower = value.toLowerCase();
  if (lower.length <= FRAGMENT_LENGTH) return [lower];
  return Array.from({ length: lower.length - FRAGMENT_LENGTH + 1 }, (_, at) => lower.slice(at, at + FRAGMENT_LENGTH));
}

/** The files under `folder`, recursively, as paths relative to it. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(folder, path)).isFile());
}

/** Searches named texts and every file under the named folders for the secrets. */
export function scanOutputs(
  secrets: readonly Secret[],
  sources: { texts?: Record<string, string>; folders?: Record<string, string> },
): Scan {
  const scan: Scan = { findings: [], searched: [], entries: new Map() };
  const needles = secrets.flatMap((secret) => secretForms(secret.value).map((form) => ({ ...form, secret })));
  const search = (where: string, data: Buffer, depth: number) => {
    scan.searched.push(where);
    const text = data.toString('latin1');
    for (const needle of needles) {
      for (let at = text.indexOf(needle.text); at !== -1; at = text.indexOf(needle.text, at + 1)) {
        scan.findings.push({
          where,
          secret: needle.secret.name,
          form: needle.form,
          context: contextOf(text, at, needle.text.length, secrets),
        });
      }
    }
    let lowered: string | undefined;
    for (const secret of secrets) {
      if (scan.findings.some((finding) => finding.where === where && finding.secret === secret.name)) continue;
      lowered ??= text.toLowerCase();
      for (const fragment of fragmentsOf(secret.value)) {
        const at = lowered.indexOf(fragment);
        if (at === -1) continue;
        scan.findings.push({
          where,
          secret: secret.name,
          form: `${FRAGMENT_LENGTH} of its characters, in any letter case`,
          context: contextOf(text, at, fragment.length, secrets),
        });
        break;
      }
    }
    if (isZip(data)) {
      if (depth >= MAX_DEPTH) throw new Error(`${where} is a zip nested deeper than ${MAX_DEPTH} levels; it was not searched`);
      for (const entry of readZipOrExplain(where, data)) {
        scan.entries.set(`${where}!${entry.name}`, entry.data);
        search(`${where}!${entry.name}`, entry.data, depth + 1);
      }
    }
    // The HTML report carries its data as a base64 zip inside the page.
    for (const match of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
      if (depth >= MAX_DEPTH) throw new Error(`${where} embeds a zip nested deeper than ${MAX_DEPTH} levels; it was not searched`);
      search(`${where}!<embedded zip at ${match.index}>`, Buffer.from(match[1]!, 'base64'), depth + 1);
    }
  };
  for (const [name, text] of Object.entries(sources.texts ?? {})) search(name, Buffer.from(text, 'utf8'), 0);
  for (const [name, folder] of Object.entries(sources.folders ?? {})) {
    for (const path of filesUnder(folder)) search(`${name}/${path}`, readFileSync(join(folder, path)), 0);
  }
  return scan;
}

function readZipOrExplain(where: string, data: Buffer): ZipEntry[] {
  try {
    return readZip(data);
  } catch (error) {
    // A zip that cannot be opened cannot be said to hold no secret.
    throw new Error(`${where} looks like a zip but could not be read: ${(error as Error).message}`, { cause: error });
  }
}

function contextOf(text: string, at: number, length: number, secrets: readonly Secret[]): string {
  let excerpt = text.slice(Math.max(0, at - 60), at + length + 60);
  for (const secret of secrets) {
    excerpt = excerpt.split(secret.value).join(`<${secret.name}>`);
    // A secret cut by the excerpt's edges is masked too.
    for (let cut = secret.value.length - 1; cut >= 4; cut -= 1) {
      if (excerpt.startsWith(secret.value.slice(-cut))) excerpt = `<${secret.name}>${excerpt.slice(cut)}`;
      if (excerpt.endsWith(secret.value.slice(0, cut))) excerpt = `${excerpt.slice(0, -cut)}<${secret.name}>`;
    }
  }
  return excerpt.replace(/[^\x20-\x7e]/g, '.');
}

/** One line per place and form, with the first find's context, for a failure message. */
export function describeFindings(findings: readonly Finding[], places = 20): string {
  const grouped = new Map<string, { first: Finding; count: number }>();
  for (const finding of findings) {
    const key = `${finding.secret} (${finding.form}) in ${finding.where}`;
    const group = grouped.get(key);
    if (group) group.count += 1;
    else grouped.set(key, { first: finding, count: 1 });
  }
  const lines = [...grouped]
    .slice(0, places)
    .map(([key, { first, count }]) => `${key}${count > 1 ? ` (${count} times)` : ''}: …${first.context}…`);
  if (grouped.size > places) lines.push(`… and ${grouped.size - places} more places`);
  return lines.join('\n');
}
