/**
 * What the renderer draws of one tick: the world's ships, objects (each as its
 * kind's view) and asteroids, with our slot and respawn countdown. The host
 * sends one per tick; the renderer interpolates between the last two.
 */
import type { SystemView } from './systemEntry';
import type { ClientGame } from './clientGame';
import { kindOf, type ObjectView } from './registry';
import { TICK_HZ } from '../sim/types';
import { MATCH_PLAYING, type Quat, type Score, type Vec3 } from './types';
import type { PlayerPing } from '../net/gameLink';
import type { HitVerdict } from './hitLedger';
import type { WorldEvent } from './events';

export interface ShipView {
  slot: number;
  pos: Vec3;
  rot: Quat;
  vel: Vec3;
  energy: number;
  shield: number;
  damage: number;
  missiles: number;
  mines: number;
  laserLevel: number;
  /** Ticks of invulnerability left (0: none). */
  invulnerable: number;
}

export interface AsteroidView {
  id: number;
  pos: Vec3;
  rot: Quat;
  radius: number;
}

/** The match as the HUD shows it. */
export interface MatchView {
  /** MATCH_PLAYING or MATCH_OVER (types.ts). */
  phase: number;
  /** Whole seconds left: of the match while playing (null without a time limit), to the next match when over. */
  secondsLeft: number | null;
  killLimit: number;
  timeLimitS: number;
  round: number;
}

export interface WorldView {
  tick: number;
  /** Our slot: the ship the camera follows. */
  localSlot: number;
  /** Whole seconds until our ship respawns; null while it is alive. */
  respawnSeconds: number | null;
  ships: ShipView[];
  objects: ObjectView[];
  asteroids: AsteroidView[];
  /** Kills and deaths by slot, in slot order (the scoreboard sorts them with `ranking`). */
  scores: Score[];
  match: MatchView;
  /** Slots whose homing missiles are locked on our ship (the lock warning), ascending. */
  lockedBy: number[];
  /** Slots flown by computer pilots of this offline game (`bot add`), ascending. */
  bots: number[];
  /**
   * The players' round trips as this host knows them now, ascending slot,
   * whole ms; a slot without a figure is absent (the rule: `Protocol.playerPings`
   * in protocol/protocol.ts — offline, and so for bots, there are none).
   */
  pings: PlayerPing[];
  /**
   * The deciding game's verdicts on hits our screen saw (hitLedger.ts: confirmed,
   * or withdrawn), given this tick; set by the host, absent when there are none.
   */
  hits?: HitVerdict[];
  /**
   * What the tick did that the view shows as it happens (viewEvents): every
   * extra taken, and the blows our ship took; set by the host once per tick
   * the world moved on (a lockstep frame that waited repeats none), absent
   * when there are none.
   */
  events?: ViewEvent[];
  /**
   * A free camera's pose (demo playback, spectating): the renderer places
   * the camera there instead of behind the ship of `localSlot` (then
   * NO_SLOT: every ship is drawn as another player's). Absent: the chase
   * camera.
   */
  camera?: { pos: Vec3; rot: Quat };
  /** The gameserver's solar system we are in and its stargates (systemEntry.ts); absent outside a galaxy. */
  system?: SystemView;
}

/** A world event the view draws: an extra taken (a sparkle where it lay), a blow on our ship (the damage-direction marker). */
export type ViewEvent = Extract<WorldEvent, { type: 'pickup' }> | Extract<WorldEvent, { type: 'hit' }>;

/** Of one tick's `events`, the ones the view draws: every pickup, and the hits on `localSlot` that took shield or hull. */
export function viewEvents(events: readonly WorldEvent[], localSlot: number): ViewEvent[] {
  const out: ViewEvent[] = [];
  for (const e of events) {
    if (e.type === 'pickup') out.push({ ...e });
    else if (e.type === 'hit' && e.slot === localSlot && (e.shield > 0 || e.hull > 0)) out.push({ ...e });
  }
  return out;
}

export type { ObjectView } from './registry';

/**
 * The view of `game`'s current world, with the network's `pings` (the game
 * has none of its own). Shares nothing mutable with the game (its worlds are
 * never mutated).
 */
export function worldView(game: ClientGame, pings: readonly PlayerPing[] = []): WorldView {
  const w = game.curr;
  const m = w.match;
  const system = game.solarSystem;
  return {
    ...(system ? { system } : {}),
    tick: w.tick,
    localSlot: game.localSlot,
    respawnSeconds: game.dead ? game.respawnSeconds : null,
    // A destroyed ship waiting to respawn is not drawn.
    ships: w.ships
      .filter((s) => s.respawnIn === 0)
      .map((s) => ({
        slot: s.slot,
        pos: s.pos,
        rot: s.rot,
        vel: s.vel,
        energy: s.energy,
        shield: s.shield,
        damage: s.damage,
        missiles: s.missiles,
        mines: s.mines,
        laserLevel: s.laserLevel,
        invulnerable: s.invulnerable,
      })),
    objects: w.objects.map((o) => kindOf(o).view(o)),
    asteroids: w.asteroids.map((a) => ({ id: a.id, pos: a.pos, rot: a.rot, radius: a.radius })),
    scores: w.scores,
    match: {
      phase: m.phase,
      secondsLeft: m.ticksLeft < 0 || (m.phase === MATCH_PLAYING && m.timeLimitTicks === 0) ? null : Math.ceil(m.ticksLeft / TICK_HZ),
      killLimit: m.killLimit,
      timeLimitS: m.timeLimitTicks / TICK_HZ,
      round: m.round,
    },
    bots: [...game.bots],
    pings: pings.map((p) => ({ slot: p.slot, ms: p.ms })).sort((a, b) => a.slot - b.slot),
    lockedBy: [...new Set(w.objects.flatMap((o) => (o.kind === 'missile' && o.target === game.localSlot && o.owner !== game.localSlot ? [o.owner] : [])))].sort((a, b) => a - b),
  };
}
