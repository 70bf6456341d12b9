/**
 * No event from before a game reaches that game. A new player practises
 * offline for a minute against a skill-5 computer pilot (every weapon fired,
 * shot down several times: its own deaths are events too), then joins a network game in each of the five models — the real
 * GameDriver and ClientGame under the real session pipeline and membership,
 * on a memory LAN and a virtual clock. Every datagram the newcomer sends is
 * decoded: after the join it sends the laser it fires and the line it says,
 * and nothing of the practice — no laser, missile, mine, EMP, extra, kill or
 * chat typed offline. At a gameserver its states and lasers are judged the
 * way the server judges them (ClientGuard): no strike.
 */
import { describe, expect, it } from 'vitest';
import { ClientGuard } from '../../../src/node/servers/common/strikes';
import { stateVerdict } from '../../../src/node/servers/game/interest';
import { ReplayWindow } from '../../../src/shared/net/replayWindow';
import { GameDriver } from '../../../src/shared/protocol/gameDriver';
import { BotCrew } from '../../../src/shared/game/pilots/crew';
import type { ManagedPeer } from '../../../src/shared/session/managedPeer';
import type { NodeAddress, PacketApi } from '../../../src/shared/net/packetApi';
import type { P2pPeer } from '../../../src/shared/p2p';
import type { Membership } from '../../../src/shared/session/membership';
import { NO_INPUT, type ShipInput } from '../../../src/shared/sim/types';
import { spawnPoints } from '../../../src/shared/sim/spawn';
import { answerTimeRequest, isTimeDatagram } from '../../../src/shared/time';
import { decodePacket } from '../../../src/shared/wire/codec';
import { WireTap } from '../../support/wireTap';
import { PacketType, type RemoteEvent } from '../../../src/shared/wire/types';
import { MemoryNet } from '../../support/memoryNet';
import { managedNodeWith, p2pNode, p2pNodeWith, runUntil, seatAll, managedNode, type TestNode } from '../../support/sessionRig';
import { VirtualClock } from '../../support/virtualClock';

const PRACTICE_MS = 60_000;
const TOKEN = 0x7e57;
/** Events a player's words are made of; everything else is the world's. */
const WORDS = new Set<RemoteEvent['type']>(['sendText', 'playerName']);
/** The link layer's and the membership's own events and a lockstep game's protocol traffic: not game code's. */
const PLUMBING = new Set<RemoteEvent['type']>(['relayed', 'connectQueue', 'playerList', 'lockstepStatus', 'lockstepState']);
/** What the match authority says after it joined (the lowest slot, when no gameserver runs the match): the match now, the arena's extras. */
const AUTHORITY = new Set<RemoteEvent['type']>(['matchState', 'asteroidBreaks', 'createExtra']);

type Mode = 'practice' | 'idle' | 'fire';

/** The newcomer: a real GameDriver that practised offline, sitting still against a hunt pilot, every weapon in turn. */
function practised(clock: VirtualClock) {
  const crew = new BotCrew(7);
  const control = { mode: 'practice' as Mode, tick: 0 };
  const firedKinds = new Set<string>();
  let deaths = 0;
  const input = (): ShipInput => {
    const t = ++control.tick;
    if (control.mode === 'idle') return NO_INPUT;
    if (control.mode === 'fire') return { ...NO_INPUT, fire: t % 4 === 0 };
    // The EMP first, at full energy; then lasers (3 a second less than the energy allows), missiles and mines.
    return { ...NO_INPUT, emp: t === 5, fire: t > 40 && t % 8 === 0, missile: t % 80 === 10, mine: t % 120 === 30 };
  };
  const driver = new GameDriver({
    clock,
    playerName: () => 'rookie',
    sendFrequency: () => 20,
    autoJoin: () => true,
    input,
    botInputs: (game) => crew.inputs(game),
    onTick: (game, notices) => {
      for (const o of game.curr.objects) if (o.owner === game.localSlot && ['laser', 'missile', 'mine', 'emp'].includes(o.kind)) firedKinds.add(o.kind);
      deaths += notices.filter((n) => n.type === 'destroyed' && n.local).length;
    },
  });
  // One hunter: it has nobody but us to hunt.
  crew.add(driver.game.addBot() as number, 5);
  driver.start();
  clock.advance(PRACTICE_MS);
  control.mode = 'idle';
  return { driver, control, firedKinds, deaths: () => deaths };
}

/** Every game event in the datagrams an end sends, reliable messages unwrapped. */
class Outgoing {
  readonly events: { at: number; event: RemoteEvent }[] = [];
  private readonly tap = new WireTap();
  constructor(private readonly clock: VirtualClock) {}

  readonly wrap = (api: PacketApi): PacketApi => {
    const send = (to: NodeAddress, data: Uint8Array) => {
      this.read(api.nodeKey(to), data);
      return api.send(to, data);
    };
    return new Proxy(api, {
      get: (target, key) => {
        if (key === 'send') return send;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  private read(to: string, data: Uint8Array): void {
    if (isTimeDatagram(data)) return;
    const decoded = this.tap.decode(to, data);
    if (!decoded.ok) return;
    for (const event of [...(decoded.packet.link?.messages ?? []).map((m) => m.event), ...decoded.packet.events]) {
      if (!PLUMBING.has(event.type)) this.events.push({ at: this.clock.now(), event });
    }
  }

  /** The distinct events of the world (not words), by type and object id, in order. */
  world(): RemoteEvent[] {
    const seen = new Set<string>();
    return this.events.flatMap(({ event }) => {
      if (WORDS.has(event.type)) return [];
      const key = JSON.stringify(event);
      if (seen.has(key)) return [];
      seen.add(key);
      return [event];
    });
  }

  texts(): string[] {
    return [...new Set(this.events.flatMap(({ event }) => (event.type === 'sendText' ? [event.text] : [])))];
  }
}

/** A stand-in gameserver (or netgame server) UDP port: time sync answered, every GameState judged as the gameserver's ClientGuard judges it. */
function judgingServer(clock: VirtualClock, net: MemoryNet) {
  const end = net.add();
  const guard = new ClientGuard(spawnPoints(), { limit: 10, windowMs: 10_000 }, 0);
  const ids = new ReplayWindow();
  const out = { violations: [] as string[], kicks: [] as string[], states: 0 };
  end.onPacket(({ from, data }) => {
    if (isTimeDatagram(data)) {
      const answer = answerTimeRequest(data, clock.now());
      if (answer) end.send(from, answer);
      return;
    }
    const decoded = decodePacket(data);
    if (!decoded.ok || decoded.packet.header.type !== PacketType.GameState) return;
    const verdict = stateVerdict(ids.admit(decoded.packet.header.messageId));
    if (verdict !== 'newest' && verdict !== 'late') return;
    if (verdict === 'newest') out.states++;
    const v = guard.check(decoded.packet, verdict === 'newest', clock.now());
    out.violations.push(...v.violations.map((x) => `${x.kind}: ${x.detail}`));
    if (v.kick) out.kicks.push(v.kick);
  });
  return { addr: end.encodeNode(end.localNode()), out };
}

const inGame = (n: TestNode<Membership, GameDriver>) => {
  const m = n.session.member;
  return m.state === 'connected' && m.players().some((p) => p.slot === m.slot() && p.joined);
};

interface Joined {
  clock: VirtualClock;
  newcomer: TestNode<Membership, GameDriver>;
  sent: Outgoing;
  practice: ReturnType<typeof practised>;
  /** Our own objects' highest id when our ship entered the game (anything at or below it is from before). */
  idAtJoin: number;
  /** What the other side judged (a gameserver's strikes), when there is a judge. */
  judged?: { violations: string[]; kicks: string[]; states: number };
}

type Model = 'p2p' | 'slotserver' | 'gameserver' | 'lockstep' | 'netgame';

/** Practise, then join a game of `model`, then fire a few lasers and say a line. */
function practiseThenJoin(model: Model): Joined {
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 5);
  const practice = practised(clock);
  const sent = new Outgoing(clock);
  const game = () => practice.driver;
  let newcomer: TestNode<Membership, GameDriver>;
  let judged: Joined['judged'];
  if (model === 'p2p' || model === 'lockstep') {
    const lockstep = model === 'lockstep';
    const veteran = p2pNode(net, clock, 'veteran', { lockstep });
    veteran.session.member.connect(clock.now());
    runUntil(clock, 'the veteran started the game', () => veteran.session.member.state === 'connected');
    const node: TestNode<P2pPeer, GameDriver> = p2pNodeWith(net, clock, 'rookie', game, { wrap: sent.wrap, lockstep });
    expect(node.session.say('typed while offline')).toBe('not-connected');
    node.session.member.connect(clock.now());
    newcomer = node;
  } else if (model === 'slotserver') {
    const veteran = managedNode(net, clock, 'veteran');
    const node: TestNode<ManagedPeer, GameDriver> = managedNodeWith(net, clock, 'rookie', game, { wrap: sent.wrap });
    expect(node.session.say('typed while offline')).toBe('not-connected');
    seatAll([veteran, node]);
    veteran.session.requestJoin();
    node.session.deliverPlayers();
    node.session.requestJoin();
    newcomer = node;
  } else {
    // What serverClient does on a gameserver's (or netgame server's) accept line: relay through it, synchronise with it.
    const server = judgingServer(clock, net);
    if (model === 'gameserver') judged = server.out;
    const node: TestNode<ManagedPeer, GameDriver> = managedNodeWith(net, clock, 'rookie', game, { wrap: sent.wrap, proveAddresses: false, ...(model === 'netgame' ? { shipStates: false } : {}) });
    expect(node.session.say('typed while offline')).toBe('not-connected');
    node.session.member.adopt(0, { server: server.addr, token: TOKEN });
    node.session.clock.source = () => server.addr;
    node.session.deliverPlayers();
    node.session.requestJoin();
    newcomer = node;
  }
  runUntil(clock, 'the newcomer joined', () => inGame(newcomer));
  const game0 = practice.driver.game;
  const idAtJoin = Math.max(0, ...game0.curr.objects.filter((o) => o.owner === game0.localSlot).map((o) => o.id), game0.curr.nextId - 1);
  clock.advance(1_000);
  practice.control.mode = 'fire';
  clock.advance(1_000);
  practice.control.mode = 'idle';
  newcomer.session.say('hello after joining');
  clock.advance(13_000);
  return { clock, newcomer, sent, practice, idAtJoin, ...(judged ? { judged } : {}) };
}

function expectPractice(j: Joined): void {
  expect([...j.practice.firedKinds].sort()).toEqual(['emp', 'laser', 'mine', 'missile']);
  expect(j.practice.driver.events.refusedCount).toBeGreaterThan(0);
  expect(j.practice.deaths()).toBeGreaterThan(0);
}

function report(model: Model, j: Joined): void {
  const world = j.sent.world();
  const kinds = [...new Set(world.map((e) => e.type))].join(', ') || 'none';
  const judge = j.judged ? `; judged like the gameserver: ${j.judged.states} states, ${j.judged.violations.length} violations, ${j.judged.kicks.length} kicks` : '';
  console.log(
    `${model}: practised ${PRACTICE_MS / 1000} s (${[...j.practice.firedKinds].join(', ')}; shot down ${j.practice.deaths()}×; ${j.practice.driver.events.refusedCount} events never queued), then joined: world events sent ${world.length} (${kinds}); lines said ${JSON.stringify(j.sent.texts())}${judge}`,
  );
}

describe('practise offline, then join: nothing from the practice reaches the game', () => {
  for (const model of ['p2p', 'slotserver', 'gameserver'] as const) {
    it(`${model}: only the lasers fired after joining and the line said after joining go out`, () => {
      const j = practiseThenJoin(model);
      report(model, j);
      expectPractice(j);
      const world = j.sent.world();
      // Lasers (nothing else was fired after joining) and, from the match authority, its word on the match and the arena's new extras.
      expect(world.some((e) => e.type === 'createLaser')).toBe(true);
      for (const e of world) {
        expect(e.type === 'createLaser' || AUTHORITY.has(e.type), `${e.type} sent`).toBe(true);
        // Every object made after the join: ids only grow, and the practice's are at or below the join's.
        if ('id' in e) expect(e.id & 0xffff).toBeGreaterThan(j.idAtJoin);
      }
      expect(j.sent.texts()).toEqual(['hello after joining']);
      if (j.judged) {
        expect(j.judged.states).toBeGreaterThan(0);
        expect(j.judged.violations).toEqual([]);
        expect(j.judged.kicks).toEqual([]);
      }
    });
  }

  for (const model of ['lockstep', 'netgame'] as const) {
    it(`${model}: no Parsec world event at all goes out (the world is shared), and the line said after joining does`, () => {
      const j = practiseThenJoin(model);
      report(model, j);
      expectPractice(j);
      expect(j.sent.world()).toEqual([]);
      expect(j.sent.texts()).toEqual(['hello after joining']);
    });
  }
});
