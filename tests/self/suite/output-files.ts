// Everything a run wrote, searched for secrets: every file under the given folders, and inside each
// zip (traces, blob reports, the HTML report's embedded data) entry by entry, zips within zips too.
// A secret is looked for as itself and in the forms a writer might turn it into (URL-encoded,
// base64 at any byte alignment), and as any run of 16 of its characters in any letter case: a near
// miss of a key (one character changed, characters added, cut short, upper-cased) gives it away too. Zips are read here with node:zlib rather than a new dependency:
// the central directory names each entry and its compressed data, stored or deflated.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
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

const EOCD = 0x06054b50;
const ZIP64_EOCD_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const MAX_DEPTH = 4;
/** A run of this many characters of a secret, found anywhere, counts as a leak of it. */
export const FRAGMENT_LENGTH = 16;

export const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === LOCAL_ENTRY;

/** The entries of a zip archive (stored or deflated; zip64 sizes and offsets understood). */
export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = findEndOfCentralDirectory(zip);
  let count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || zip.readUInt32LE(locator) !== ZIP64_EOCD_LOCATOR) throw new Error('zip64 end of central directory locator missing');
    const zip64 = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(zip64) !== ZIP64_EOCD) throw new Error('zip64 end of central directory missing');
    count = Number(zip.readBigUInt64LE(zip64 + 32));
    offset = Number(zip.readBigUInt64LE(zip64 + 48));
  }
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_ENTRY) throw new Error(`central directory entry ${index} is malformed`);
    const method = zip.readUInt16LE(offset + 10);
    let compressedSize = zip.readUInt32LE(offset + 20);
    let size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    let localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const zip64 = zip64Extra(zip.subarray(offset + 46 + nameLength, offset + 46 + nameLength + extraLength));
    if (zip64) {
      // Present only for the fields whose 32-bit value is saturated, in this order.
      let at = 0;
      const next = () => Number(zip64.readBigUInt64LE((at += 8) - 8));
      if (size === 0xffffffff) size = next();
      if (compressedSize === 0xffffffff) compressedSize = next();
      if (localOffset === 0xffffffff) localOffset = next();
    }
    if (zip.readUInt32LE(localOffset) !== LOCAL_ENTRY) throw new Error(`local header of ${name} is malformed`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(start, start + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`${name} uses compression method ${method}, which this reader does not know`);
    const data = method === 0 ? raw : inflateRawSync(raw);
    if (data.length !== size) throw new Error(`${name} inflated to ${data.length} bytes, not ${size}`);
    entries.push({ name, data });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new Error('no end of central directory: not a complete zip');
}

function zip64Extra(extra: Buffer): Buffer | undefined {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) return extra.subarray(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return undefined;
}

/** The forms a secret is looked for in, each named: itself, URL-encoded, and base64 of it at each byte alignment. */
export function secretForms(value: string): Array<{ form: string; text: string }> {
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
export function scanOutputs(secrets: readonly Secret[], sources: { texts?: Record<string, string>; folders?: Record<string, string> }): Scan {
  const scan: Scan = { findings: [], searched: [], entries: new Map() };
  const needles = secrets.flatMap((secret) => secretForms(secret.value).map((form) => ({ ...form, secret })));
  const search = (where: string, data: Buffer, depth: number) => {
    scan.searched.push(where);
    const text = data.toString('latin1');
    for (const needle of needles) {
      for (let at = text.indexOf(needle.text); at !== -1; at = text.indexOf(needle.text, at + 1)) {
        scan.findings.push({ where, secret: needle.secret.name, form: needle.form, context: contextOf(text, at, needle.text.length, secrets) });
      }
    }
    let lowered: string | undefined;
    for (const secret of secrets) {
      if (scan.findings.some((finding) => finding.where === where && finding.secret === secret.name)) continue;
      lowered ??= text.toLowerCase();
      for (const fragment of fragmentsOf(secret.value)) {
        const at = lowered.indexOf(fragment);
        if (at === -1) continue;
        scan.findings.push({ where, secret: secret.name, form: `${FRAGMENT_LENGTH} of its characters, in any letter case`, context: contextOf(text, at, fragment.length, secrets) });
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
    throw new Error(`${where} looks like a zip but could not be read: ${(error as Error).message}`);
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
  const lines = [...grouped].slice(0, places).map(([key, { first, count }]) => `${key}${count > 1 ? ` (${count} times)` : ''}: …${first.context}…`);
  if (grouped.size > places) lines.push(`… and ${grouped.size - places} more places`);
  return lines.join('\n');
}
