/**
 * The game page's sound, wired to the page: the host's `sound` batches, its
 * `subsystems` (the sound kind: `webaudio` plays, `none` is silent) and
 * `settings` (the levels) in; the first key or pointer button anywhere on the
 * page starts the AudioContext (window listeners in the capture phase, so no
 * handler that stops an event keeps it from here); a click on any menu
 * button clicks; until sound runs, a line at the bottom says how to turn it
 * on. Also the page hooks `sound()` and `soundRender(type)`.
 */
import './sound.css';
import type { SoundBatch, SoundCue } from '../../../shared/game/soundCues';
import type { SoundHookState, SoundRendered } from '../../../shared/host/soundHooks';
import { soundLevels } from '../../../shared/settings/sound';
import type { Settings } from '../../../shared/settings/settings';
import { SoundEngine } from './soundEngine';

/** The host's name of the sound kind, and of the implementation that plays. */
const SOUND_KIND = 'sound';
const WEBAUDIO = 'webaudio';

export const SOUND_HINT = 'Press any key or click for sound';

export class PageSound {
  private readonly engine: SoundEngine;
  private readonly hint: HTMLElement;
  private bound: string | null = null;

  constructor(root: HTMLElement, settings: Settings, subsystems: Record<string, string | null>) {
    this.hint = document.createElement('div');
    this.hint.id = 'sound-hint';
    this.hint.setAttribute('role', 'status');
    this.hint.hidden = true;
    root.append(this.hint);
    this.engine = new SoundEngine(soundLevels(settings), () => this.showHint());
    const gesture = (): void => this.engine.gesture();
    window.addEventListener('keydown', gesture, { capture: true });
    window.addEventListener('pointerdown', gesture, { capture: true });
    window.addEventListener(
      'click',
      (e) => {
        if (e.target instanceof Element && e.target.closest('.menu-button')) this.engine.click();
      },
      { capture: true },
    );
    this.subsystemsChanged(subsystems);
  }

  /** The host's subsystems as they stand (a `subsystems` event or the snapshot). */
  subsystemsChanged(bound: Record<string, string | null>): void {
    this.bound = bound[SOUND_KIND] ?? null;
    this.engine.setEnabled(this.bound === WEBAUDIO);
  }

  /** The settings changed: the levels apply at once. */
  settingsChanged(settings: Settings): void {
    this.engine.setLevels(soundLevels(settings));
    this.showHint();
  }

  /** One host tick's sound. */
  batch(batch: SoundBatch): void {
    this.engine.batch(batch);
  }

  /** The page hooks of the sound (pageHooks.ts: `sound()`, `soundRender(what)`). */
  hooks(): { sound(): SoundHookState; soundRender(what: string | SoundCue): Promise<SoundRendered | null> } {
    return {
      sound: () => this.engine.state(this.bound, !this.hint.hidden),
      soundRender: (what) => this.engine.render(what),
    };
  }

  private showHint(): void {
    const failed = this.engine.failed;
    this.hint.textContent = failed === null ? SOUND_HINT : `No sound: ${failed}`;
    this.hint.hidden = !(this.engine.waiting || (failed !== null && this.bound === WEBAUDIO));
  }
}
