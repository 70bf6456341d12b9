/**
 * One scripted duel played in process, on a memory LAN and a virtual clock,
 * through the link conditioner, to count whether the shooter's screen and the
 * victim's game agree on hits (bench/hits.ts).
 *
 * Two players, each the real GameDriver + ClientGame (its own ship simulated,
 * the other's a replica from its states, the other's shots simulated from
 * their creation events and moved on by their age) under the real
 * SessionPipeline and membership (sessionRig.ts): P2pPeer for `p2p`,
 * ManagedPeer peer to peer for `slotserver`, ManagedPeer relayed through the
 * real forwarding core for `gameserver` (memoryGameserver.ts says what stands
 * in for its socket and TCP join). The slotserver's own part in a game is its
 * slot table and its time port: the table is handed out as seatAll does, the
 * time port is a memory end answering time-sync requests. Each player is
 * flown by the hunt pilot (pilots/hunt.ts) at `skill`; matches have no limits.
 *
 * The link: each player's packet API is wrapped in the game's
 * ConditionedPacketApi on the virtual clock, delaying every datagram lagMs / 2
 * each way and losing it with the chance that makes player-to-player loss
 * `lossPct` over the two conditioned hops (its own end and the other's), so
 * a datagram from one player's game to the other's takes lagMs one way and is
 * lost lossPct % of the time, directly (p2p, slotserver) or through the
 * gameserver (whose own end is clean). Every round trip is symmetric, so the
 * clock sync is not skewed by the conditioning.
 *
 * Counting, per shooter and shot (a laser bolt or missile, named by owner
 * slot and 16-bit id as the wire names it):
 * - seen: ShotWatch (src/shared/game/shotWatch.ts) on the shooter's own world
 *   views, tick by tick, as the shooter's HUD sees it;
 * - counted: the victim's game applied the shot to its ship (a `hit` event of
 *   its own slot whose object is that shot: stepWorld decides hits on our
 *   ship only, so this is the deciding game's word);
 * - the marker's verdict: the HitLedger (src/shared/game/hitLedger.ts) run on
 *   the shooter's views as the host runs it for the HUD — confirmed by the
 *   victim's report of the shot (hitReports.ts), withdrawn without one.
 *   (When a report comes before the shooter's screen has seen the hit, the
 *   shooter's game drops its spent shot, so a few shots the victim counted may
 *   never be seen hitting: they count as missed by the shooter, as on screen.)
 * Only shots fired inside the counting window (after both ships joined and
 * `warmupMs`, up to `seconds`) count; the duel then runs `tailMs` more so
 * every such shot has landed or expired on both sides.
 */
import { GameDriver } from '../../src/shared/protocol/gameDriver';
import type { KillCause } from '../../src/shared/game/clientTypes';
import { ClientGame } from '../../src/shared/game/clientGame';
import { createHuntMemory, huntInput } from '../../src/shared/game/pilots/hunt';
import { HitLedger, type HitVerdict } from '../../src/shared/game/hitLedger';
import type { SeenHit } from '../../src/shared/game/shotWatch';
import { worldView } from '../../src/shared/game/view';
import { ConditionedPacketApi } from '../../src/shared/net/conditionedPacketApi';
import type { PacketApi } from '../../src/shared/net/packetApi';
import { answerTimeRequest, isTimeDatagram } from '../../src/shared/time';
import { MemoryGameserver } from './memoryGameserver';
import { MemoryNet } from './memoryNet';
import { managedNodeWith, p2pNodeWith, seatAll } from './sessionRig';
import { VirtualClock } from './virtualClock';

export type HitProtocol = 'p2p' | 'slotserver' | 'gameserver';

export interface HitDuelOptions {
  protocol: HitProtocol;
  /** One-way delay from one player's game to the other's, ms. */
  lagMs: number;
  /** Datagrams lost from one player's game to the other's, %. */
  lossPct: number;
  seed: number;
  /** Virtual seconds of the counting window's end (from the start of the duel). */
  seconds: number;
  /** Skill of both hunt pilots (1–5). */
  skill?: number;
  /** Counting starts this long after both ships joined, ms. */
  warmupMs?: number;
  /** Play on after the window so its last shots land, ms. */
  tailMs?: number;
}

/** What one duel (or several, added up) counted. */
export interface HitTally {
  /** Shots the shooter's screen showed hitting the other ship. */
  seen: number;
  /** Of those, the ones the victim's game counted too. */
  seenAndCounted: number;
  /** Shots the victim's game counted on its ship. */
  counted: number;
  /** Of those, the ones the shooter's screen showed as misses. */
  countedNotSeen: number;
  /** Seen hits whose marker ended confirmed (HitLedger, on the victim's report). */
  markerConfirmed: number;
  /** Seen hits whose marker's last verdict disagrees with the victim's game (confirmed but not counted, withdrawn but counted, or none). */
  markerWrong: number;
  /** Shots fired inside the window (lasers and missiles, both players). */
  fired: number;
  /** Strikes the gameserver counted against the players (0 in the other protocols). */
  strikes: number;
  /** Virtual seconds counted. */
  seconds: number;
  /** Deaths the victim's own game decided (a weapon named), from the start to the counting window's end. */
  kills: number;
  /** Of those, the ones the other player's game showed with the same weapon (the killObject's cause, wire v9). */
  killsNamed: number;
}

export const emptyTally = (): HitTally => ({ seen: 0, seenAndCounted: 0, counted: 0, countedNotSeen: 0, markerConfirmed: 0, markerWrong: 0, fired: 0, strikes: 0, seconds: 0, kills: 0, killsNamed: 0 });

export function addTally(a: HitTally, b: HitTally): HitTally {
  const out = emptyTally();
  for (const k of Object.keys(out) as (keyof HitTally)[]) out[k] = a[k] + b[k];
  return out;
}

/** A shot as the wire names it: kind, owner slot, 16-bit id. */
const shotName = (kind: string, owner: number, id: number): string => `${kind}${owner}:${id & 0xffff}`;
/** ShotWatch's key (`<kind><owner>:<id>`) as the wire names the shot. */
const wireName = (key: string): string => {
  const m = /^([a-z]+)(\d+):(\d+)$/.exec(key);
  return m ? shotName(m[1]!, Number(m[2]), Number(m[3])) : key;
};

/** One player: its game, and what it fired, saw and counted. */
interface Player {
  driver: GameDriver;
  fired: Set<string>;
  seen: Set<string>;
  /** Shots of the other player this game applied to its own ship. */
  counted: Set<string>;
  /** The hit marker's last verdict per seen shot (HitLedger). */
  verdicts: Map<string, HitVerdict['state']>;
  /** Our ship's deaths as our game decided them, with the weapon, in order. */
  deaths: KillCause[];
  /** The other ship's deaths as our game showed them (the weapon its game named, or none), in order. */
  shown: (KillCause | undefined)[];
}

/** Slot of a player's game in the game it joined (null before). */
const slotOf = (p: Player): number | null => (p.driver.game.curr.ships.some((s) => s.slot !== p.driver.game.localSlot) ? p.driver.game.localSlot : null);

/** Steps of the virtual clock between two turns of the event loop (the gameserver relays on arrival with setImmediate). */
const STEP_MS = 2;

export async function runHitDuel(o: HitDuelOptions): Promise<HitTally> {
  const skill = o.skill ?? 5;
  const warmupMs = o.warmupMs ?? 2000;
  const tailMs = o.tailMs ?? 8000;
  const clock = new VirtualClock();
  const net = new MemoryNet(clock, 1);
  const hopLoss = 100 * (1 - Math.sqrt(1 - o.lossPct / 100));
  let linkSeed = o.seed * 7 + 1;
  const wrap = (api: PacketApi): PacketApi =>
    new ConditionedPacketApi(api, { conditions: () => ({ lagMs: o.lagMs / 2, jitterMs: 0, lossPct: hopLoss, dupPct: 0, reorderPct: 0 }), seed: linkSeed++, timers: clock });
  /** Counting: on (set once both joined and warmed up) until the window ends. */
  const window = { from: Infinity, to: o.seconds * 1000 };
  const players: Player[] = [];
  const makeGame = (name: string, index: number) => () => {
    const memory = createHuntMemory(o.seed * 2 + index);
    const ledger = new HitLedger();
    const p: Player = { driver: null as unknown as GameDriver, fired: new Set(), seen: new Set(), counted: new Set(), verdicts: new Map(), deaths: [], shown: [] };
    p.driver = new GameDriver({
      // The rig's host clocks have no offset here: the node's host clock is the virtual clock.
      clock,
      game: new ClientGame({ match: { killLimit: 0, timeLimitS: 0 } }),
      playerName: () => name,
      sendFrequency: () => 20,
      autoJoin: () => true,
      input: (game) => huntInput(game.curr, game.localSlot, memory, skill),
      onTick: (game, notices) => {
        const us = game.localSlot;
        for (const n of notices) {
          if (n.type !== 'destroyed') continue;
          // Deaths up to the window's end: the tail gives their announcements time to arrive.
          if (n.local && n.cause !== undefined && clock.now() < window.to) p.deaths.push(n.cause);
          else if (!n.local) p.shown.push(n.cause);
        }
        const counting = clock.now() >= window.from && clock.now() < window.to && slotOf(p) !== null;
        for (const e of game.events) {
          if (counting && e.type === 'fired' && e.slot === us && (e.kind === 'laser' || e.kind === 'missile')) p.fired.add(shotName(e.kind, us, e.id));
          // The deciding game's word: a shot of the other player applied to our ship.
          if (e.type === 'hit' && e.slot === us && e.by !== us && e.id !== undefined && (e.cause === 'laser' || e.cause === 'missile')) p.counted.add(shotName(e.cause, e.by, e.id));
        }
        // What the shooter's HUD does (hostGame.ts): ShotWatch's hits, then the deciding game's verdicts on them.
        const seen: SeenHit[] = [];
        for (const v of ledger.tick(worldView(game), game, clock.now(), seen)) p.verdicts.set(wireName(v.key), v.state);
        for (const hit of seen) p.seen.add(wireName(hit.key));
      },
    });
    players[index] = p;
    p.driver.start();
    return p.driver;
  };

  const nodes: { stop(): void }[] = [];
  let server: MemoryGameserver | null = null;
  if (o.protocol === 'p2p') {
    const a = p2pNodeWith(net, clock, 'alpha', makeGame('alpha', 0), { wrap, seed: o.seed * 3 + 1 });
    a.session.member.connect(clock.now());
    await runFor(clock, () => a.session.member.state === 'connected', 10_000, 'alpha started the game');
    const b = p2pNodeWith(net, clock, 'bravo', makeGame('bravo', 1), { wrap, seed: o.seed * 3 + 2 });
    b.session.member.connect(clock.now());
    nodes.push(a, b);
  } else if (o.protocol === 'slotserver') {
    const time = net.add();
    time.onPacket(({ from, data }) => {
      if (!isTimeDatagram(data)) return;
      const answer = answerTimeRequest(data, clock.now());
      if (answer) time.send(from, answer);
    });
    const timeAddr = time.encodeNode(time.localNode());
    const a = managedNodeWith(net, clock, 'alpha', makeGame('alpha', 0), { wrap, seed: o.seed * 3 + 1 });
    const b = managedNodeWith(net, clock, 'bravo', makeGame('bravo', 1), { wrap, seed: o.seed * 3 + 2 });
    seatAll([a, b]);
    for (const n of [a, b]) {
      n.session.clock.source = () => timeAddr;
      n.session.deliverPlayers();
      n.session.requestJoin();
    }
    nodes.push(a, b);
  } else {
    server = new MemoryGameserver(net, clock, { killLimit: 0, timeLimitS: 0 });
    const s = server;
    const a = managedNodeWith(net, clock, 'alpha', makeGame('alpha', 0), { wrap, proveAddresses: false, seed: o.seed * 3 + 1 });
    const b = managedNodeWith(net, clock, 'bravo', makeGame('bravo', 1), { wrap, proveAddresses: false, seed: o.seed * 3 + 2 });
    [a, b].forEach((n, i) => {
      n.session.member.adopt(i, s.seat(i, n.api, n.game.playerName()));
      n.session.clock.source = () => s.address;
    });
    // What the server's `add` lines tell each of the other (the address is the player's; relayed, nothing goes there).
    a.session.member.add(1, b.api.encodeNode(b.api.localNode()), 'bravo');
    b.session.member.add(0, a.api.encodeNode(a.api.localNode()), 'alpha');
    for (const n of [a, b]) {
      n.session.deliverPlayers();
      n.session.requestJoin();
    }
    nodes.push(a, b);
  }
  await runFor(clock, () => players.length === 2 && players.every((p) => slotOf(p) !== null), 20_000, 'both ships in one game');
  window.from = clock.now() + warmupMs;
  window.to = Math.max(window.to, window.from + 1000);
  const secondsCounted = (window.to - window.from) / 1000;
  await runFor(clock, () => clock.now() >= window.to + tailMs, Infinity, 'the duel');
  for (const n of nodes) n.stop();
  for (const p of players) p.driver.stop();
  server?.close();
  if (server && server.kicked.length > 0) throw new Error(`the gameserver dropped a player: ${JSON.stringify(server.kicked)}`);

  const t = emptyTally();
  t.seconds = secondsCounted;
  if (server) t.strikes = Object.values(server.strikes()).reduce((a, b) => a + b, 0);
  players.forEach((shooter, i) => {
    const victim = players[1 - i]!;
    t.kills += victim.deaths.length;
    t.killsNamed += victim.deaths.filter((cause, k) => shooter.shown[k] === cause).length;
    t.fired += shooter.fired.size;
    for (const shot of shooter.seen) {
      if (!shooter.fired.has(shot)) continue;
      t.seen++;
      const counted = victim.counted.has(shot);
      if (counted) t.seenAndCounted++;
      const verdict = shooter.verdicts.get(shot);
      if (verdict === 'confirmed') t.markerConfirmed++;
      if (verdict !== (counted ? 'confirmed' : 'withdrawn')) t.markerWrong++;
    }
    for (const shot of victim.counted) {
      if (!shooter.fired.has(shot)) continue;
      t.counted++;
      if (!shooter.seen.has(shot)) t.countedNotSeen++;
    }
  });
  return t;
}

/** Advances the virtual clock until `done`, letting the event loop turn every STEP_MS (the gameserver's arrival flush). */
async function runFor(clock: VirtualClock, done: () => boolean, maxMs: number, what: string): Promise<void> {
  const start = clock.now();
  while (!done()) {
    if (clock.now() - start > maxMs) throw new Error(`not within ${maxMs} ms of virtual time: ${what}`);
    clock.advance(STEP_MS);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
