/**
 * The one clock of a client: it steps the ClientGame at 40 Hz on the host's
 * clock (the same clock the protocol's timers and game time read), hands the
 * protocol what each tick did — creations stamped with the host time of the
 * tick they happened at, so the game-code interface moves them on from
 * there — and applies what the network delivers. It is the `ProtocolGame`
 * every protocol sees. The host feeds it the renderer's inputs; a headless
 * bot feeds it a pilot's. No window, hidden or not, can stall it.
 */
import { killCauseCode } from '../game/killCause';
import { AUTO_LOOK, type ShipLook } from '../wire/shipLook';
import { GameCodeInterface } from '../net/gameCode';
import type { NetDelivery } from '../net/gameLink';
import type { ProtocolGame } from './protocol';
import { STEP_MS, type ShipInput } from '../sim/types';
import type { Clock } from '../time/clock';
import { objectId, type ShipState } from '../wire/types';
import { ClientGame, type GameNotice } from '../game/clientGame';
import { DESTROYED_DAMAGE } from '../game/kinds/ship';
import { kindOf } from '../game/registry';
import type { FrameSync } from '../game/frameSync';

/** Most ticks run in one wake-up after a stall (1 s); time beyond it is dropped, not replayed. */
export const MAX_CATCH_UP_TICKS = 40;

export interface GameDriverOptions {
  clock: Clock;
  /** The game to drive (default: a fresh offline ClientGame). */
  game?: ClientGame;
  playerName(): string;
  /** The ship look the player chose (absent: left to the slot). */
  shipLook?(): ShipLook;
  /** Packets per second while joined (the `sendfreq` cvar). */
  sendFrequency(): number;
  autoJoin(): boolean;
  /** Our ship's input for the tick about to run (the renderer's latest, or a pilot's). */
  input(game: ClientGame): ShipInput;
  /** The computer pilots' inputs for the tick about to run, by slot (offline games with `bot add`). */
  botInputs?(game: ClientGame): ReadonlyMap<number, ShipInput>;
  /** Every delivery, after the game has taken what it needs (slot tables and chat for a view; everything for a bot's log). */
  onDeliver?(delivery: NetDelivery): void;
  /** After each tick, with the notices (explosions, kills) since the last one. */
  onTick?(game: ClientGame, notices: GameNotice[]): void;
}

export class GameDriver implements ProtocolGame {
  /** Takes nothing until a session says we are in a game (gameCode.ts, EventScope): offline practice raises nothing for later. */
  readonly events = new GameCodeInterface('none');
  readonly game: ClientGame;
  private timer: unknown = null;
  /** Host time at which the next tick is due. */
  private due = 0;
  private lastState: ShipState | null = null;
  /** The protocol's frame sync (lockstep), when it runs the simulation. */
  private sync: FrameSync | null = null;
  /** Ticks run, and ticks dropped after stalls (for `stats`). */
  readonly counters = { ticks: 0, dropped: 0 };

  constructor(private readonly options: GameDriverOptions) {
    this.game = options.game ?? new ClientGame();
  }

  get running(): boolean {
    return this.timer !== null;
  }

  /** Starts ticking: the first tick is one step from now. */
  start(): void {
    if (this.timer !== null) return;
    this.due = this.now() + STEP_MS;
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.runDue();
      if (this.timer !== null) this.schedule();
    }, Math.max(0, this.due - this.now()));
  }

  /** Runs every tick due by now (at most MAX_CATCH_UP_TICKS; older time is dropped). */
  runDue(): void {
    const now = this.now();
    let ran = 0;
    while (this.due <= now && ran < MAX_CATCH_UP_TICKS) {
      this.tick(this.due);
      this.due += STEP_MS;
      ran++;
    }
    if (this.due <= now) {
      const behind = Math.floor((now - this.due) / STEP_MS) + 1;
      this.counters.dropped += behind;
      this.due += behind * STEP_MS;
    }
  }

  attachSync(sync: FrameSync | null): void {
    this.sync = sync;
  }

  /** One tick whose world stands for host time `at`. */
  private tick(at: number): void {
    const game = this.game;
    const synced = this.sync?.tick(this.options.input(game), at) ?? null;
    if (synced) {
      // The shared world stepped (or waited): shown as it is; nothing of ours goes out as Parsec events.
      if (synced.frames.length > 0) game.showSynced(synced.frames, synced.slot);
      this.counters.ticks++;
      this.options.onTick?.(game, game.takeNotices());
      return;
    }
    const outcome = game.step(this.options.input(game), at, game.bots.length > 0 ? this.options.botInputs?.(game) : undefined);
    for (const o of outcome.created) kindOf(o).send(o, this.events, at);
    if (outcome.destroyed) this.events.killOwnShip(outcome.destroyed.killerSlot, at, killCauseCode(outcome.destroyed.cause));
    if (outcome.match) this.events.matchState(outcome.match, at);
    for (const c of outcome.claims ?? []) this.events.killObject(objectId(c.owner, c.id), game.localSlot, at);
    for (const a of outcome.answers ?? []) this.events.killObject(objectId(game.localSlot, a.id), a.winner, at);
    for (const b of outcome.breaks ?? []) this.events.asteroidBreaks(b.round, b.breaks, at);
    const state = game.localState();
    if (state) this.lastState = state;
    this.counters.ticks++;
    this.options.onTick?.(game, game.takeNotices());
  }

  /** While our ship is destroyed its last state goes out with damage 100, so peers keep it where it died. */
  localShip(): ShipState | null {
    const state = this.game.localState();
    if (state) return state;
    const last = this.lastState;
    return last ? { ...last, vel: { x: 0, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, damage: DESTROYED_DAMAGE } : null;
  }

  deliver(d: NetDelivery): void {
    const now = this.now();
    switch (d.kind) {
      case 'players':
        this.game.applyPlayers(d.players, d.localSlot);
        break;
      case 'state':
        this.game.applyState(d.slot, d.state, now, d.ageMs ?? 0);
        break;
      case 'event':
        this.game.applyEvent(d.slot, d.event, now, d.ageMs ?? 0);
        break;
      default:
        break;
    }
    this.options.onDeliver?.(d);
  }

  playerName(): string {
    return this.options.playerName();
  }

  shipLook(): ShipLook {
    return this.options.shipLook?.() ?? AUTO_LOOK;
  }

  sendFrequency(): number {
    return this.options.sendFrequency();
  }

  autoJoin(): boolean {
    return this.options.autoJoin();
  }

  now(): number {
    return this.options.clock.now();
  }
}
