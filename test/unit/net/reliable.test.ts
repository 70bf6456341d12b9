/**
 * Reliable out-of-order messages (src/shared/net/reliable.ts) over a link
 * conditioned by the game's own link conditioner, seeded, on a virtual clock:
 * every datagram goes through the real wire codec, 20 % are lost, 10 %
 * duplicated and 10 % held back so later ones overtake them, each way.
 */
import { describe, expect, it } from 'vitest';
import { giveUpAfterMs, RELIABLE_DEFAULTS, ReliableLink } from '../../../src/shared/net/reliable';
import { decodePacket, encodePacket, HEADER_SIZE, TERMINATOR_SIZE } from '../../../src/shared/wire/codec';
import { ackSize, LINK_SECTION_OVERHEAD, messageSize, sectionOf } from '../../../src/shared/net/linkLayer';
import { MAX_DATAGRAM_BYTES } from '../../../src/shared/net/packetApi';
import { PacketType, type Packet, type ReliableGameEvent } from '../../../src/shared/wire/types';
import { ConditionedPacketApi } from '../../../src/shared/net/conditionedPacketApi';
import { NO_CONDITIONS } from '../../../src/shared/net/linkConditions';
import type { PacketApi } from '../../../src/shared/net/packetApi';
import { MemoryNet } from '../../support/memoryNet';
import { VirtualClock } from '../../support/virtualClock';


interface End {
  link: ReliableLink<ReliableGameEvent>;
  delivered: string[];
  /** A crashed end neither sends nor receives. */
  mute: boolean;
}

/**
 * Two ends joined by an in-memory wire whose end `a` is wrapped in the
 * game's own link conditioner (`net_fake*`) on a virtual clock, so every
 * datagram either way is lost, duplicated, delayed (40 ± 20 ms) and held back
 * as the conditions say. Each end sends at most one datagram per 50 ms tick.
 */
function conditionedPair(seed: number, conditions = { lossPct: 20, dupPct: 10, reorderPct: 10 }) {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 1);
  const [wireA, wireB] = [net.add(), net.add()];
  const peerOf = (api: PacketApi) => (api === apiA ? wireB : wireA).localNode();
  const apiA = new ConditionedPacketApi(wireA, { conditions: () => ({ ...NO_CONDITIONS, lagMs: 40, jitterMs: 20, ...conditions }), seed, timers: clock });
  const ends = [apiA, wireB].map((api, i): End & { api: PacketApi } => ({
    api,
    link: new ReliableLink<ReliableGameEvent>(messageSize, (seed * 7919 + i * 40503) & 0xffff),
    delivered: [],
    mute: false,
  })) as unknown as [End & { api: PacketApi }, End & { api: PacketApi }];

  let offered = 0;
  const send = (from: End & { api: PacketApi }) => {
    if (from.mute || !from.link.wantsSend(clock.now())) return;
    offered += 1;
    const budget = MAX_DATAGRAM_BYTES - HEADER_SIZE - TERMINATOR_SIZE - LINK_SECTION_OVERHEAD;
    const take = from.link.take(clock.now(), budget, ackSize);
    const packet: Packet = {
      header: { type: PacketType.Reliable, senderSlot: 0, messageId: 0, gameTime: Math.floor(clock.now()), joined: false, state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 0, damage: 0 } },
      events: [],
    };
    const link = sectionOf(take.acks, take.messages.map((m) => ({ id: m.id, event: m.message, size: m.size })))?.link;
    if (link) packet.link = link;
    from.api.send(peerOf(from.api), encodePacket(packet));
  };

  for (const to of ends) {
    to.api.onPacket(({ data }) => {
      if (to.mute) return;
      const r = decodePacket(data);
      if (!r.ok) throw new Error(`codec refused its own datagram: ${r.reason}`);
      const link = r.packet.link ?? {};
      if (link.acks) to.link.onAcks(link.acks, clock.now());
      for (const ev of link.messages ?? []) if (to.link.onMessage(ev.id, clock.now()) && ev.event.type === 'sendText') to.delivered.push(ev.event.text);
    });
  }

  return {
    ends,
    get stats() {
      const c = apiA.counters();
      return { datagrams: offered, lost: c.lostOut + c.lostIn, duplicated: c.duplicatedOut + c.duplicatedIn, reordered: c.reorderedOut + c.reorderedIn };
    },
    get now() {
      return clock.now();
    },
    /** Advances the clock by 50 ms (datagrams due arrive on the way), then each end sends at most one. */
    tick() {
      clock.advance(50);
      send(ends[0]);
      send(ends[1]);
    },
    idle: () => clock.pending === 0 && ends.every((e) => e.link.pending === 0),
  };
}

describe('reliable messages', () => {
  it('delivers 10,000 messages exactly once each over a link with 20 % loss, 10 % duplication and reordering', () => {
    const net = conditionedPair(20261122);
    const [a, b] = net.ends;
    const total = 10_000;
    let queued = 0;
    let arrivedOutOfOrder = 0;
    // 100 messages/s for 100 s: well within what the window carries on this link, so nothing overflows the queue.
    while (queued < total || !net.idle()) {
      for (let i = 0; i < 5 && queued < total; i++) a.link.queue({ type: 'sendText', text: `m${queued++}` }, net.now);
      const before = b.delivered.length;
      net.tick();
      for (let i = Math.max(1, before); i < b.delivered.length; i++) if (Number(b.delivered[i]?.slice(1)) < Number(b.delivered[i - 1]?.slice(1))) arrivedOutOfOrder += 1;
      expect(a.link.check(net.now), 'the link failed').toBeNull();
      if (net.now > 600_000) throw new Error('did not drain within 10 virtual minutes');
    }
    const seen = new Set(b.delivered);
    expect(a.link.counters.overflow).toBe(0);
    expect(b.delivered.length).toBe(total);
    expect(seen.size).toBe(total);
    for (let i = 0; i < total; i++) expect(seen.has(`m${i}`)).toBe(true);
    // The link really was bad: losses, duplicates and overtaking all happened, and were repaired.
    expect(net.stats.lost / net.stats.datagrams).toBeGreaterThan(0.15);
    expect(net.stats.duplicated).toBeGreaterThan(0);
    expect(arrivedOutOfOrder).toBeGreaterThan(0);
    expect(b.link.counters.duplicates).toBeGreaterThan(0);
    expect(a.link.counters.resent).toBeGreaterThan(0);
    console.log(
      `reliable: ${total} messages over ${(net.now / 1000).toFixed(1)} s virtual, ${net.stats.datagrams} datagrams (${net.stats.lost} lost, ${net.stats.duplicated} duplicated, ${net.stats.reordered} held back), ` +
        `${a.link.counters.resent} resends, ${b.link.counters.duplicates} duplicates discarded, ${arrivedOutOfOrder} delivered out of order, 0 lost`,
    );
  });

  it('declares the peer gone after the documented number of sends when it stops acknowledging', () => {
    const net = conditionedPair(7, { lossPct: 0, dupPct: 0, reorderPct: 0 });
    const [a, b] = net.ends;
    a.link.queue({ type: 'sendText', text: 'are you there?' }, net.now);
    for (let i = 0; i < 8; i++) net.tick();
    expect(a.link.pending).toBe(0); // acknowledged while b listens
    b.mute = true;
    const sentAt = net.now;
    const sendsBefore = a.link.counters.sent + a.link.counters.resent;
    a.link.queue({ type: 'killObject', id: 0x10000, killerSlot: 1 }, net.now);
    let failure: string | null = null;
    while (failure === null && net.now < sentAt + 60_000) {
      net.tick();
      failure = a.link.check(net.now);
    }
    expect(failure).toMatch(new RegExp(`no acknowledgement after ${RELIABLE_DEFAULTS.maxSends} sends`));
    expect(a.link.counters.sent + a.link.counters.resent - sendsBefore).toBe(RELIABLE_DEFAULTS.maxSends);
    // Declared within a few ticks of the documented give-up time (10.4 s with the defaults on a fast link; here the
    // first resend waits 1.5 measured round trips + 40 ms if that is longer than 200 ms).
    const first = Math.max(RELIABLE_DEFAULTS.firstResendMs, 1.5 * (a.link.roundTripMs ?? 0) + RELIABLE_DEFAULTS.ackDelayMs);
    expect(net.now - sentAt).toBeGreaterThanOrEqual(giveUpAfterMs(RELIABLE_DEFAULTS, first));
    expect(net.now - sentAt).toBeLessThanOrEqual(giveUpAfterMs(RELIABLE_DEFAULTS, first) + 150); // ticks are 50 ms
    console.log(`reliable: peer declared gone after ${RELIABLE_DEFAULTS.maxSends} sends, ${((net.now - sentAt) / 1000).toFixed(1)} s after the message was queued (${failure})`);
    expect(a.link.wantsSend(net.now)).toBe(false);
  });

  it('a newer name supersedes an older one still in flight; only the newest arrives once the link recovers', () => {
    const net = conditionedPair(3, { lossPct: 0, dupPct: 0, reorderPct: 0 });
    const [a, b] = net.ends;
    b.mute = true;
    a.link.queue({ type: 'playerName', name: 'Ann' }, net.now, 'name');
    net.tick(); // sent, and lost on the muted end
    net.tick();
    net.tick();
    a.link.queue({ type: 'playerName', name: 'Annie' }, net.now, 'name');
    b.mute = false;
    for (let i = 0; i < 10; i++) net.tick();
    expect(a.link.counters.superseded).toBe(1);
    expect(a.link.pending).toBe(0);
    expect(b.link.counters.delivered).toBe(1);
    expect(a.link.check(net.now)).toBeNull();
  });
});
