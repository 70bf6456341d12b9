/**
 * The `sound` subsystem kind, bound through the same jump table as the
 * packet API and the protocol (Parsec binds every system-dependent
 * subsystem; Quake has snd_restart): `webaudio` turns each host tick into
 * the game's sound cues (src/shared/game/soundCues.ts) and sends them to the
 * pages, whose Web Audio engine plays them; `none` sends nothing (servers,
 * headless bots, a player who wants silence). Switching is live: the game
 * runs on, only the cues stop or start.
 */
import type { Subsystem } from '../../shared/subsystems/jumpTable';
import { SubsystemKind } from '../../shared/subsystems/jumpTable';
import { silentBatch, soundCues, type SoundBatch, type SoundTickInput } from '../../shared/game/soundCues';
import type { WorldView } from '../../shared/game/view';

/** Kind name, as typed in the console (`sound none`). */
export const SOUND_KIND = 'sound';
/** The page's Web Audio engine plays the host's cues. */
export const WEBAUDIO_SOUND = 'webaudio';
/** Silence: no cue leaves the host. */
export const NO_SOUND = 'none';

/** One host tick as the sound hears it (HostGame.onTick gives these). */
export interface SoundTick extends Omit<SoundTickInput, 'prev' | 'curr'> {
  view: WorldView;
}

/** Where the sound kind's ticks come from and its batches go (the host's game and pages). */
export interface SoundPort {
  /** Calls `listener` after every host tick; returns the unsubscribe function. */
  ticks(listener: (tick: SoundTick) => void): () => void;
  /** Sends one tick's batch to every page. */
  send(batch: SoundBatch): void;
}

/** What every sound implementation offers besides init and kill. */
export interface SoundSystem extends Subsystem {
  /** Cues sent to the pages since it was bound. */
  cuesSent(): number;
  /** The words after its name in `sound` and `subsystems`, e.g. `the game page plays the game's sounds (12 cues sent)`. */
  describe(): string;
}

/** `webaudio`: one batch per host tick to the pages, cues derived against the previous tick's view. */
class WebAudioSound implements SoundSystem {
  readonly name = WEBAUDIO_SOUND;
  private prev: WorldView | null = null;
  private sent = 0;
  private off: (() => void) | null = null;

  constructor(private readonly port: SoundPort) {}

  init(): Promise<void> {
    this.prev = null;
    this.sent = 0;
    this.off?.();
    this.off = this.port.ticks((tick) => {
      const batch = soundCues({ prev: this.prev, curr: tick.view, events: tick.events, notices: tick.notices, input: tick.input });
      this.prev = tick.view;
      this.sent += batch.cues.length;
      this.port.send(batch);
    });
    return Promise.resolve();
  }

  kill(): Promise<void> {
    if (this.off) {
      this.off();
      this.off = null;
      // The engine hum and a lock warning last while a state does: end them on the pages now.
      this.port.send(silentBatch(this.prev?.tick ?? 0));
    }
    this.prev = null;
    return Promise.resolve();
  }

  cuesSent(): number {
    return this.sent;
  }

  describe(): string {
    return `the game page plays the game's sounds (${this.sent} cues sent)`;
  }
}

/** `none`: nothing to start, nothing sent. */
class NoSound implements SoundSystem {
  readonly name = NO_SOUND;
  init(): Promise<void> {
    return Promise.resolve();
  }
  kill(): Promise<void> {
    return Promise.resolve();
  }
  cuesSent(): number {
    return 0;
  }
  describe(): string {
    return 'silent (sound webaudio plays the game\'s sounds on the game page)';
  }
}

/**
 * The kind with its implementations: `webaudio` and `none` with a port (a
 * host with pages), only `none` without one (a headless bot, a server: there
 * is nobody to hear). Nothing is bound; the caller binds.
 */
export function createSoundKind(port: SoundPort | undefined, log?: (line: string) => void): SubsystemKind<SoundSystem, typeof SOUND_KIND> {
  const factories: Record<string, () => SoundSystem> = port ? { [WEBAUDIO_SOUND]: () => new WebAudioSound(port) } : {};
  factories[NO_SOUND] = () => new NoSound();
  return new SubsystemKind<SoundSystem, typeof SOUND_KIND>(SOUND_KIND, factories, log ? { log } : {});
}
