import type { GoldenRunOptions, GoldenRunResult } from '../game/goldenRun';
import type { Vec3 } from '../sim/types';
import type { WorldView } from '../game/view';
import type { SoundHookState, SoundRendered } from './soundHooks';
import type { HudHookState } from './hudHooks';
import type { SceneHookState } from './sceneHooks';
import type { SoundCue } from '../game/soundCues';

/**
 * Read-only hooks the game page puts on `window.__starlane`, for the
 * end-to-end tests and for players poking around in devtools.
 */
export interface PageHooks {
  ready: boolean;
  /** Plain text of the console, scroll-back included. */
  consoleText(): string;
  /** Plain text of the console rows on screen (the scrolled-to part of the buffer). */
  consoleScreen(): string;
  /** Simulation tick reached. */
  tick(): number;
  /** The newest world view the host sent (plain data). */
  world(): WorldView;
  /** Frames drawn so far. */
  rendered(): number;
  ship(): { speed: number; lasers: number };
  /** The remote ships drawn in the last frame. */
  remotes(): { slot: number; name: string; pos: Vec3 }[];
  /** The chat lines on the HUD, oldest first. */
  chat(): string[];
  /**
   * What the HUD shows over the view: the scoreboard (its key held), the
   * match-end screen, the lock warning, and the targeted slot (-1: none).
   */
  overlays(): { scoreboard: boolean; matchEnd: boolean; lockWarning: boolean; target: number };
  /** Runs the golden run (src/shared/game/goldenRun.ts) in this engine, so a test can compare its hash with Node's. */
  goldenRun(options: GoldenRunOptions): GoldenRunResult;
  /** The combat HUD as the player sees it. */
  hud(): HudHookState;
  /** What the 3-D view drew in its last frame: the ships' designs and tags, missile trails, explosions, particles. */
  scene(): SceneHookState;
  /** The menu layer showing (`menu-main`, `menu-name`, `menu-dialog`, …), or `off` when the game has the screen. */
  menu(): string;
  /** The page's sound: its AudioContext, the host's sound kind, cues received and played (soundHooks.ts). */
  sound(): SoundHookState;
  /**
   * A cue rendered through the page's cue graph in an OfflineAudioContext at the levels in force: the newest
   * one of type `what` the host sent (null when none came), or the cue `what` itself, placed from our ship.
   */
  soundRender(what: string | SoundCue): Promise<SoundRendered | null>;
}
