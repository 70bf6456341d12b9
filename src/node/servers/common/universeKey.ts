/**
 * A universe's key (issue 29, `--universe-key <file>`): the secret its
 * masterserver and gameservers share, so a gameserver can prove it belongs
 * (the masterserver routes jumps only to servers that did) and the state a
 * jumping ship carries travels under a ticket nobody else can make. The file
 * holds the key as hex (at least 64 digits: 32 bytes), whitespace and `#`
 * comments around it ignored; `keygen` writes a fresh one. A file that
 * cannot be read or holds no usable key rejects with the one line an admin
 * reads, so the server does not start.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/** Fewest bytes of key a universe accepts (256 bits). */
export const MIN_KEY_BYTES = 32;
/** Most bytes a key file may have (a key and a comment or two). */
const MAX_FILE_BYTES = 4096;

/** The key in `text`, or why there is none. Pure. */
export function parseUniverseKey(text: string): { ok: true; key: Buffer } | { ok: false; error: string } {
  const body = text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '')
    .join('');
  if (body === '') return { ok: false, error: 'no key in it (64 or more hex digits; create one with "npm run server -- keygen <file>")' };
  if (!/^[0-9a-fA-F]+$/.test(body) || body.length % 2 !== 0) return { ok: false, error: 'the key must be hex digits, an even number of them' };
  if (body.length < MIN_KEY_BYTES * 2) return { ok: false, error: `the key is ${body.length / 2} bytes; a universe needs at least ${MIN_KEY_BYTES} (64 hex digits)` };
  return { ok: true, key: Buffer.from(body, 'hex') };
}

/** Reads a universe key file. */
export async function loadUniverseKey(file: string): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`universe key file ${file}: cannot be read (${e.code ?? e.message})`, { cause: err });
  }
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`universe key file ${file}: more than ${MAX_FILE_BYTES} bytes`);
  const r = parseUniverseKey(bytes.toString('latin1'));
  if (!r.ok) throw new Error(`universe key file ${file}: ${r.error}`);
  return r.key;
}

/** Writes a fresh random key to `file` (readable by its owner only); refuses to overwrite one. */
export async function writeUniverseKey(file: string): Promise<void> {
  const text = `# Starlane universe key: give the same file to its masterserver and gameservers, and keep it secret.\n${randomBytes(MIN_KEY_BYTES).toString('hex')}\n`;
  try {
    await writeFile(file, text, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(e.code === 'EEXIST' ? `universe key file ${file} exists already: not overwritten` : `universe key file ${file}: cannot be written (${e.code ?? e.message})`, { cause: err });
  }
}
