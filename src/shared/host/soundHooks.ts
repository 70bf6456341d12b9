/** What the game page's `window.__starlane` tells of its sound (pageHooks.ts), for tests and players in devtools. */
import type { SoundLevels } from '../settings/sound';

/** The page's sound as it stands. */
export interface SoundHookState {
  /** The AudioContext: none before the first key or click, suspended (waiting for one, or while the sound kind is none), running, or failed. */
  context: 'none' | 'suspended' | 'running' | 'closed' | 'failed';
  /** Why it failed (failed only). */
  failure: string | null;
  /** The host's sound kind as the page was last told (`webaudio`, `none`, null: unbound). */
  bound: string | null;
  /** Cues received from the host, in all and by type. */
  cues: number;
  byType: Record<string, number>;
  /** The slot the newest cue of each type came from. */
  lastFrom: Record<string, number>;
  /** Cues played into a running context (not too far to hear). */
  played: number;
  /** Sound batches received (one per host tick while webaudio is bound). */
  batches: number;
  /** Menu button clicks heard. */
  clicks: number;
  /** Lock-warning beeps played. */
  beeps: number;
  /** The engine hum's state: thrust 0..1 (null: no ship). */
  engine: number | null;
  /** The line saying how to turn sound on shows. */
  hint: boolean;
  levels: SoundLevels;
}

/** One cue rendered through the page's cue graph in an OfflineAudioContext. */
export interface SoundRendered {
  type: string;
  /** The slot it came from (the firer, the ship destroyed…; -1: none). */
  from: number;
  /** Loudest sample, and the root mean square over the render, both channels (full scale 1). */
  peak: number;
  rms: number;
  seconds: number;
  /** It was placed in space (another ship's), and how far from us (world units); 0 for our own. */
  positional: boolean;
  distance: number;
}
