/**
 * The demo file format, version 1 (docs/DEMO.md): an 8-byte magic, then
 * chunks, each length-prefixed and closed by a CRC-32, written append-only.
 * The first chunk is the header (a JSON object: demo format, Starlane and
 * wire versions, the simulation's golden hash, protocol, seed, players); an
 * `end` chunk closes a recording that stopped cleanly. A recording cut off
 * by a crash or a power cut is a valid prefix: reading stops at the last
 * whole chunk and says where and why.
 *
 * A demo file is untrusted input like a datagram: `readDemo` validates every
 * byte, never throws, never loops on what it cannot read, and names the
 * reason and the offset where it stopped. Pure TypeScript (Uint8Array,
 * DataView, TextEncoder), so Node and the game page read alike; the CRC-32
 * comes from the runtime (`Crc32`: Node's zlib.crc32, src/node/demo/demoCrc.ts).
 */

/** CRC-32 (IEEE 802.3, as zlib, gzip and PNG compute it) of `bytes`, an unsigned 32-bit number: the runtime's. */
export type Crc32 = (bytes: Uint8Array) => number;

/** "SLDEMO\r\n": a name, and a CR LF that a text-mode copy would mangle. */
export const DEMO_MAGIC = Uint8Array.of(0x53, 0x4c, 0x44, 0x45, 0x4d, 0x4f, 0x0d, 0x0a);
/** The format this file describes; a reader refuses any other, naming both. */
export const DEMO_FORMAT = 1;
/** Bytes around a chunk's body: length (u32), kind (u8), time (u32) before it, CRC-32 (u32) after. */
export const CHUNK_OVERHEAD = 4 + 1 + 4 + 4;
/** The largest body a chunk may carry (a Relay datagram is at most 1,200 bytes; a header at most 16 KiB). */
export const MAX_CHUNK_BODY = 65_536;
/** The largest header body (bytes of JSON). */
export const MAX_HEADER_BYTES = 16_384;
/** The most players a header names (a gameserver seats 255). */
export const MAX_HEADER_PLAYERS = 256;
/** The longest text a `text` or `end` chunk holds (bytes of UTF-8). */
export const MAX_TEXT_BYTES = 1024;

/** What a chunk holds. */
export const DemoKind = {
  /** The header, first and only once: a JSON {@link DemoHeader}. */
  Header: 1,
  /** A datagram this client's game took, as it came (wire bytes). */
  Delivery: 2,
  /** This client's own ship state and events, as it sent them (wire bytes). */
  Local: 3,
  /** A console or chat line (UTF-8). */
  Text: 4,
  /** Lockstep frame inputs or netgame moves (wire bytes): what replays the shared world exactly. */
  Frame: 5,
  /** A digest of the world at a tick: u32 tick, then 8 bytes of hash. */
  Digest: 6,
  /** A part of the game's snapshot at the start of a client recording (snapshot.ts): [u8 1][u16 part][u16 parts][bytes]. */
  Snapshot: 7,
  /** The recording ended cleanly; its reason (UTF-8). Nothing follows. */
  End: 15,
} as const;
export type DemoKind = (typeof DemoKind)[keyof typeof DemoKind];
const KINDS = new Set<number>(Object.values(DemoKind));

/** Network models a demo can come from. */
export const DEMO_PROTOCOLS = ['offline', 'p2p', 'slotserver', 'gameserver', 'lockstep', 'netgame'] as const;
export type DemoProtocol = (typeof DEMO_PROTOCOLS)[number];

/** The header chunk's JSON. */
export interface DemoHeader {
  /** {@link DEMO_FORMAT}. */
  demo: number;
  /** Starlane version that recorded it. */
  starlane: string;
  /** Wire version of the datagrams in it (types.ts WIRE_VERSION). */
  wire: number;
  /** The simulation's golden hash (goldenRun.ts): a lockstep or netgame replay re-runs the simulation, so another one is refused. */
  sim: string;
  protocol: DemoProtocol;
  /** The match's seed, where it has one. */
  seed: number | null;
  /** The server it was recorded on (`host:port`), or null. */
  server: string | null;
  /** Who recorded it: a player's slot and name (slot null: a server or a spectator). */
  recorder: { slot: number | null; name: string };
  players: { slot: number; name: string }[];
  /** When the recording started (ISO 8601, UTC). */
  startedAt: string;
}

/** One chunk after the header: its kind, its time (ms since the recording started) and its body. */
export interface DemoChunk {
  kind: DemoKind;
  timeMs: number;
  body: Uint8Array;
}

/** Why reading stopped early. */
export type DemoDamage =
  | 'too-short'
  | 'bad-magic'
  | 'truncated'
  | 'bad-length'
  | 'bad-crc'
  | 'unknown-kind'
  | 'time-backwards'
  | 'no-header'
  | 'bad-header'
  | 'other-format'
  | 'header-twice'
  | 'bad-body'
  | 'after-end';

/**
 * Where a read ended: `clean` at an end chunk; `cut` where the file stops
 * at a chunk boundary or inside its last chunk, or has only zeros after its
 * last whole chunk (what a crash or a power cut leaves: the prefix plays);
 * `damaged` at a chunk that cannot be taken with more of the file after it.
 */
export type DemoStop = { how: 'clean'; reason: string; offset: number } | { how: 'cut' | 'damaged'; why: DemoDamage; detail: string; offset: number };

export type DemoRead =
  | { ok: true; header: DemoHeader; chunks: DemoChunk[]; durationMs: number; stop: DemoStop }
  /** Not a playable demo at all: no magic, no valid header. */
  | { ok: false; why: DemoDamage; detail: string; offset: number };

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The magic and the header chunk: the first bytes of every demo file. */
export function encodeDemoStart(header: DemoHeader, crc32: Crc32): Uint8Array {
  const problem = headerProblem(header);
  if (problem) throw new RangeError(`not a demo header: ${problem}`);
  const head = encodeChunk(DemoKind.Header, 0, utf8.encode(JSON.stringify(header)), crc32);
  const out = new Uint8Array(DEMO_MAGIC.length + head.length);
  out.set(DEMO_MAGIC, 0);
  out.set(head, DEMO_MAGIC.length);
  return out;
}

/** One chunk's bytes (throws RangeError for a body, kind or time that cannot be written: a caller's bug). */
export function encodeChunk(kind: DemoKind, timeMs: number, body: Uint8Array, crc32: Crc32): Uint8Array {
  if (!KINDS.has(kind)) throw new RangeError(`no chunk kind ${kind}`);
  if (!Number.isInteger(timeMs) || timeMs < 0 || timeMs > 0xffff_ffff) throw new RangeError(`chunk time ${timeMs} is not a u32 of ms`);
  if (body.length > MAX_CHUNK_BODY) throw new RangeError(`a chunk body of ${body.length} bytes is over ${MAX_CHUNK_BODY}`);
  const out = new Uint8Array(CHUNK_OVERHEAD + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 1 + 4 + body.length);
  out[4] = kind;
  view.setUint32(5, timeMs);
  out.set(body, 9);
  view.setUint32(9 + body.length, crc32(out.subarray(4, 9 + body.length)) >>> 0);
  return out;
}

/** A text or end chunk's body (UTF-8, cut to MAX_TEXT_BYTES on a character boundary). */
export function textBody(text: string): Uint8Array {
  // A character is at least one byte: no more than MAX_TEXT_BYTES of them can fit, then whole characters go from the end.
  let t = text.slice(0, MAX_TEXT_BYTES);
  let bytes = utf8.encode(t);
  while (bytes.length > MAX_TEXT_BYTES) bytes = utf8.encode((t = t.slice(0, -1)));
  return bytes;
}

/** The text of a text or end chunk's body, or null when it is not UTF-8. */
export function bodyText(body: Uint8Array): string | null {
  try {
    return fromUtf8.decode(body);
  } catch {
    return null;
  }
}

/** A digest chunk's body: the tick (u32) and an 8-byte hash given as 16 hex digits. */
export function digestBody(tick: number, hashHex: string): Uint8Array {
  if (!/^[0-9a-f]{16}$/.test(hashHex)) throw new RangeError(`digest ${hashHex} is not 16 hex digits`);
  const out = new Uint8Array(12);
  new DataView(out.buffer).setUint32(0, tick >>> 0);
  for (let i = 0; i < 8; i++) out[4 + i] = parseInt(hashHex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A digest chunk's tick and hash, or null for a body that is not one. */
export function readDigest(body: Uint8Array): { tick: number; hash: string } | null {
  if (body.length !== 12) return null;
  const tick = new DataView(body.buffer, body.byteOffset, 4).getUint32(0);
  return { tick, hash: [...body.subarray(4)].map((b) => b.toString(16).padStart(2, '0')).join('') };
}

/** What is wrong with `h` as a header, or null. */
export function headerProblem(h: unknown): string | null {
  if (typeof h !== 'object' || h === null || Array.isArray(h)) return 'not an object';
  const o = h as Record<string, unknown>;
  const name = (v: unknown) => typeof v === 'string' && v.length <= 32;
  if (typeof o.demo !== 'number' || !Number.isInteger(o.demo)) return 'no demo format number';
  if (typeof o.starlane !== 'string' || o.starlane.length > 32) return 'no Starlane version';
  if (typeof o.wire !== 'number' || !Number.isInteger(o.wire) || o.wire < 1 || o.wire > 255) return 'no wire version';
  if (typeof o.sim !== 'string' || !/^[0-9a-f]{16}$/.test(o.sim)) return 'no simulation hash';
  if (typeof o.protocol !== 'string' || !(DEMO_PROTOCOLS as readonly string[]).includes(o.protocol)) return `protocol ${JSON.stringify(o.protocol)} is none of ${DEMO_PROTOCOLS.join(', ')}`;
  if (o.seed !== null && (typeof o.seed !== 'number' || !Number.isInteger(o.seed) || o.seed < 0 || o.seed > 0xffff_ffff)) return 'seed is not a u32 or null';
  if (o.server !== null && (typeof o.server !== 'string' || o.server.length > 300)) return 'server is not an address or null';
  const r = o.recorder as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null || !name(r.name) || (r.slot !== null && !isSlot(r.slot))) return 'no recorder';
  if (!Array.isArray(o.players) || o.players.length > MAX_HEADER_PLAYERS) return `players is not a list of at most ${MAX_HEADER_PLAYERS}`;
  for (const p of o.players as unknown[]) {
    const q = p as Record<string, unknown> | null;
    if (typeof q !== 'object' || q === null || !isSlot(q.slot) || !name(q.name)) return 'a player without a slot and a name';
  }
  if (typeof o.startedAt !== 'string' || o.startedAt.length > 40 || Number.isNaN(Date.parse(o.startedAt))) return 'no start time';
  return null;
}

function isSlot(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;
}

/** Whether every byte of `bytes` from `at` is zero (a power cut's tail). */
function zerosFrom(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Reads a whole demo file. Never throws: a file without the magic or a
 * valid header is `ok: false` with the reason; otherwise every whole chunk
 * up to where reading stopped, and how it stopped.
 */
export function readDemo(bytes: Uint8Array, crc32: Crc32): DemoRead {
  if (bytes.length < DEMO_MAGIC.length) return { ok: false, why: 'too-short', detail: `${bytes.length} bytes: not even the magic`, offset: 0 };
  for (let i = 0; i < DEMO_MAGIC.length; i++) if (bytes[i] !== DEMO_MAGIC[i]) return { ok: false, why: 'bad-magic', detail: 'no SLDEMO magic at its start', offset: 0 };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = DEMO_MAGIC.length;
  let header: DemoHeader | null = null;
  const chunks: DemoChunk[] = [];
  let lastTime = 0;
  const stopAt = (why: DemoDamage, detail: string, offset: number, atTail: boolean): DemoRead => {
    const cut = atTail || zerosFrom(bytes, offset);
    const stop: DemoStop = { how: cut ? 'cut' : 'damaged', why, detail, offset };
    if (!header) return { ok: false, why: why === 'truncated' && offset === DEMO_MAGIC.length ? 'no-header' : why, detail, offset };
    return { ok: true, header, chunks, durationMs: lastTime, stop };
  };
  // Each turn takes one whole chunk or stops: at most one turn per CHUNK_OVERHEAD bytes.
  while (at < bytes.length) {
    if (bytes.length - at < 4) return stopAt('truncated', `the file ends ${bytes.length - at} bytes into a chunk's length`, at, true);
    const length = view.getUint32(at);
    if (length < 5 || length > 5 + MAX_CHUNK_BODY) return stopAt('bad-length', `a chunk of ${length} bytes (5 to ${5 + MAX_CHUNK_BODY})`, at, false);
    if (bytes.length - at < 4 + length + 4) return stopAt('truncated', `the file ends inside a chunk of ${length} bytes`, at, true);
    const covered = bytes.subarray(at + 4, at + 4 + length);
    const sum = view.getUint32(at + 4 + length);
    if (crc32(covered) >>> 0 !== sum) return stopAt('bad-crc', 'a chunk whose CRC-32 does not match its bytes', at, false);
    const kind = covered[0] as number;
    const timeMs = view.getUint32(at + 5);
    const body = covered.subarray(5);
    const next = at + 4 + length + 4;
    if (!KINDS.has(kind)) return stopAt('unknown-kind', `chunk kind ${kind}`, at, false);
    if (header === null) {
      if (kind !== DemoKind.Header) return stopAt('no-header', `the first chunk is kind ${kind}, not the header`, at, false);
      const read = parseHeader(body);
      if (typeof read === 'string') return { ok: false, why: read.startsWith('format') ? 'other-format' : 'bad-header', detail: read, offset: at };
      header = read;
      at = next;
      continue;
    }
    if (kind === DemoKind.Header) return stopAt('header-twice', 'a second header', at, false);
    if (timeMs < lastTime) return stopAt('time-backwards', `a chunk at ${timeMs} ms after one at ${lastTime} ms`, at, false);
    const bodyProblem = checkBody(kind as DemoKind, body);
    if (bodyProblem) return stopAt('bad-body', bodyProblem, at, false);
    lastTime = timeMs;
    if (kind === DemoKind.End) {
      if (next < bytes.length && !zerosFrom(bytes, next)) return stopAt('after-end', `${bytes.length - next} bytes after the end chunk`, next, false);
      return { ok: true, header, chunks, durationMs: lastTime, stop: { how: 'clean', reason: bodyText(body) ?? '', offset: next } };
    }
    chunks.push({ kind: kind as DemoKind, timeMs, body });
    at = next;
  }
  if (!header) return { ok: false, why: 'no-header', detail: 'the file holds the magic and nothing else', offset: at };
  return { ok: true, header, chunks, durationMs: lastTime, stop: { how: 'cut', why: 'truncated', detail: 'the file ends after a whole chunk, without an end chunk', offset: at } };
}

/** The header from its body, or what is wrong with it. */
function parseHeader(body: Uint8Array): DemoHeader | string {
  if (body.length > MAX_HEADER_BYTES) return `a header of ${body.length} bytes (at most ${MAX_HEADER_BYTES})`;
  const text = bodyText(body);
  if (text === null) return 'the header is not UTF-8';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the header is not JSON';
  }
  const o = value as Record<string, unknown> | null;
  if (typeof o === 'object' && o !== null && typeof o.demo === 'number' && o.demo !== DEMO_FORMAT) {
    return `format ${String(o.demo)}: this Starlane reads demo format ${DEMO_FORMAT}`;
  }
  const problem = headerProblem(value);
  return problem ?? (value as DemoHeader);
}

/** What is wrong with a chunk's body for its kind, or null. */
function checkBody(kind: DemoKind, body: Uint8Array): string | null {
  switch (kind) {
    case DemoKind.Text:
    case DemoKind.End:
      if (body.length > MAX_TEXT_BYTES) return `text of ${body.length} bytes (at most ${MAX_TEXT_BYTES})`;
      return bodyText(body) === null ? 'text that is not UTF-8' : null;
    case DemoKind.Digest:
      return body.length === 12 ? null : `a digest of ${body.length} bytes, not 12`;
    case DemoKind.Delivery:
    case DemoKind.Local:
    case DemoKind.Frame:
      return body.length === 0 ? 'an empty datagram' : null;
    default:
      return null;
  }
}
