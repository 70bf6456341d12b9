/**
 * The sound settings' defaults and how the page reads them: shared by the
 * host's cvars (`volume`, `s_effects`, `s_engine`, `s_mute`:
 * node/host/soundCommands.ts) and the page's audio engine
 * (renderer/src/sound). Pure data.
 */
import { cvarNumber, type Settings } from './settings';

/** The cvars' defaults: master volume, the game's sounds, the engine hum (0..1 each). */
export const SOUND_DEFAULTS = Object.freeze({ volume: 0.7, effects: 1, engine: 0.6 });

/** The levels the page mixes at. */
export interface SoundLevels {
  /** Master, 0..1. */
  volume: number;
  /** Weapons, hits, explosions, pickups, the lock warning, 0..1. */
  effects: number;
  /** The engine hum, 0..1. */
  engine: number;
  /** Everything silent (the volumes are kept). */
  mute: boolean;
}

/** A saved level within 0..1, or its default (the page reads the saved text as untrusted). */
const level = (settings: Settings, name: string, fallback: number): number => Math.min(1, Math.max(0, cvarNumber(settings, name, fallback)));

/** The levels `settings` hold. */
export function soundLevels(settings: Settings): SoundLevels {
  return {
    volume: level(settings, 'volume', SOUND_DEFAULTS.volume),
    effects: level(settings, 's_effects', SOUND_DEFAULTS.effects),
    engine: level(settings, 's_engine', SOUND_DEFAULTS.engine),
    mute: cvarNumber(settings, 's_mute', 0) !== 0,
  };
}
