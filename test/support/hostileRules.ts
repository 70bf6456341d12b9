/**
 * Cheating with the rules of a match, against a real gameserver process
 * (out/main/server.js): scripted cheaters play alongside honest scripted
 * players, and the server's rule guard (src/node/servers/game/ruleGuard.ts,
 * weaponGuard.ts, hitConfirm.ts; far pickups in forwarder.ts) must stop each
 * one — its events not forwarded to the honest player — and strike it, while
 * the honest players collect no strike:
 * (a) missiles without ammunition: more than RULES.missile.startAmmo in one life;
 * (b) mines at ten times the allowed rate;
 * (c) a kill it did not make: its own death credited to a friend who never fired;
 * (d) hits it ignores: parked while an honest shooter's laser bolts (level 3,
 *     at the gun's cooldown) fly straight through it, reporting damage 0;
 * and with `pickupsAndArms` (the bench's run; the integration test runs
 * without, so its game is the one it always asserted on):
 * (e) extras picked up from afar: claims of the server's own extras (the
 *     gameserver owns the arena: it spawns them, one every
 *     RULES.extras.spawnEveryTicks, and decides every claim) from a ship
 *     nowhere near them;
 * plus an armed honest player who fires its start ammunition of missiles and
 * mines at the cooldowns, then flies to one of the server's extras (slower
 * than the ship's cap) and picks it up there, all of which must get through.
 *
 * Shared by test/soak/hostileWeapons.test.ts (which asserts on the
 * result) and `npm run bench:hostile -- --rule-cheaters` (which prints the
 * figures against their targets, hostileRuleFigures.ts). Attackers are paced
 * in real time (their rate is the attack); every check waits for what the
 * server reports, never for a fixed time. A wait that runs out is recorded in
 * `timeouts` (the figures are still taken) so the bench can report a miss;
 * the test asserts there is none.
 */
import { RULES } from '../../src/shared/game/rules';
import { MAX_SPEED } from '../../src/shared/game/kinds/ship';
import { STEP_MS, type Vec3 } from '../../src/shared/sim/types';
import { NO_SLOT, objectId, PacketType, type LinkSection, type RemoteEvent, type ShipState } from '../../src/shared/wire/types';
import { GameClient, shipAt } from './gameClient';
import type { ServerProcess } from './serverProcess';
import { waitFor } from './waitFor';

export interface RuleCheatOptions {
  /** Also (e) the far-pickup cheater and the armed honest player (default false): start the gameserver with {@link PICKUPS_AND_ARMS_SERVER_ARGS}. */
  pickupsAndArms?: boolean;
}

/** With pickupsAndArms nine players join from 127.0.0.1, one more than a gameserver seats from one address by default. */
export const PICKUPS_AND_ARMS_SERVER_ARGS: readonly string[] = ['--max-per-address', '9'];

/** Extras the far-pickup cheater claims from afar (each a live one of the server's, none the armed player's). */
export const FAR_CLAIMS = 3;
/** How fast the armed player flies to its extra: below the ship's cap without the afterburner (units/s). */
const TRIP_SPEED = 0.8 * MAX_SPEED;
/** How long a wait for the server's next extra may take: ten spawn intervals (a spawn point inside an asteroid skips one). */
const EXTRA_WAIT_MS = 10 * RULES.extras.spawnEveryTicks * STEP_MS;

/** The gameserver's status JSON, the parts read here. */
export interface RuleStatus {
  strikes: Record<string, number>;
  kicked: number;
  players: { name: string; slot: number; strikes: number }[];
}

/** What one cheater or honest player sent and what became of it. */
export interface RulePlayer {
  name: string;
  /** Events of its cheat (or honest use) sent, and how many of them the honest observer received (of pickup claims: the server's word that it got the extra). */
  sent: number;
  received: number;
  /** Its `removed: …` line from the server, if it was dropped. */
  removed?: string;
}

export interface RuleCheatResult {
  /** The server's status after the last cheat was struck. */
  final: RuleStatus;
  /** Waits that ran out (none in a good run). */
  timeouts: string[];
  /** (a)–(d), and (e) with pickupsAndArms. */
  missiles: RulePlayer;
  mines: RulePlayer;
  claim: RulePlayer;
  parked: RulePlayer;
  pickup?: RulePlayer;
  /** The honest players' names (the observer, the shooter, the friend; the armed one with pickupsAndArms). */
  honestNames: string[];
  /** Bolts the shooter fired (`sent`) and the observer got; states likewise. */
  bolts: { sent: number; received: number };
  shooterStates: { sent: number; received: number };
  /** The armed honest player's missiles, mines and pickup claims (pickupsAndArms); pickups received: the server's word to the observer that it got the extra. */
  armed?: { missiles: { sent: number; received: number }; mines: { sent: number; received: number }; pickups: { sent: number; received: number } };
  /** States each player sent. */
  statesSent: Record<string, number>;
}

const status = async (http: number): Promise<RuleStatus> => (await (await fetch(`http://127.0.0.1:${http}/status.json`, { signal: AbortSignal.timeout(5000) })).json()) as RuleStatus;

/** Every event `c` was relayed from `slot`, reliable messages unwrapped. */
function eventsFrom(c: GameClient, slot: number): RemoteEvent[] {
  const out: RemoteEvent[] = [];
  for (const r of c.relayed()) if (r.slot === slot) out.push(...(r.packet.link?.messages ?? []).map((m) => m.event), ...r.packet.events);
  return out;
}
const statesFrom = (c: GameClient, slot: number) => c.relayed().filter((r) => r.slot === slot && r.packet.header.type === PacketType.GameState).length;
const removedLine = (c: GameClient) => c.tcp.lines.find((l) => l.startsWith('removed: '));
/** The server's extras `c` has heard of and not heard gone (taken or expired): wire id → where it lies, in the order they came. */
function liveExtras(c: GameClient): Map<number, Vec3> {
  const live = new Map<number, Vec3>();
  for (const e of c.serverMessages()) {
    if (e.type === 'createExtra') live.set(e.id, e.pos);
    else if (e.type === 'killObject') live.delete(e.id);
  }
  return live;
}
/** How many of the server's extras `c` heard went to `slot`. */
const grantedTo = (c: GameClient, slot: number) => c.serverMessages().filter((e) => e.type === 'killObject' && e.killerSlot === slot).length;

/** Runs the cheaters and honest players on gameserver `server` (a process with an HTTP status port); every client is closed when it returns. */
export async function runRuleCheaters(server: ServerProcess, o: RuleCheatOptions = {}): Promise<RuleCheatResult> {
  const http = server.http;
  if (http === undefined) throw new Error('rule cheaters: the gameserver needs an HTTP status port (--http-port)');
  const clients: GameClient[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  const timeouts: string[] = [];
  /** A wait whose running out is a figure (recorded), not an error. */
  const soft = async <T>(what: string, check: () => T | false | null | undefined | Promise<T | false | null | undefined>, ms: number, pollMs?: number): Promise<T | undefined> =>
    waitFor(what, check, ms, pollMs).catch((err: unknown) => {
      timeouts.push((err as Error).message);
      return undefined;
    });
  /** Sends `c`'s state at `pos` (or the state `pos()` gives) every 50 ms (20 Hz, a player's rate), with whatever `events()` has queued; counts what it sent. */
  const fly = (c: GameClient, pos: Vec3 | (() => ShipState), events: () => RemoteEvent[] = () => []): { sent: number } => {
    const n = { sent: 0 };
    timers.push(
      setInterval(() => {
        if (typeof pos === 'function') c.sendRaw(c.packet({ state: pos(), events: events() }));
        else c.sendState(pos, events());
        n.sent += 1;
      }, 50),
    );
    return n;
  };
  /** The attacker pacing itself: waits `ms` of real time. */
  const pace = async (what: string, ms: number, pollMs: number) => {
    const due = performance.now() + ms;
    await waitFor(what, () => performance.now() >= due, 5000, pollMs);
  };
  try {
    const join = async (name: string) => {
      const c = await GameClient.join({ tcpPort: server.tcp, name });
      clients.push(c);
      c.hello();
      return c;
    };
    const honest = await join('honest');
    const shooter = await join('honest-shooter');
    const friend = await join('honest-friend');
    const missiler = await join('cheat-missiles');
    const miner = await join('cheat-mines');
    const claimer = await join('cheat-claim');
    const parked = await join('cheat-parked');
    const armed = o.pickupsAndArms ? await join('honest-armed') : undefined;
    const picker = o.pickupsAndArms ? await join('cheat-pickup') : undefined;
    const at = {
      honest: { x: 0, y: 0, z: 0 },
      shooter: { x: 300, y: 0, z: -400 },
      friend: { x: -300, y: 0, z: 0 },
      missiler: { x: 0, y: 200, z: 0 },
      miner: { x: 0, y: -200, z: 0 },
      claimer: { x: -300, y: 200, z: 0 },
      parked: { x: 300, y: 0, z: 0 },
      // Clear of every path: its missiles fly on along −Z, away from everyone, and nobody's weapon comes near it.
      armed: { x: 0, y: 0, z: -600 },
      picker: { x: -300, y: -200, z: 0 },
    };
    // The shooter fires a level-3 shot (three bolts, boltSpacing apart) at the parked cheater every cooldown and a bit.
    let shots = 0;
    let shooting = false;
    const bolts = (): RemoteEvent[] => {
      if (!shooting) return [];
      shots += 1;
      return [-1, 0, 1].map((k, i) => ({ type: 'createLaser', id: objectId(shooter.slot, (shots * 3 + i) & 0xffff), pos: { x: at.shooter.x + k * RULES.laser.boltSpacing, y: 0, z: at.shooter.z + 8 }, vel: { x: 0, y: 0, z: 700 }, ttl: RULES.laser.ttlTicks }));
    };
    const flights: Record<string, { sent: number }> = {
      honest: fly(honest, at.honest),
      friend: fly(friend, at.friend),
      missiler: fly(missiler, at.missiler),
      miner: fly(miner, at.miner),
      claimer: fly(claimer, at.claimer),
      parked: fly(parked, at.parked),
    };
    /** The armed player's trip to its extra (none: at its station), at TRIP_SPEED; `arrived` once a state there went out. */
    let trip: { from: Vec3; to: Vec3; t0: number; arrived: boolean } | undefined;
    const armedState = (): ShipState => {
      if (!trip) return shipAt(at.armed);
      const d = { x: trip.to.x - trip.from.x, y: trip.to.y - trip.from.y, z: trip.to.z - trip.from.z };
      const length = Math.hypot(d.x, d.y, d.z);
      const k = length === 0 ? 1 : Math.min(1, (TRIP_SPEED * (performance.now() - trip.t0)) / 1000 / length);
      if (k === 1) trip.arrived = true;
      const v = k === 1 || length === 0 ? 0 : TRIP_SPEED / length;
      return { ...shipAt({ x: trip.from.x + d.x * k, y: trip.from.y + d.y * k, z: trip.from.z + d.z * k }), vel: { x: d.x * v, y: d.y * v, z: d.z * v } };
    };
    if (armed && picker) {
      flights.armed = fly(armed, armedState);
      flights.picker = fly(picker, at.picker);
    }
    // Shots every 200 ms (the cooldown is 150 ms): every fourth state of a 50 ms stream.
    let tick = 0;
    const shooterFlight = fly(shooter, at.shooter, () => (tick++ % 4 === 0 ? bolts() : []));
    const others = [shooter, friend, missiler, miner, claimer, parked, ...(armed && picker ? [armed, picker] : [])];
    await waitFor('the honest player to hear every other', () => others.every((c) => statesFrom(honest, c.slot) > 0), 20_000);
    shooting = true;

    // (e) and the armed honest player, alongside (a)–(c): the server lays its extras (one every spawn interval);
    // the armed player takes the first it hears of, flying there to claim it; the picker claims the next ones from afar.
    const armedSent = { missiles: 0, mines: 0, pickups: 0 };
    let pickerSent = 0;
    let armedTarget: number | undefined;
    const claim = (c: GameClient, extra: number, n: number): LinkSection => ({ messages: [{ id: n, event: { type: 'killObject', id: extra, killerSlot: c.slot } }] });
    const farClaims = async (p: GameClient) => {
      const claimed = new Set<number>();
      for (let n = 1; n <= FAR_CLAIMS; n++) {
        const next = () => armedTarget !== undefined && [...liveExtras(p).keys()].find((id) => id !== armedTarget && !claimed.has(id));
        const id = await soft(`extra ${n} of ${FAR_CLAIMS} for the picker to claim from afar`, next, EXTRA_WAIT_MS);
        if (id === undefined) return;
        claimed.add(id);
        p.sendRaw(p.packet({ pos: at.picker, link: claim(p, id, n) }));
        pickerSent += 1;
      }
      await soft('the far-pickup strikes', async () => ((await status(http)).strikes['far-pickup'] ?? 0) >= pickerSent, 5000);
    };
    const armedPlay = async (a: GameClient) => {
      const first = await soft("the server's first extra at the armed player", () => liveExtras(a).entries().next().value, EXTRA_WAIT_MS);
      armedTarget = first?.[0];
      // The armed player's start ammunition, each a cooldown and a bit after the last: everything the rules allow.
      for (let k = 0; k < RULES.missile.startAmmo; k++) {
        if (k > 0) await pace('the launcher cooldown (an honest player waiting for it)', RULES.missile.cooldownTicks * STEP_MS + 100, 10);
        a.sendState(at.armed, [{ type: 'createMissile', id: objectId(a.slot, 100 + k), pos: { x: at.armed.x, y: at.armed.y, z: at.armed.z - 8 }, vel: { x: 0, y: 0, z: -300 }, targetSlot: NO_SLOT, ttl: RULES.missile.ttlTicks }]);
        armedSent.missiles += 1;
      }
      for (let k = 0; k < RULES.mine.startAmmo; k++) {
        await pace('the mine cooldown (an honest player waiting for it)', RULES.mine.cooldownTicks * STEP_MS + 100, 10);
        a.sendState(at.armed, [{ type: 'createObject', id: objectId(a.slot, 200 + k), kind: 1, pos: { x: at.armed.x, y: at.armed.y, z: at.armed.z + 10 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } }]);
        armedSent.mines += 1;
      }
      if (!first) return;
      // Then to the extra, at a speed its ship flies, and the claim from beside it.
      const [id, where] = first;
      trip = { from: at.armed, to: where, t0: performance.now(), arrived: false };
      const tripMs = (1000 * Math.hypot(where.x - at.armed.x, where.y - at.armed.y, where.z - at.armed.z)) / TRIP_SPEED;
      if (!(await soft('the armed player beside its extra', () => trip?.arrived, tripMs + 5000))) return;
      a.sendRaw(a.packet({ state: armedState(), link: claim(a, id, 1) }));
      armedSent.pickups += 1;
      await soft('the server giving the armed player its extra', () => grantedTo(a, a.slot) > 0, 5000);
    };
    const sideShow: Promise<void> = armed && picker ? Promise.all([armedPlay(armed), farClaims(picker)]).then(() => undefined) : Promise.resolve();
    // Awaited after the strikes; until then a failure must not go unhandled.
    sideShow.catch(() => undefined);

    // (a) Three missiles at once (the life's ammunition), then three more, each after the launcher's cooldown.
    const missile = (k: number): RemoteEvent => ({ type: 'createMissile', id: objectId(missiler.slot, 100 + k), pos: { x: 0, y: 200, z: -8 }, vel: { x: 0, y: 0, z: -300 }, targetSlot: NO_SLOT, ttl: RULES.missile.ttlTicks });
    missiler.sendState(at.missiler, [missile(0), missile(1), missile(2)]);
    for (let k = 3; k < 6; k++) {
      await pace('the launcher cooldown (the attacker pacing itself)', RULES.missile.cooldownTicks * STEP_MS + 100, 10);
      missiler.sendState(at.missiler, [missile(k)]);
    }
    // (b) Twenty mines, one every 25 ms: ten times RULES.mine.cooldownTicks allows.
    let minesSent = 0;
    for (let k = 0; k < 20 && !miner.tcp.ended; k++) {
      miner.sendState(at.miner, [{ type: 'createObject', id: objectId(miner.slot, 200 + k), kind: 1, pos: { x: 0, y: -200, z: 10 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: 0 } }]);
      minesSent += 1;
      await pace('the next mine (the attacker pacing itself)', (RULES.mine.cooldownTicks * STEP_MS) / 10, 5);
    }
    // (c) Its own death, credited to a friend who never fired, as a reliable message.
    claimer.sendRaw(claimer.packet({ type: PacketType.Reliable, link: { messages: [{ id: 1, event: { type: 'killObject', id: objectId(claimer.slot, 0), killerSlot: friend.slot } }] } }));

    await soft('the missile, mine and kill-claim strikes', async () => {
      const s = await status(http);
      return (s.strikes['missile-ammo'] ?? 0) >= 3 && (s.strikes['mine-rate'] ?? 0) + (s.strikes['mine-ammo'] ?? 0) >= 10 && (s.strikes['false-kill-claim'] ?? 0) >= 1;
    }, 20_000);
    // (e) and the armed player, on the server's extras: done (their far-pickup strikes in) before the last status.
    await sideShow;
    // (d) The barrage goes on until the parked cheater has been struck for ignoring it twice (the first after the
    // spawn grace, the forgiven invulnerability window and a lethal batch beyond shield, hull, recharge and margin).
    const final =
      (await soft('two ignores-hits strikes', async () => {
        const s = await status(http);
        return (s.strikes['ignores-hits'] ?? 0) >= 2 ? s : null;
      }, 90_000, 250)) ?? (await status(http));
    shooting = false;

    const from = (c: GameClient, type: RemoteEvent['type']) => eventsFrom(honest, c.slot).filter((e) => e.type === type).length;
    let armedFigures: RuleCheatResult['armed'];
    if (armed) {
      const got = () => ({ missiles: from(armed, 'createMissile'), mines: from(armed, 'createObject'), pickups: grantedTo(honest, armed.slot) });
      await soft('the armed player\'s missiles, mines and pickup at the observer', () => {
        const g = got();
        return g.missiles >= armedSent.missiles && g.mines >= armedSent.mines && g.pickups >= armedSent.pickups;
      }, 5000);
      const g = got();
      armedFigures = { missiles: { sent: armedSent.missiles, received: g.missiles }, mines: { sent: armedSent.mines, received: g.mines }, pickups: { sent: armedSent.pickups, received: g.pickups } };
    }
    const result: RuleCheatResult = {
      final,
      timeouts,
      missiles: { name: 'cheat-missiles', sent: 6, received: from(missiler, 'createMissile') },
      mines: { name: 'cheat-mines', sent: minesSent, received: from(miner, 'createObject') },
      claim: { name: 'cheat-claim', sent: 1, received: from(claimer, 'killObject') },
      parked: { name: 'cheat-parked', sent: 0, received: 0 },
      ...(picker ? { pickup: { name: 'cheat-pickup', sent: pickerSent, received: grantedTo(honest, picker.slot) } } : {}),
      honestNames: ['honest', 'honest-shooter', 'honest-friend', ...(armed ? ['honest-armed'] : [])],
      bolts: { sent: shots * 3, received: from(shooter, 'createLaser') },
      shooterStates: { sent: shooterFlight.sent, received: statesFrom(honest, shooter.slot) },
      ...(armedFigures ? { armed: armedFigures } : {}),
      statesSent: Object.fromEntries(Object.entries(flights).map(([k, v]) => [k, v.sent])),
    };
    // The mine layer ran out of strikes: wait for its `removed:` line.
    await soft('the mine layer told it is removed', () => removedLine(miner) !== undefined, 10_000);
    const cheaters: [RulePlayer, GameClient][] = [[result.missiles, missiler], [result.mines, miner], [result.claim, claimer], [result.parked, parked], ...(result.pickup && picker ? [[result.pickup, picker] as [RulePlayer, GameClient]] : [])];
    for (const [p, c] of cheaters) {
      const why = removedLine(c);
      if (why !== undefined) p.removed = why;
    }
    return result;
  } finally {
    for (const t of timers.splice(0)) clearInterval(t);
    for (const c of clients.splice(0)) c.close();
  }
}
