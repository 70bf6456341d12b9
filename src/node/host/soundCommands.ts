/**
 * The sound's console side: the `sound [webaudio|none]` command (the sound
 * kind rebound live through its jump table, the choice saved for the next
 * start) and the archived cvars the page's audio engine reads — `volume`
 * (master), `s_effects` (the game's sounds), `s_engine` (the engine hum) and
 * `s_mute`. The host keeps, checks and saves them like every cvar; the page
 * applies a change the moment its `settings` event arrives, and the settings
 * screen draws them from their descriptions.
 */
import { NO_SOUND, WEBAUDIO_SOUND } from '../subsystems/sound';
import type { HostService } from './hostService';
import { subsystemCommand } from './subsystemCommand';
import { SOUND_DEFAULTS } from '../../shared/settings/sound';

/** The sound the settings say to bind at start-up. */
export function soundAtStart(saved: string | undefined): string {
  return saved === NO_SOUND ? NO_SOUND : WEBAUDIO_SOUND;
}

/** Registers `sound` and the sound cvars; returns a function that removes them. */
export function registerSoundCommands(host: HostService): () => void {
  const kind = host.subsystems.sound;
  const cvars = [
    host.addCvar({ name: 'volume', type: 'float', default: SOUND_DEFAULTS.volume, min: 0, max: 1, help: 'master volume of every sound (0 = silent, 1 = full)', flags: { archive: true } }),
    host.addCvar({ name: 's_effects', type: 'float', default: SOUND_DEFAULTS.effects, min: 0, max: 1, help: "volume of the game's sounds: weapons, hits, explosions, pickups, the lock warning", flags: { archive: true } }),
    host.addCvar({ name: 's_engine', type: 'float', default: SOUND_DEFAULTS.engine, min: 0, max: 1, help: 'volume of your engine hum (it follows your thrust)', flags: { archive: true } }),
    host.addCvar({ name: 's_mute', type: 'bool', default: false, help: 'mute every sound (1), keeping the volumes for when you unmute (0)', flags: { archive: true } }),
  ];
  const command = host.console.addCommand(
    subsystemCommand(host, kind, {
      what: 'the sound system (webaudio = the game page plays the sounds, none = silence)',
      detail: () => (kind.bound() === null ? 'not started' : kind.table.describe()),
      remember: (name) =>
        host.settings.update((s) => {
          s.sound = name;
        }),
    }),
  );
  return () => {
    command();
    for (const c of cvars) host.console.removeCvar(c.name);
  };
}
