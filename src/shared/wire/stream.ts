/**
 * Byte streams for the wire codec: a {@link Sink} that either counts bytes
 * ({@link Measurer}) or writes them ({@link ByteWriter}), and a bounds-checked
 * {@link Reader}. Codecs (see `fields.ts`) are written once against these, so
 * the size of a message is, by construction, what its encoder writes.
 *
 * All multi-byte values are big-endian (network byte order). Pure TypeScript:
 * Uint8Array/DataView and TextEncoder only, so it runs in Node and browsers.
 */

/**
 * Every reason a received datagram can be dropped for, in the order the
 * decoder can first meet them. `DropReason` is derived from this list so the
 * two cannot drift apart.
 */
export const DROP_REASONS = [
  'too-large',
  'truncated',
  'bad-magic',
  'bad-version',
  'unknown-type',
  'bad-slot',
  'bad-flags',
  'bad-portions',
  'non-finite',
  'out-of-range',
  'bad-quat',
  'unknown-base',
  'unknown-event',
  'bad-length',
  'bad-text',
  'bad-name',
  'bad-addr',
  'bad-list',
  'bad-nesting',
  'bad-link',
  'bad-link-message',
  'trailing-bytes',
] as const;

/** Why `decodePacket` refused a datagram (one of {@link DROP_REASONS}). */
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * Thrown inside the decoder to unwind to `decodePacket`, which turns it into
 * `{ ok: false, reason }`. Never escapes the codec. Deliberately not an Error:
 * malformed input is routine, and skipping the stack capture keeps drops cheap.
 */
export class DecodeFailure {
  constructor(readonly reason: DropReason) {}
}

/** Abandons the current decode with `reason`. */
export function fail(reason: DropReason): never {
  throw new DecodeFailure(reason);
}

/**
 * A programmer mistake found while encoding trusted local data (an over-long
 * name, a NaN position, a packet over 512 bytes...). `path` names the field,
 * e.g. `events[2].players[0].name`; the message repeats it for the console.
 */
export class WireEncodeError extends Error {
  readonly path: string[] = [];

  constructor(readonly detail: string) {
    super(`wire encode: ${detail}`);
    this.name = 'WireEncodeError';
  }

  /** Adds an outer path segment (a field name, `[i]` for a list item, `(type)` for an event) while the error unwinds. */
  within(segment: string): this {
    this.path.unshift(segment);
    // Reads like code: `events[2] (sendText).text`.
    let where = '';
    for (const part of this.path) {
      where += where === '' || part.startsWith('[') ? part : part.startsWith('(') ? ` ${part}` : `.${part}`;
    }
    this.message = `wire encode: ${where}: ${this.detail}`;
    return this;
  }
}

/** Abandons the current encode: `detail` says what is wrong with the value (the path is added on the way out). */
export function refuse(detail: string): never {
  throw new WireEncodeError(detail);
}

/** Where a codec writes: raw big-endian primitives. Range checks belong to the codecs, not here. */
export interface Sink {
  u8(v: number): void;
  u16(v: number): void;
  u32(v: number): void;
  i16(v: number): void;
  f32(v: number): void;
  bytes(b: Uint8Array): void;
  /** Writes `s` as UTF-8; `byteLength` must be its exact UTF-8 length (the codec has computed it while validating). */
  utf8(s: string, byteLength: number): void;
  /** Writes a u16 length, then whatever `body` writes; returns that length. */
  lengthPrefixed(body: () => void): number;
}

/** A Sink that only counts: measuring a value runs the very same code that encodes it. */
export class Measurer implements Sink {
  size = 0;
  u8(): void {
    this.size += 1;
  }
  u16(): void {
    this.size += 2;
  }
  u32(): void {
    this.size += 4;
  }
  i16(): void {
    this.size += 2;
  }
  f32(): void {
    this.size += 4;
  }
  bytes(b: Uint8Array): void {
    this.size += b.length;
  }
  utf8(_s: string, byteLength: number): void {
    this.size += byteLength;
  }
  lengthPrefixed(body: () => void): number {
    this.size += 2;
    const start = this.size;
    body();
    return this.size - start;
  }
}

const encoder = new TextEncoder();

/** A Sink writing into a buffer of a size measured beforehand; overrunning it is a codec bug. */
export class ByteWriter implements Sink {
  readonly buf: Uint8Array;
  private readonly view: DataView;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  private take(n: number): number {
    const at = this.pos;
    // The buffer was sized by a Measurer running the same codec; a mismatch is a bug, not bad input.
    if (at + n > this.buf.length) throw new Error(`wire codec bug: write past the measured size ${this.buf.length}`);
    this.pos = at + n;
    return at;
  }
  u8(v: number): void {
    this.view.setUint8(this.take(1), v);
  }
  u16(v: number): void {
    this.view.setUint16(this.take(2), v);
  }
  u32(v: number): void {
    this.view.setUint32(this.take(4), v);
  }
  i16(v: number): void {
    this.view.setInt16(this.take(2), v);
  }
  f32(v: number): void {
    this.view.setFloat32(this.take(4), v);
  }
  bytes(b: Uint8Array): void {
    this.buf.set(b, this.take(b.length));
  }
  utf8(s: string, byteLength: number): void {
    const at = this.take(byteLength);
    const { written } = encoder.encodeInto(s, this.buf.subarray(at, at + byteLength));
    if (written !== byteLength) throw new Error('wire codec bug: UTF-8 length disagrees with TextEncoder');
  }
  lengthPrefixed(body: () => void): number {
    const at = this.take(2);
    body();
    const length = this.pos - at - 2;
    // Back-patching lets the payload be written in one pass, without measuring it first.
    this.view.setUint16(at, length);
    return length;
  }
}

/**
 * Reads big-endian primitives from untrusted bytes. Every read is bounds
 * checked against the current end: past the datagram it fails `truncated`,
 * past an event payload (see {@link Reader.within}) it fails `bad-length`.
 */
export class Reader {
  private readonly view: DataView;
  pos = 0;
  private end: number;
  private endReason: DropReason = 'truncated';

  constructor(private readonly data: Uint8Array) {
    // byteOffset matters: `data` may be a view into a larger receive buffer.
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.end = data.byteLength;
  }

  /** Bytes left before the current end. */
  remaining(): number {
    return this.end - this.pos;
  }

  private take(n: number): number {
    const at = this.pos;
    if (at + n > this.end) fail(this.endReason);
    this.pos = at + n;
    return at;
  }
  u8(): number {
    return this.view.getUint8(this.take(1));
  }
  u16(): number {
    return this.view.getUint16(this.take(2));
  }
  u32(): number {
    return this.view.getUint32(this.take(4));
  }
  i16(): number {
    return this.view.getInt16(this.take(2));
  }
  f32(): number {
    return this.view.getFloat32(this.take(4));
  }
  /** A copy, so decoded packets never alias the receive buffer. */
  bytes(n: number): Uint8Array {
    const at = this.take(n);
    return this.data.slice(at, at + n);
  }
  /** A view without copying, for bytes that are validated and converted immediately. */
  peekBytes(n: number): Uint8Array {
    const at = this.take(n);
    return this.data.subarray(at, at + n);
  }

  /**
   * Runs `body` with reads confined to the next `n` bytes, which must all be
   * consumed: reading past them or leaving some over fails `bad-length`.
   * `n` itself running past the current end fails with that end's reason.
   */
  within<T>(n: number, body: () => T): T {
    if (this.pos + n > this.end) fail(this.endReason);
    const outerEnd = this.end;
    const outerReason = this.endReason;
    this.end = this.pos + n;
    this.endReason = 'bad-length';
    const value = body();
    if (this.pos !== this.end) fail('bad-length');
    this.end = outerEnd;
    this.endReason = outerReason;
    return value;
  }
}
