/**
 * Relayed partial states (wire v14) from the bytes up: a relayed event
 * written partial against a base (relayBundle.ts relayedPartialBytes)
 * decodes, with the client's kept bases (net/relayedStates.ts), to exactly
 * the state the full event gives; against a base the client does not hold
 * the Relay is dropped as `unknown-base`; the client's acknowledgement names
 * the Relays it took (newest and a 32-bit mask), and the server's log
 * (node/servers/game/relayLog.ts) turns it into the newest state of each
 * player the client holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbShipState, arbSlot, arbU32 } from '../../support/wireArbitraries';
import { decodePacket, encodePacket, PacketType } from '../../../src/shared/wire';
import { RelayBundle, relayedPartialBytes, relayedStateBytes } from '../../../src/shared/wire/relayBundle';
import { quantiseState, type StateBases } from '../../../src/shared/wire/shipStateCodec';
import { RelayedStates } from '../../../src/shared/net/relayedStates';
import { RelayLog } from '../../../src/node/servers/game/relayLog';
import type { PacketHeader, ShipState } from '../../../src/shared/wire';

const inner = (slot: number, messageId: number, state: ShipState): PacketHeader => ({ type: PacketType.GameState, senderSlot: slot, messageId, gameTime: 7, joined: true, state });

/** A Relay of the server's carrying `events` (encoded relayed events). */
function relay(id: number, events: Uint8Array[]): Uint8Array {
  const b = new RelayBundle();
  b.begin(id, 1, 2);
  for (const e of events) b.add(e);
  return Uint8Array.from(b.finish());
}

const basesOf = (r: RelayedStates): StateBases => ({ at: () => undefined, relayed: (slot) => r.bases(slot) });

describe('a relayed state written partial', () => {
  it('decodes from the kept base to exactly the state its full event gives (any two states, any distance 1..16)', () => {
    fc.assert(
      fc.property(arbSlot, arbU32, fc.integer({ min: 1, max: 16 }), arbShipState, arbShipState, (slot, id, distance, baseState, state) => {
        const baseId = (id - distance) >>> 0;
        const client = new RelayedStates();
        // The client took the base (decoded from its full event), then gets the new state built on it.
        const first = decodePacket(relay(10, [relayedStateBytes(inner(slot, baseId, baseState))]));
        if (!first.ok) throw new Error(first.reason);
        client.took(10, first.packet.events);
        const full = decodePacket(relay(11, [relayedStateBytes(inner(slot, id, state))]));
        let partialBytes: Uint8Array;
        try {
          partialBytes = relayedPartialBytes(inner(slot, id, state), { distance, sent: quantiseState(baseState) });
        } catch {
          // Moved farther than a partial state can say: the server sends it full.
          return;
        }
        const partial = decodePacket(relay(11, [partialBytes]), basesOf(client));
        expect(partial.ok && full.ok && partial.packet.events).toEqual(full.ok && full.packet.events);
        // Against a client holding no base of that player: dropped with the reason.
        const stranger = decodePacket(relay(11, [partialBytes]), basesOf(new RelayedStates()));
        expect(stranger.ok ? 'accepted' : stranger.reason).toBe('unknown-base');
      }),
      { numRuns: 500 },
    );
  });

  it('a Relay carrying one partial and one full state is the same datagram the codec writes, but for the portions', () => {
    const s: ShipState = { pos: { x: 10, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -40 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 };
    const moved = { ...s, pos: { x: 10, y: 0, z: -2 } };
    const bytes = relayedPartialBytes(inner(3, 100, moved), { distance: 1, sent: quantiseState(s) });
    // Event code 11, payload 26, slot 3, inner 23: the 10-byte base, time, portions 0x21, distance 1, the change (0, 0, −16 eighths), the terminator.
    expect([...bytes]).toEqual([11, 0, 26, 3, 0, 23, 0x53, 0x4c, 15, PacketType.GameState, 3, 0x19, 0, 0, 0, 100, 0, 0, 0, 7, 0x21, 1, 0, 0, 0, 0, 0xff, 0xf0, 0]);
    const relayed = decodePacket(relay(5, [bytes, relayedStateBytes(inner(4, 9, s))]), { at: () => undefined, relayed: (slot) => (slot === 3 ? { at: (id) => (id === 99 ? s : undefined) } : undefined) });
    expect(relayed.ok && relayed.packet.events.map((e) => e.type === 'relayed' && e.packet.header.state?.pos)).toEqual([moved.pos, s.pos]);
    // The codec's own Relay of the two full states is 22 bytes longer: a full state is 30 bytes, this partial 8.
    expect(encodePacket({ header: { type: PacketType.Relay, senderSlot: 255, messageId: 5, gameTime: 1, token: 2, joined: false }, events: [{ type: 'relayed', slot: 3, packet: { header: inner(3, 100, moved), events: [] } }, { type: 'relayed', slot: 4, packet: { header: inner(4, 9, s), events: [] } }] }).length - relay(5, [bytes, relayedStateBytes(inner(4, 9, s))]).length).toBe(22);
  });
});

describe("a client's acknowledgement of Relays", () => {
  it('names the newest Relay taken and which of the 32 before it came, in any order of arrival', () => {
    fc.assert(
      fc.property(arbU32, fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 41 }), (start, offsets) => {
        const r = new RelayedStates();
        for (const k of offsets) r.took((start + k) >>> 0, []);
        const newest = Math.max(...offsets);
        const ack = r.ack();
        expect(ack?.newest).toBe(((start + newest) >>> 0) & 0xffff);
        for (let i = 0; i < 32; i++) expect(((ack?.mask ?? 0) >>> i) & 1).toBe(offsets.includes(newest - 1 - i) ? 1 : 0);
      }),
    );
  });
});

describe("the server's log of its Relays to one client", () => {
  it('turns an acknowledgement into the newest state of each player the client holds, each Relay once, and a slot taken over by another seat starts afresh', () => {
    const log = new RelayLog();
    log.begin(1000);
    log.add(3, 77, 50);
    log.add(4, 78, 9);
    log.end();
    log.begin(1001);
    log.add(3, 77, 51);
    log.end();
    log.begin(1002);
    log.add(3, 77, 52);
    log.end();
    expect(log.ackedOf(3, 77)).toBe(-1);
    // The client took 1000 and 1002, not 1001: newest 1002, mask bit 1 (1002 − 1 − 1 = 1000).
    log.acknowledge({ newest: 1002 & 0xffff, mask: 0b10 });
    expect(log.ackedOf(3, 77)).toBe(52);
    expect(log.ackedOf(4, 78)).toBe(9);
    expect(log.acknowledged).toBe(2);
    // The same acknowledgement again changes nothing and counts nothing; a late one for 1001 does not go back.
    log.acknowledge({ newest: 1002 & 0xffff, mask: 0b10 });
    log.acknowledge({ newest: 1001 & 0xffff, mask: 0 });
    expect(log.ackedOf(3, 77)).toBe(52);
    expect(log.acknowledged).toBe(3);
    // Another seat in slot 4 holds nothing the client acknowledged of the one before; Relays never sent are no acknowledgement.
    expect(log.ackedOf(4, 79)).toBe(-1);
    log.acknowledge({ newest: 5, mask: 0xffffffff });
    expect(log.acknowledged).toBe(3);
  });
});
