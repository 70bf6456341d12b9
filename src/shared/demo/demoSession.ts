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
import { viewEvents, worldView } from '../game/view';
import type { WorldView } from '../game/view';
import { STEP_MS, type ShipInput } from '../sim/types';
import { NO_SLOT } from '../wire/types';
import { WatchCamera } from '../game/watchCamera';
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
  /** The camera (the game layer's, as live spectators have it): `recorder` is its own view. */
  private readonly watch = new WatchCamera();
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

  get camera(): DemoCamera {
    const m = this.watch.mode;
    return m.mode === 'own' ? { mode: 'recorder' } : m;
  }
  set camera(c: DemoCamera) {
    this.watch.mode = c.mode === 'recorder' ? { mode: 'own' } : c;
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
    return WatchCamera.slots(this.playback.game.curr);
  }

  /** Follows the next (+1) or previous (−1) ship after the one followed now. Returns the slot, or null with no ships. */
  cycle(step: 1 | -1): number | null {
    return this.watch.cycle(this.playback.game.curr, this.playback.game.localSlot, step);
  }

  /** The slot whose ship the camera follows (the recorder's with the recorder's view: a server's demo, or a spectator's, has none and follows the first ship; NO_SLOT free). */
  followedSlot(): number {
    return this.watch.followedSlot(this.playback.game.curr, this.playback.game.localSlot);
  }

  /** Switches to the free camera, starting behind the ship followed now. */
  freeCamera(): void {
    this.watch.freeCamera(this.playback.game.curr, this.playback.game.localSlot);
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
    let view: WorldView = this.watch.view(worldView(game), game.curr, game.localSlot, input);
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
