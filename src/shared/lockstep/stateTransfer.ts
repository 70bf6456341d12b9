/**
 * A lockstep state transfer: the lowest slot's whole world at a frame
 * boundary, for a newcomer, after a roster change and after a desync. Its
 * payload is the sender's world hashes of the frames before (to find the
 * first frame where a diverged receiver went wrong) and the world
 * (worldCodec.ts), packed (zlib where the host has it), split into chunks of
 * at most STATE_CHUNK_BYTES that travel as `lockstepState` events, one per
 * datagram, and reassembled; it is applied only when complete.
 */
import { MAX_STATE_CHUNKS, STATE_CHUNK_BYTES, type LockstepStateEvent } from '../wire/types';
import type { World } from '../game/types';
import { decodeWorld, encodeWorld } from './worldCodec';

/** Packs and unpacks a transfer's bytes (the Node host: raw deflate). `unpack` returns null for bytes it cannot unpack or that grow past `maxBytes`. */
export interface StatePacker {
  pack(bytes: Uint8Array): Uint8Array;
  unpack(bytes: Uint8Array, maxBytes: number): Uint8Array | null;
}

/** No packing (pure TypeScript; tests, and hosts without zlib). */
export const PLAIN_PACKER: StatePacker = {
  pack: (bytes) => bytes,
  unpack: (bytes, maxBytes) => (bytes.length <= maxBytes ? bytes : null),
};

/** Largest unpacked payload accepted (a world of every object the game allows fits well within it). */
export const MAX_TRANSFER_BYTES = 1 << 20;
/** Most frame hashes a transfer carries. */
export const MAX_TRANSFER_HASHES = 64;

/** What a transfer carries: the world, and the sender's 32-bit world hash of the frames `hashesFrom`, `hashesFrom + 1`, …. */
export interface TransferContent {
  world: World;
  hashesFrom: number;
  hashes: number[];
}

/** The chunks of a transfer of `content` as epoch `epoch`, or null when it does not fit MAX_STATE_CHUNKS chunks. */
export function transferChunks(content: TransferContent, epoch: number, packer: StatePacker): LockstepStateEvent[] | null {
  const world = encodeWorld(content.world);
  const hashes = content.hashes.slice(-MAX_TRANSFER_HASHES);
  const payload = new Uint8Array(5 + hashes.length * 4 + world.length);
  const view = new DataView(payload.buffer);
  view.setUint32(0, (content.hashesFrom + content.hashes.length - hashes.length) >>> 0);
  view.setUint8(4, hashes.length);
  hashes.forEach((h, i) => view.setUint32(5 + i * 4, h >>> 0));
  payload.set(world, 5 + hashes.length * 4);
  const parts = splitChunks(packer.pack(payload));
  const frame = content.world.tick >>> 0;
  return parts && parts.map((data, index) => ({ type: 'lockstepState', epoch, frame, index, count: parts.length, data }));
}

/** `bytes` in pieces of at most STATE_CHUNK_BYTES (at least one), or null when that takes more than MAX_STATE_CHUNKS. */
export function splitChunks(bytes: Uint8Array): Uint8Array[] | null {
  const count = Math.max(1, Math.ceil(bytes.length / STATE_CHUNK_BYTES));
  if (count > MAX_STATE_CHUNKS) return null;
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) out.push(bytes.subarray(i * STATE_CHUNK_BYTES, (i + 1) * STATE_CHUNK_BYTES));
  return out;
}

/** One received chunk of something split by splitChunks: which whole it belongs to (`key` and `frame`), its place, its bytes. */
export interface Chunk {
  key: number;
  frame: number;
  index: number;
  count: number;
  data: Uint8Array;
}

/** Chunks being received from one sender: those of one whole (key and frame), replaced by another's first chunk. */
export class TransferAssembly {
  private key = -1;
  private frame = 0;
  private parts: (Uint8Array | undefined)[] = [];
  private have = 0;

  /**
   * Adds a chunk; returns the whole's bytes once every chunk of it is in,
   * else null. A chunk of another key, frame or count starts a new whole.
   */
  add(c: Chunk): { key: number; frame: number; packed: Uint8Array } | null {
    if (c.key !== this.key || c.frame !== this.frame || c.count !== this.parts.length) {
      this.key = c.key;
      this.frame = c.frame;
      this.parts = new Array<Uint8Array | undefined>(c.count).fill(undefined);
      this.have = 0;
    }
    if (this.parts[c.index] !== undefined) return null;
    this.parts[c.index] = c.data;
    this.have++;
    if (this.have < this.parts.length) return null;
    const size = this.parts.reduce((n, p) => n + (p?.length ?? 0), 0);
    const packed = new Uint8Array(size);
    let at = 0;
    for (const p of this.parts) {
      packed.set(p as Uint8Array, at);
      at += (p as Uint8Array).length;
    }
    const done = { key: this.key, frame: this.frame, packed };
    this.parts = [];
    this.key = -1;
    return done;
  }
}

/** The content of a complete transfer, or why it is refused (untrusted bytes: never throws). */
export function readTransfer(packed: Uint8Array, frame: number, packer: StatePacker): { ok: true; content: TransferContent; bytes: number } | { ok: false; reason: string } {
  let payload: Uint8Array | null;
  try {
    payload = packer.unpack(packed, MAX_TRANSFER_BYTES);
  } catch {
    payload = null;
  }
  if (!payload) return { ok: false, reason: 'cannot unpack' };
  if (payload.length < 5) return { ok: false, reason: 'truncated' };
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const hashesFrom = view.getUint32(0);
  const n = view.getUint8(4);
  if (n > MAX_TRANSFER_HASHES || payload.length < 5 + n * 4) return { ok: false, reason: 'bad hash list' };
  const hashes: number[] = [];
  for (let i = 0; i < n; i++) hashes.push(view.getUint32(5 + i * 4));
  const decoded = decodeWorld(payload.subarray(5 + n * 4));
  if (!decoded.ok) return { ok: false, reason: decoded.reason };
  if (decoded.world.tick !== frame) return { ok: false, reason: `world at tick ${decoded.world.tick}, not the announced frame ${frame}` };
  return { ok: true, content: { world: decoded.world, hashesFrom, hashes }, bytes: packed.length };
}
