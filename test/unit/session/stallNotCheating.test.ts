/**
 * A stall is not cheating. A client session flies its ship at nearly top
 * speed on a memory LAN and a virtual clock, and its states are judged the
 * way a gameserver judges them (the server's ClientGuard behind its id
 * window, the server's clock being the common game time) and the way a peer
 * in a slotserver game judges them (the session's own PeerPlausibility).
 * Stalls of 2, 5 and 8 s (the silence timeout is 10 s) — the gameserver
 * frozen, the client's uplink held — deliver seconds of flight in one burst;
 * the states' game times say how far apart they were flown, so nobody is
 * kicked or hidden. A real teleport is still caught, and a stamp from the
 * future buys no travel.
 */
import { sequenceStart } from '../../../src/shared/net/replayWindow';
import { describe, expect, it } from 'vitest';
import { stateVerdict } from '../../../src/node/servers/game/interest';
import { ReplayWindow } from '../../../src/shared/net/replayWindow';
import { ClientGuard } from '../../../src/node/servers/common/strikes';
import { MAX_SPEED } from '../../../src/shared/game/kinds/ship';
import type { ManagedPeer } from '../../../src/shared/session/managedPeer';
import { spawnPoints } from '../../../src/shared/sim/spawn';
import { answerTimeRequest, isTimeDatagram } from '../../../src/shared/time';
import { decodePacket, encodePacket } from '../../../src/shared/wire/codec';
import { PacketType, type Packet, type ShipState } from '../../../src/shared/wire/types';
import { HeldUplink } from '../../support/heldLink';
import { MemoryNet } from '../../support/memoryNet';
import { managedNode, runUntil, seatAll, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const SPEED = 0.95 * MAX_SPEED;
const TOKEN = 0x5a11;
/** The gameserver's defaults: 10 strikes within 10 s drop a player. */
const POLICY = { limit: 10, windowMs: 10_000 };
const STALLS_MS = [2_000, 5_000, 8_000];

/** A ship at top speed along −Z since virtual time 0 (far from every spawn point: x = 500), `jump` units off its course. */
function ship(t: number, jump = 0): ShipState {
  return { pos: { x: 500 + jump, y: 0, z: -SPEED * (t / 1000) }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -SPEED }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 };
}

/**
 * The gameserver's UDP port as far as one client's ship goes: time-sync
 * requests answered with the server clock (the common game time), every
 * GameState through the seat's id window and ClientGuard as GameDatagrams
 * does. `freeze` holds everything that arrives (a stopped process); `thaw`
 * reads it all at the time it resumes.
 */
class GuardedServer {
  readonly guard = new ClientGuard(spawnPoints(), POLICY, 0);
  readonly ids = new ReplayWindow();
  readonly kicks: string[] = [];
  readonly violations: string[] = [];
  states = 0;
  private frozen: { data: Uint8Array; reply: (b: Uint8Array) => void }[] | null = null;

  constructor(private readonly clock: VirtualClock) {}

  offer(data: Uint8Array, reply: (b: Uint8Array) => void): void {
    if (this.frozen) this.frozen.push({ data, reply });
    else this.read(data, reply);
  }

  freeze(): void {
    this.frozen = [];
  }

  /** Reads what waited; returns how many ship states were in the burst. */
  thaw(): number {
    const waiting = this.frozen ?? [];
    this.frozen = null;
    const before = this.states;
    for (const d of waiting) this.read(d.data, d.reply);
    return this.states - before;
  }

  private read(data: Uint8Array, reply: (b: Uint8Array) => void): void {
    const now = this.clock.now();
    if (isTimeDatagram(data)) {
      const answer = answerTimeRequest(data, now);
      if (answer) reply(answer);
      return;
    }
    const decoded = decodePacket(data);
    if (!decoded.ok || decoded.packet.header.type !== PacketType.GameState || this.kicks.length > 0) return;
    const verdict = stateVerdict(this.ids.admit(decoded.packet.header.messageId));
    if (verdict !== 'newest' && verdict !== 'late') return;
    if (verdict === 'newest') this.states += 1;
    const v = this.guard.check(decoded.packet, verdict === 'newest', now);
    this.violations.push(...v.violations.map((x) => `${x.kind}: ${x.detail}`));
    if (v.kick) this.kicks.push(v.kick);
  }
}

interface Rig {
  clock: VirtualClock;
  flyer: TestNode<ManagedPeer>;
  server: GuardedServer;
  uplink: HeldUplink;
  /** Units the flyer's reported position is off its course from now on. */
  jump: { units: number };
}

/** A client joined at a gameserver (its host clock 7.7 s off the server's), flying. */
function gameserverRig(): Rig {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 5);
  const serverEnd = net.add();
  const server = new GuardedServer(clock);
  serverEnd.onPacket(({ from, data }) => server.offer(data, (b) => serverEnd.send(from, b)));
  const uplink = new HeldUplink();
  const flyer = managedNode(net, clock, 'flyer', { clockOffset: 7_700, wrap: uplink.wrap, proveAddresses: false });
  const jump = { units: 0 };
  clock.setInterval(() => (flyer.game.ship = ship(clock.now(), jump.units)), 10);
  const serverAddr = serverEnd.encodeNode(serverEnd.localNode());
  // What serverClient does on the accept line: relay through the server, which is also the time source.
  flyer.session.member.adopt(0, { server: serverAddr, token: TOKEN });
  flyer.session.clock.source = () => serverAddr;
  flyer.session.requestJoin();
  runUntil(clock, 'the flyer joined and the server took its states', () => server.states >= 5);
  return { clock, flyer, server, uplink, jump };
}

describe('a stall is not cheating: the gameserver', () => {
  for (const stallMs of STALLS_MS) {
    it(`kicks nobody when it was frozen for ${stallMs / 1000} s, or the client's uplink was held that long`, () => {
      const { clock, server, uplink } = gameserverRig();
      clock.advance(2_000);
      server.freeze();
      clock.advance(stallMs);
      const frozenBurst = server.thaw();
      clock.advance(2_000);
      uplink.hold();
      clock.advance(stallMs);
      uplink.release();
      const before = server.states;
      runUntil(clock, 'the held states read', () => server.states > before);
      const heldBurst = server.states - before;
      clock.advance(2_000);
      console.log(`gameserver, stall ${stallMs} ms: server frozen → ${frozenBurst} states in one burst; uplink held → ${uplink.released} datagrams released; kicked: ${server.kicks.length === 0 ? 'nobody' : server.kicks.join('; ')}`);
      expect(frozenBurst).toBeGreaterThanOrEqual(stallMs / 500);
      expect(heldBurst).toBeGreaterThanOrEqual(1);
      expect(uplink.released).toBeGreaterThanOrEqual(stallMs / 500);
      expect(server.violations).toEqual([]);
      expect(server.kicks).toEqual([]);
    });
  }

  it('still kicks a real teleport, stall or not', () => {
    const { clock, server, jump } = gameserverRig();
    server.freeze();
    clock.advance(5_000);
    server.thaw();
    jump.units = 4_000;
    runUntil(clock, 'the teleport caught', () => server.kicks.length > 0);
    console.log(`gameserver, a 4,000-unit jump after a 5 s stall: kicked: ${server.kicks[0]}`);
    expect(server.kicks[0]).toMatch(/teleport/);
  });

  it('a stamp from the future buys no travel: the jump it would cover is still a teleport', () => {
    const { clock, server, flyer } = gameserverRig();
    const common = flyer.session.clock.commonTime(flyer.game.now());
    // A forged state stamped 60 s ahead, 60 s of top-speed flight further on (with a fresh sequence number, so it is no replay).
    const fresh = (sequenceStart(Math.floor(Date.now() / 1000)) + 1_000_000) >>> 0;
    const forged: Packet = {
      header: { type: PacketType.GameState, senderSlot: 0, messageId: fresh, gameTime: Math.floor(common + 60_000) >>> 0, joined: true, state: ship(clock.now() + 60_000), token: TOKEN },
      events: [],
    };
    server.offer(encodePacket(forged), () => undefined);
    expect(server.violations.some((v) => v.startsWith('teleport'))).toBe(true);
  });
});

describe('a stall is not cheating: a peer in a slotserver game', () => {
  for (const stallMs of STALLS_MS) {
    it(`hides nothing when the other's uplink was held for ${stallMs / 1000} s`, () => {
      const clock = new VirtualClock();
      const net = new MemoryNet(clock, 5);
      const uplink = new HeldUplink();
      const flyer = managedNode(net, clock, 'flyer', { wrap: uplink.wrap, clockOffset: 3_300 });
      const watcher = managedNode(net, clock, 'watcher');
      const jump = { units: 0 };
      clock.setInterval(() => (flyer.game.ship = ship(clock.now(), jump.units)), 10);
      seatAll([watcher, flyer]);
      watcher.session.requestJoin();
      flyer.session.requestJoin();
      const seen = () => watcher.game.of('state').filter((d) => d.slot === 1).length;
      runUntil(clock, 'the watcher sees the flyer', () => seen() >= 5, 10_000);
      uplink.hold();
      clock.advance(stallMs);
      const before = seen();
      uplink.release();
      runUntil(clock, 'the burst shown', () => seen() > before);
      clock.advance(1_000);
      const counts = watcher.session.plausibility.counts;
      console.log(`slotserver peer, uplink held ${stallMs} ms: ${uplink.released} datagrams released; ${seen() - before} states shown since; clamped ${counts.corrected}, hidden ${counts.ignored}`);
      expect(counts).toEqual({ corrected: 0, ignored: 0 });
      // Beyond blatantFactor × the travel reserve (10 × 200 units/s × 2 s): hidden, not merely clamped.
      jump.units = 10_000;
      const hiddenBefore = counts.ignored;
      runUntil(clock, 'the teleport hidden', () => watcher.session.plausibility.counts.ignored > hiddenBefore);
    });
  }
});
