/**
 * Netgame state differences (the seed's 'stdf'): the server's state bytes
 * (netState.ts) at a frame as the XOR with the state a client last
 * acknowledged (or whole, against nothing), packed (zlib on the host) and
 * split into chunks of at most STATE_CHUNK_BYTES; the client, holding the
 * same base, restores the exact bytes.
 */
import type { StatePacker } from '../lockstep/stateTransfer';
import { MAX_TRANSFER_BYTES, splitChunks } from '../lockstep/stateTransfer';

/** `next` as a difference from `base` (null: none): next's length u32, then next XOR base (base read as zeros past its end). */
export function diffState(base: Uint8Array | null, next: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + next.length);
  new DataView(out.buffer).setUint32(0, next.length);
  for (let i = 0; i < next.length; i++) out[4 + i] = (next[i] as number) ^ (base?.[i] ?? 0);
  return out;
}

/** The bytes a difference from `base` restores, or null when it is malformed. */
export function applyDiff(base: Uint8Array | null, diff: Uint8Array): Uint8Array | null {
  if (diff.length < 4) return null;
  const n = new DataView(diff.buffer, diff.byteOffset, diff.byteLength).getUint32(0);
  if (n !== diff.length - 4 || n > MAX_TRANSFER_BYTES) return null;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (diff[4 + i] as number) ^ (base?.[i] ?? 0);
  return out;
}

/** A difference packed and split for the wire: the chunks and the sizes (raw, packed), or null when too large. */
export function diffChunks(base: Uint8Array | null, next: Uint8Array, packer: StatePacker): { chunks: Uint8Array[]; raw: number; packed: number } | null {
  const diff = diffState(base, next);
  const packed = packer.pack(diff);
  const chunks = splitChunks(packed);
  return chunks && { chunks, raw: diff.length, packed: packed.length };
}
