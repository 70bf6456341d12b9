/**
 * Hostile datagrams for the hostile-traffic test and bench (hostile.ts): a
 * seeded attacker's randomness, a plausible ship, and the factory of
 * mutated, random and forged game datagrams.
 */
import { encodePacket, HEADER_SIZE } from '../../src/shared/wire/codec';
import { objectId, PacketType, type Packet, type RemoteEvent, type ShipState } from '../../src/shared/wire/types';
import { encodeDiscoveryRequest } from '../../src/shared/servers/lanDiscovery';
import { shipAt } from './gameClient';

/** xorshift32: fast, seeded; the attacker's randomness needs no quality, only speed and repeatability. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

export const plausible = (x: number): ShipState => ({ ...shipAt({ x, y: 0, z: 0 }), vel: { x: 0, y: 0, z: -40 } });

/**
 * Makes hostile datagrams. Seeds are real encoded datagrams (built here with
 * the codec, plus whatever `capture` adds from the wire); each datagram is a
 * fresh mutation of one, or random bytes, or a forged packet.
 */
export class DatagramFactory {
  private readonly seeds: Uint8Array[] = [];
  private readonly next32: () => number;
  readonly counts: Record<string, number> = {};

  constructor(seed: number) {
    this.next32 = rng(seed);
    for (let i = 0; i < 16; i++) this.seeds.push(this.forged());
    this.seeds.push(encodeDiscoveryRequest(7));
  }

  /** A real datagram seen on the wire joins the seeds (at most 256 are kept). */
  capture(bytes: Uint8Array): void {
    if (this.seeds.length < 256) this.seeds.push(Uint8Array.from(bytes));
    else this.seeds[this.next32() % this.seeds.length] = Uint8Array.from(bytes);
  }

  get seedCount(): number {
    return this.seeds.length;
  }

  private n(max: number): number {
    return this.next32() % max;
  }

  private randomBytes(len: number): Uint8Array {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i += 4) {
      const v = this.next32();
      out[i] = v;
      if (i + 1 < len) out[i + 1] = v >>> 8;
      if (i + 2 < len) out[i + 2] = v >>> 16;
      if (i + 3 < len) out[i + 3] = v >>> 24;
    }
    return out;
  }

  /** A well-formed GameState with a random (wrong) token, slot and message id, and sometimes events. */
  private forged(): Uint8Array {
    const slot = this.n(16);
    const events: RemoteEvent[] = [];
    if (this.n(2) === 0) events.push({ type: 'createLaser', id: objectId(slot, this.n(65536)), pos: { x: 0, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 });
    if (this.n(4) === 0) events.push({ type: 'sendText', text: 'x'.repeat(this.n(150)) });
    const packet: Packet = {
      header: { type: this.n(3) === 0 ? PacketType.NodeAlive : PacketType.GameState, senderSlot: slot, messageId: this.next32(), gameTime: this.next32(), joined: true, state: plausible(this.n(4000) - 2000), token: this.next32() },
      events,
    };
    return encodePacket(packet);
  }

  /**
   * A forged GameState whose ship state is partial (wire v13): portions that
   * may include bits no state has, a base never sent (or 0 ids back), and
   * portion bytes of any length.
   */
  private partial(): Uint8Array {
    const full = this.forged();
    // A forged GameState's state section starts after the 10-byte base and the game time, and a full one is 30 bytes.
    const at = 14;
    if (full[3] !== PacketType.GameState) return full;
    const portions = this.n(4) === 0 ? this.n(256) : 0x20 | this.n(32);
    return Uint8Array.from([...full.subarray(0, at), portions, this.n(256), ...this.randomBytes(this.n(31)), ...full.subarray(at + 30)]);
  }

  /** The next hostile datagram and its kind. */
  next(): { bytes: Uint8Array; kind: string } {
    const r = this.n(100);
    let kind: string;
    let bytes: Uint8Array;
    const seed = this.seeds[this.n(this.seeds.length)] as Uint8Array;
    if (r < 15) {
      kind = 'random';
      bytes = this.randomBytes(this.n(700));
    } else if (r < 40) {
      kind = 'bitflip';
      bytes = Uint8Array.from(seed);
      for (let i = 1 + this.n(8); i > 0; i--) {
        const at = this.n(bytes.length);
        bytes[at] = (bytes[at] as number) ^ (1 << this.n(8));
      }
    } else if (r < 55) {
      kind = 'truncated';
      bytes = seed.slice(0, this.n(seed.length));
    } else if (r < 65) {
      kind = 'extended';
      // Longer than its seed and than 512 bytes (a captured Relay may itself be up to 1,200).
      const out = new Uint8Array(Math.max(513, seed.length + 1) + this.n(900));
      out.set(seed);
      out.set(this.randomBytes(out.length - seed.length), seed.length);
      bytes = out;
    } else if (r < 80) {
      kind = 'swapped';
      bytes = Uint8Array.from(seed);
      // Swap two header fields (4-byte spans inside the fixed header), or overwrite the type/slot/flags bytes.
      if (bytes.length >= HEADER_SIZE && this.n(2) === 0) {
        const a = 2 + this.n(HEADER_SIZE - 6);
        const b = 2 + this.n(HEADER_SIZE - 6);
        const tmp = bytes.slice(a, a + 4);
        bytes.copyWithin(a, b, b + 4);
        bytes.set(tmp, b);
      } else if (bytes.length > 5) {
        bytes[2 + this.n(4)] = this.n(256);
      }
    } else if (r < 88) {
      kind = 'forged';
      bytes = this.forged();
    } else if (r < 95) {
      kind = 'partial';
      bytes = this.partial();
    } else {
      kind = 'discovery';
      bytes = encodeDiscoveryRequest(this.next32());
      if (this.n(2) === 0) bytes[bytes.length - 1 - this.n(8)] = 1 + this.n(255);
      else bytes = bytes.slice(0, this.n(bytes.length));
    }
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    return { bytes, kind };
  }
}
