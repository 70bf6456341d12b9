/**
 * State transfers packed with raw deflate (node:zlib) for the wire: a
 * world of ~9 KB goes in a few chunks instead of two dozen. Unpacking stops
 * at the given size, so a hostile "zip bomb" costs nothing.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { StatePacker } from '../../shared/lockstep/stateTransfer';

/** Raw deflate at `level` (1 fastest … 9 smallest; default 6). */
export function zlibPacker(level = 6): StatePacker {
  return {
    pack: (bytes) => new Uint8Array(deflateRawSync(bytes, { level })),
    unpack: (bytes, maxBytes) => {
      try {
        return new Uint8Array(inflateRawSync(bytes, { maxOutputLength: maxBytes }));
      } catch {
        return null;
      }
    },
  };
}
