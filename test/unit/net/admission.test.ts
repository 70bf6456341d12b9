import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitDatagram, pass, refuse, type AdmissionRules, type Refusal } from '../../../src/shared/net/admission';
import { Connection } from '../../../src/shared/net/connection';
import { DropCounters, encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type Packet } from '../../../src/shared/wire/types';

const datagram = (type: PacketType, messageId: number, senderSlot = 1): Uint8Array => encodePacket({ header: { type, senderSlot, messageId, joined: true }, events: [] } as Packet);

/** A side of the ladder as the tests configure it: senders by slot, each with a connection; every rung it climbs and every refusal counted. */
function side(opts: { slots?: number[]; types?: number[] } = {}) {
  const connections = new Map((opts.slots ?? [1]).map((slot) => [slot, new Connection(0)]));
  const climbed: string[] = [];
  const refusals: string[] = [];
  const rules: AdmissionRules<Connection, 'newest' | 'late'> = {
    codecDrops: new DropCounters(),
    sender: (packet: Packet) => {
      climbed.push('sender');
      const c = connections.get(packet.header.senderSlot);
      return c ? pass(c) : refuse('unknown-sender');
    },
    ...(opts.types ? { types: { allowed: new Set(opts.types), drop: 'wrong-type' } } : {}),
    sequence: (c: Connection, packet: Packet) => {
      climbed.push('sequence');
      const seq = c.admit(packet.header.messageId);
      return seq.verdict === 'newest' || seq.verdict === 'late' ? pass(seq.verdict) : refuse('replayed');
    },
    body: (_c: Connection, packet: Packet) => {
      climbed.push('body');
      return packet.header.type === PacketType.Disconnect ? refuse('no-body', true) : null;
    },
    refused: (r: Refusal) => refusals.push(r.reason),
  };
  return { rules, climbed, refusals };
}

describe('the one admission ladder (clients and servers alike)', () => {
  it('a datagram climbs decode, sender, type, sequence and body in that order, and comes out with its sender and place', () => {
    const s = side({ types: [PacketType.GameState, PacketType.Disconnect] });
    const a = admitDatagram(datagram(PacketType.GameState, 10), s.rules);
    expect(a.ok && { seq: a.seq, type: a.packet.header.type }).toEqual({ seq: 'newest', type: PacketType.GameState });
    expect(s.climbed).toEqual(['sender', 'sequence', 'body']);
    const late = admitDatagram(datagram(PacketType.GameState, 8), s.rules);
    expect(late.ok && late.seq).toBe('late');
  });

  it('the first rung that refuses names the drop, is counted once, and nothing above it runs', () => {
    const s = side({ types: [PacketType.GameState] });
    expect(admitDatagram(datagram(PacketType.GameState, 1, 7), s.rules)).toEqual({ ok: false, reason: 'unknown-sender', excused: false });
    expect(admitDatagram(datagram(PacketType.NodeAlive, 2), s.rules)).toEqual({ ok: false, reason: 'wrong-type', excused: false });
    expect(s.climbed).toEqual(['sender', 'sender']);
    // A type refused takes no number: the same number in an allowed type is still new.
    expect(admitDatagram(datagram(PacketType.GameState, 2), s.rules).ok).toBe(true);
    expect(admitDatagram(datagram(PacketType.GameState, 2), s.rules)).toEqual({ ok: false, reason: 'replayed', excused: false });
    expect(s.refusals).toEqual(['unknown-sender', 'wrong-type', 'replayed']);
  });

  it('a body refusal may excuse its source, and a side without a type list takes every type', () => {
    const s = side();
    expect(admitDatagram(datagram(PacketType.Disconnect, 5), s.rules)).toEqual({ ok: false, reason: 'no-body', excused: true });
    expect(admitDatagram(datagram(PacketType.NodeAlive, 6), s.rules).ok).toBe(true);
  });

  it('bytes that do not decode are counted by the codec\'s reason and never thrown; the side hears of each', () => {
    const s = side();
    const heard: string[] = [];
    s.rules.undecodable = (reason) => heard.push(reason);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const a = admitDatagram(bytes, s.rules);
        return a.ok || typeof a.reason === 'string';
      }),
      { numRuns: 2000 },
    );
    expect(s.rules.codecDrops.total).toBe(heard.length);
    expect(heard.length).toBeGreaterThan(1900);
    expect(s.refusals.length + s.rules.codecDrops.total).toBeLessThanOrEqual(2000);
  });
});
