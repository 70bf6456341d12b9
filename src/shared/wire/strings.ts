/**
 * Codecs for the variable-length byte fields: chat text (UTF-8), player names
 * (printable ASCII) and serialised node addresses. Each is a u8 length and
 * the bytes, validated the same way on encode (throws) and decode (drops).
 */
import type { Codec } from './fields';
import { fail, refuse } from './stream';
import { MAX_NAME_LENGTH, MAX_TEXT_BYTES } from './types';
import type { WireAddr } from './types';

/** C0 controls, DEL and C1 controls: never allowed in chat text. */
function isControl(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/** UTF-8 byte length of a well-formed string without control characters, or an error text. */
function checkText(text: string): number | string {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (isControl(c)) return `contains the control character U+${c.toString(16).padStart(4, '0')}`;
      bytes += 1;
    } else if (c < 0x800) {
      if (isControl(c)) return `contains the control character U+${c.toString(16).padStart(4, '0')}`;
      bytes += 2;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      // A lone surrogate would be sent as U+FFFD and not come back as it went.
      if (!(next >= 0xdc00 && next <= 0xdfff)) return 'contains a lone surrogate (not well-formed UTF-16)';
      bytes += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return 'contains a lone surrogate (not well-formed UTF-16)';
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

// fatal: malformed UTF-8 is refused, not patched; ignoreBOM: a leading U+FEFF is text and must survive a round trip.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Chat text: u8 byte length + UTF-8, at most MAX_TEXT_BYTES bytes, no control characters (`bad-text`). */
export const chatText: Codec<string> = {
  write(s, v) {
    if (typeof v !== 'string') refuse(`${String(v)} is not a string`);
    const bytes = checkText(v);
    if (typeof bytes === 'string') refuse(`text ${bytes}`);
    if (bytes > MAX_TEXT_BYTES) refuse(`text is ${bytes} UTF-8 bytes, more than MAX_TEXT_BYTES (${MAX_TEXT_BYTES})`);
    s.u8(bytes);
    s.utf8(v, bytes);
  },
  read(r) {
    const n = r.u8();
    if (n > MAX_TEXT_BYTES) fail('bad-text');
    const raw = r.peekBytes(n);
    let text: string;
    try {
      text = strictUtf8.decode(raw);
    } catch {
      return fail('bad-text');
    }
    if (typeof checkText(text) === 'string') fail('bad-text');
    return text;
  },
};

/** The rule for player names, shared by encode and decode; null when `bytes` (char codes) are a valid name. */
function nameProblem(codes: ArrayLike<number>): string | null {
  const n = codes.length;
  if (n < 1 || n > MAX_NAME_LENGTH) return `is ${n} characters, not 1..${MAX_NAME_LENGTH}`;
  for (let i = 0; i < n; i++) {
    const c = codes[i] as number;
    if (c < 0x20 || c > 0x7e) return 'contains a character outside printable ASCII (0x20..0x7e)';
  }
  if (codes[0] === 0x20 || codes[n - 1] === 0x20) return 'starts or ends with a space';
  return null;
}

/** A player name: u8 length + 1..MAX_NAME_LENGTH printable ASCII bytes, no leading/trailing space (`bad-name`). */
export const playerName: Codec<string> = {
  write(s, v) {
    if (typeof v !== 'string') refuse(`${String(v)} is not a string`);
    const codes = Array.from({ length: v.length }, (_, i) => v.charCodeAt(i));
    const problem = nameProblem(codes);
    if (problem !== null) refuse(`name ${JSON.stringify(v)} ${problem}`);
    s.u8(v.length);
    s.utf8(v, v.length);
  },
  read(r) {
    const n = r.u8();
    if (n < 1 || n > MAX_NAME_LENGTH) fail('bad-name');
    const raw = r.peekBytes(n);
    if (nameProblem(raw) !== null) fail('bad-name');
    return String.fromCharCode(...raw);
  },
};

/** A solar system's name (galaxyMap.ts): u8 length + 1..31 of A–Z a–z 0–9 . _ - (`bad-name`). */
const SYSTEM_NAME = /^[A-Za-z0-9._-]{1,31}$/;
export const systemName: Codec<string> = {
  write(s, v) {
    if (typeof v !== 'string' || !SYSTEM_NAME.test(v)) refuse(`system name ${JSON.stringify(v)} is not 1..31 letters, digits, dots, underscores or dashes`);
    s.u8(v.length);
    s.utf8(v, v.length);
  },
  read(r) {
    const n = r.u8();
    if (n < 1 || n > 31) fail('bad-name');
    const text = String.fromCharCode(...r.peekBytes(n));
    if (!SYSTEM_NAME.test(text)) fail('bad-name');
    return text;
  },
};

/** A text field of `pattern` (ASCII), `what` in errors: u8 length + the bytes (`bad-name` when it does not match). */
function asciiField(pattern: RegExp, what: string): Codec<string> {
  return {
    write(s, v) {
      if (typeof v !== 'string' || !pattern.test(v)) refuse(`${what} ${JSON.stringify(v)} is not one`);
      s.u8(v.length);
      s.utf8(v, v.length);
    },
    read(r) {
      const n = r.u8();
      if (n < 1) fail('bad-name');
      const text = String.fromCharCode(...r.peekBytes(n));
      if (!pattern.test(text)) fail('bad-name');
      return text;
    },
  };
}

/** A server's IP address as text (a jump's destination): 2..45 of hex digits, dots and colons. */
export const hostText = asciiField(/^[0-9A-Fa-f.:]{2,45}$/, 'host');
/** A jump ticket (jumpTicket.ts): 1..120 characters of base64url. */
export const ticketText = asciiField(/^[A-Za-z0-9_-]{1,120}$/, 'ticket');

/** Longest player name a player may choose (the wire's MAX_NAME_LENGTH). */
export const PLAYER_NAME_MAX = 16;

/**
 * Checks a player name: 1..16 printable ASCII characters (space allowed
 * inside, not at either end). Returns the trimmed name or one clear reason.
 */
export function validatePlayerName(raw: string): { ok: true; name: string } | { ok: false; error: string } {
  const name = raw.trim();
  if (name.length === 0) return { ok: false, error: 'a name needs at least one character' };
  if (name.length > PLAYER_NAME_MAX) {
    return { ok: false, error: `a name may have at most ${PLAYER_NAME_MAX} characters (got ${name.length})` };
  }
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(name)) {
    return { ok: false, error: 'a name may only use printable ASCII characters' };
  }
  return { ok: true, name };
}

/** The byte rule for a serialised node address: [4][4 bytes][port] or [6][16 bytes][port]. */
function addrValid(a: Uint8Array): boolean {
  return (a.length === 7 && a[0] === 4) || (a.length === 19 && a[0] === 6);
}

/** A WireAddr: u8 length + bytes, 7 bytes starting with 4 or 19 starting with 6 (`bad-addr`). */
export const wireAddr: Codec<WireAddr> = {
  write(s, v) {
    if (!(v instanceof Uint8Array)) refuse(`${String(v)} is not a Uint8Array`);
    if (!addrValid(v)) refuse(`address of ${v.length} bytes starting with ${String(v[0])} is not [4 + 4 + 2] or [6 + 16 + 2]`);
    s.u8(v.length);
    s.bytes(v);
  },
  read(r) {
    const n = r.u8();
    if (n !== 7 && n !== 19) fail('bad-addr');
    const a = r.bytes(n);
    if (!addrValid(a)) fail('bad-addr');
    return a;
  },
};
