/**
 * The session's one outgoing path: every game datagram is measured once
 * (its header once, each event object once however many peers it goes to,
 * the link's envelopes when the link picks them) and encoded once, and game
 * events and link envelopes share one 512-byte budget per target.
 */
import { describe, expect, it } from 'vitest';
import type { NodeAddress, PacketApi, PacketApiOptions, ReceivedPacket } from '../../../src/shared/net/packetApi';
import { wireDatagramCodec, type DatagramCodec } from '../../../src/shared/session/datagram';
import { isTimeDatagram } from '../../../src/shared/time';
import { WireTap } from '../../support/wireTap';
import { PacketType, type RemoteEvent } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { flyingShip, p2pNode, runUntil } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

/** The real codec, counting its calls. */
function countingCodec() {
  const counts = { baseSize: 0, encode: 0 };
  const measured = new Map<RemoteEvent, number>();
  const codec: DatagramCodec = {
    baseSize: (h) => (counts.baseSize++, wireDatagramCodec.baseSize(h)),
    eventSize: (e) => (measured.set(e, (measured.get(e) ?? 0) + 1), wireDatagramCodec.eventSize(e)),
    encode: (p, size, base) => (counts.encode++, wireDatagramCodec.encode(p, size, base)),
  };
  return { codec, counts, measured };
}

/** A packet API that records every game datagram handed to it (time-sync datagrams are not game datagrams). */
class Recording implements PacketApi {
  readonly sent: Uint8Array[] = [];
  /** Each datagram's destination (its node key), for reading partial ship states per flow. */
  readonly to: string[] = [];
  constructor(private readonly inner: PacketApi) {}
  get name() {
    return this.inner.name;
  }
  get active() {
    return this.inner.active;
  }
  init = (o: PacketApiOptions) => this.inner.init(o);
  kill = () => this.inner.kill();
  localNode = () => this.inner.localNode();
  localPort = () => this.inner.localPort();
  send(to: NodeAddress, data: Uint8Array): void {
    if (!isTimeDatagram(data)) {
      this.sent.push(data);
      this.to.push(this.inner.nodeKey(to));
    }
    this.inner.send(to, data);
  }
  broadcast = (port: number, data: Uint8Array) => this.inner.broadcast(port, data);
  onPacket = (h: (p: ReceivedPacket) => void) => this.inner.onPacket(h);
  resolve = (host: string, port: number) => this.inner.resolve(host, port);
  nodeEquals = (a: NodeAddress, b: NodeAddress) => this.inner.nodeEquals(a, b);
  nodeKey = (n: NodeAddress) => this.inner.nodeKey(n);
  nodeToString = (n: NodeAddress) => this.inner.nodeToString(n);
  encodeNode = (n: NodeAddress) => this.inner.encodeNode(n);
  decodeNode = (b: Uint8Array, s?: NodeAddress) => this.inner.decodeNode(b, s);
  stats = () => this.inner.stats();
}

describe('the outgoing path', () => {
  it('measures and encodes each datagram once; an event going to two peers is measured once', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    const counting = countingCodec();
    let recording: Recording | null = null;
    const a = p2pNode(net, clock, 'alpha', { codec: counting.codec, wrap: (api) => (recording = new Recording(api)) });
    const others = [p2pNode(net, clock, 'bravo', { clockOffset: 1_000 }), p2pNode(net, clock, 'charlie', { clockOffset: 2_000 })];
    const nodes = [a, ...others];
    clock.setInterval(() => nodes.forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
    for (const n of nodes) n.session.member.connect(n.game.now());
    runUntil(clock, 'all joined', () => nodes.every((n) => n.session.member.players().length === 3 && n.session.member.players().every((p) => p.joined)));
    const rec = recording as unknown as Recording;

    // From here on: lasers (game events), chat (reliable messages and acknowledgements) and states.
    rec.sent.length = 0;
    rec.to.length = 0;
    counting.counts.baseSize = 0;
    counting.counts.encode = 0;
    counting.measured.clear();
    for (let i = 0; i < 20; i++) {
      a.game.events.createLaser(i, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: -600 }, 40, a.game.now());
      if (i % 4 === 0) a.session.say(`chat ${i}`);
      // Bravo's lines make alpha owe acknowledgements, which ride in alpha's game states.
      if (i % 4 === 2) others[0]?.session.say(`reply ${i}`);
      clock.advance(25);
    }
    runUntil(clock, 'every laser and line at both peers, and acknowledged', () =>
      others.every((o) => o.game.of('event').filter((e) => e.event.type === 'createLaser').length === 20 && o.game.of('chat').length >= 5) && a.game.of('chat').length === 10 && a.session.links.pending === 0,
    );
    const datagrams = rec.sent.length;
    expect(datagrams).toBeGreaterThan(20);
    // One header measurement and one encode per datagram sent, nothing else.
    expect(counting.counts.encode).toBe(datagrams);
    expect(counting.counts.baseSize).toBe(datagrams);
    // Every event object was measured once, though each laser went to two peers.
    expect([...counting.measured.values()].every((n) => n === 1)).toBe(true);
    const lasersMeasured = [...counting.measured.keys()].filter((e) => e.type === 'createLaser').length;
    expect(lasersMeasured).toBe(20);

    // The bytes are the datagrams the codec would make, and envelopes rode in game states within 512 bytes.
    let piggybacked = 0;
    const tap = new WireTap();
    for (const [i, bytes] of rec.sent.entries()) {
      expect(bytes.length).toBeLessThanOrEqual(512);
      const d = tap.decode(rec.to[i] as string, bytes);
      expect(d.ok).toBe(true);
      if (d.ok && d.packet.header.type === PacketType.GameState && d.packet.link !== undefined) piggybacked += 1;
    }
    expect(piggybacked).toBeGreaterThan(0);
  });

  it('caches each member’s node address: no wire address is decoded per send', () => {
    const clock = new VirtualClock();
    const net = new MemoryNet(clock, 2);
    let decodes = 0;
    const counted = (api: PacketApi): PacketApi => {
      const decodeNode = api.decodeNode.bind(api);
      api.decodeNode = (b, s) => (decodes++, decodeNode(b, s));
      return api;
    };
    const a = p2pNode(net, clock, 'alpha', { wrap: counted });
    const b = p2pNode(net, clock, 'bravo', { clockOffset: 500 });
    clock.setInterval(() => [a, b].forEach((n, i) => (n.game.ship = flyingShip(30 * i, clock.now()))), 25);
    for (const n of [a, b]) n.session.member.connect(n.game.now());
    runUntil(clock, 'both joined', () => [a, b].every((n) => n.session.member.players().length === 2 && n.session.member.players().every((p) => p.joined)));
    const before = { decodes, sent: a.api.stats().packetsOut };
    clock.advance(5_000);
    const sent = a.api.stats().packetsOut - before.sent;
    expect(sent).toBeGreaterThan(20);
    expect(decodes - before.decodes).toBe(0);
  });
});
