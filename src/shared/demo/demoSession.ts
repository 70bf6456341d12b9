/**
 * A demo being watched (`playdemo`): the playback paced by the host's ticks
 * at a speed (0.25× to 4×), paused, sought, and seen through a camera — the
 * recorder's view, any player's (its ship chased, its HUD), or a free
 * camera the player flies. Each tick gives the world view the renderer
 * draws, with the notices and events of the ticks played, exactly as live
 * play does. Pure.
 */
import type { GameNotice } from '../game/clientTypes';
import type { WorldEvent } from '../game/events';
import { viewEvents, worldView, type WorldView } from '../game/view';
import { STEP_MS, type ShipInput } from '../sim/types';
import { NO_SLOT } from '../wire/types';
import { add, rotate } from '../sim/vec';
import { FreeCamera } from './freeCamera';

/** Where the renderer's chase camera sits behind a ship, in its axes (scene.ts CHASE_OFFSET). */
const CHASE_OFFSET = { x: 0, y: 3.2, z: 13 };
import type { GamePlayback, PlayedStretch } from './gamePlayback';

export const MIN_DEMO_SPEED = 0.25;
export const MAX_DEMO_SPEED = 4;

export type DemoCamera = { mode: 'recorder' } | { mode: 'follow'; slot: number } | { mode: 'free' };

/** One host tick of a demo watched. */
export interface DemoFrame {
  view: WorldView;
  notices: GameNotice[];
  events: readonly WorldEvent[];
  /** The demo has played to its end (or stopped on a bad chunk: playback.failure). */
  ended: boolean;
}

export class DemoSession {
  speed = 1;
  paused = false;
  camera: DemoCamera = { mode: 'recorder' };
  private free: FreeCamera | null = null;
  /** Player names by slot: the header's, then each slot table's. */
  readonly names = new Map<number, string>();

  constructor(
    readonly name: string,
    readonly playback: GamePlayback,
  ) {
    for (const p of playback.header.players) this.names.set(p.slot, p.name);
    const own = playback.header.recorder;
    if (own.slot !== null) this.names.set(own.slot, own.name);
  }

  /** Demo time now (ms since the recording started). */
  get timeMs(): number {
    return this.playback.timeMs;
  }

  /** Sets the speed, clamped to MIN_DEMO_SPEED..MAX_DEMO_SPEED; returns the one in use. */
  setSpeed(x: number): number {
    this.speed = Math.min(MAX_DEMO_SPEED, Math.max(MIN_DEMO_SPEED, x));
    return this.speed;
  }

  /** Goes to demo time `ms` (back: from the start again, quickly). Returns why not, or null. */
  seek(ms: number): string | null {
    const to = Math.max(0, Math.min(ms, this.playback.durationMs));
    if (to < this.playback.timeMs) {
      const problem = this.playback.restart();
      if (problem) return problem;
    }
    this.playback.playTo(to);
    return null;
  }

  /** The slots with a ship in the demo's world now, ascending. */
  slots(): number[] {
    return this.playback.game.curr.ships.map((s) => s.slot).sort((a, b) => a - b);
  }

  /** Follows the next (+1) or previous (−1) ship after the one followed now. Returns the slot, or null with no ships. */
  cycle(step: 1 | -1): number | null {
    const slots = this.slots();
    if (slots.length === 0) return null;
    const now = this.followedSlot();
    const at = slots.indexOf(now);
    const next = at < 0 ? (step > 0 ? slots[0] : slots[slots.length - 1]) : slots[(at + step + slots.length) % slots.length];
    this.camera = { mode: 'follow', slot: next as number };
    return next as number;
  }

  /** The slot whose ship the camera follows (the recorder's with the recorder's view; NO_SLOT free). */
  followedSlot(): number {
    if (this.camera.mode === 'follow') return this.camera.slot;
    if (this.camera.mode === 'free') return NO_SLOT;
    const own = this.playback.game.localSlot;
    // A server's demo (or a spectator's) has no ship of its own: the recorder's view follows the first ship.
    return own !== NO_SLOT ? own : (this.slots()[0] ?? NO_SLOT);
  }

  /** Switches to the free camera, starting behind the ship followed now. */
  freeCamera(): void {
    const ship = this.playback.game.curr.ships.find((s) => s.slot === this.followedSlot());
    // Where the chase camera was: a little above and behind the ship.
    this.free = new FreeCamera(ship ? { pos: add(ship.pos, rotate(ship.rot, CHASE_OFFSET)), rot: ship.rot } : undefined);
    this.camera = { mode: 'free' };
  }

  /** One host tick: the demo moves on STEP_MS × speed (none while paused); `input` flies the free camera. */
  tick(input: ShipInput): DemoFrame {
    const p = this.playback;
    const played = this.paused ? { ticks: 0, notices: [], events: [] as readonly WorldEvent[] } : p.playTo(p.timeMs + STEP_MS * this.speed);
    return this.frame(input, played);
  }

  /** The frame of what has just been played (`played`), seen through the camera; `input` flies the free camera. */
  frame(input: ShipInput, played: PlayedStretch): DemoFrame {
    const p = this.playback;
    const game = p.game;
    const plain = worldView(game);
    const slot = this.followedSlot();
    let view: WorldView = plain;
    if (this.camera.mode === 'free') {
      const pose = (this.free ??= new FreeCamera()).step(input);
      view = { ...plain, localSlot: NO_SLOT, respawnSeconds: null, lockedBy: [], camera: pose };
    } else if (slot !== game.localSlot) {
      const lockedBy = [...new Set(game.curr.objects.flatMap((o) => (o.kind === 'missile' && o.target === slot && o.owner !== slot ? [o.owner] : [])))].sort((a, b) => a - b);
      view = { ...plain, localSlot: slot, respawnSeconds: null, lockedBy };
    }
    const events = played.ticks > 0 ? viewEvents(played.events, view.localSlot) : [];
    if (events.length > 0) view = { ...view, events };
    return { view, notices: played.notices, events: played.events, ended: p.ended };
  }

  /** The status line the HUD shows while the demo plays. */
  statusLine(): string {
    // Whole seconds: the line (the HUD's network status) changes once a second, not every tick.
    const s = (ms: number) => String(Math.floor(ms / 1000));
    const named = (slot: number) => this.names.get(slot) ?? `slot ${slot}`;
    const watcher = this.playback.game.localSlot === NO_SLOT;
    const cam = this.camera.mode === 'free' ? 'free camera' : this.camera.mode === 'follow' ? `following ${named(this.camera.slot)}` : watcher ? `following ${named(this.followedSlot())}` : "the recorder's view";
    const end = this.playback.ended ? (this.playback.failure ? ', stopped: damaged' : ', at its end') : '';
    return `demo ${this.name}: ${s(this.timeMs)} / ${s(this.playback.durationMs)} s, ×${this.speed}${this.paused ? ', paused' : ''}, ${cam}${end}`;
  }
}
