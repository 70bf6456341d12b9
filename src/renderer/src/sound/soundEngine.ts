/**
 * The page's audio engine: one AudioContext, made (or resumed) only when the
 * player presses a key or a pointer button — never on a browser's autoplay
 * policy — and the host's sound batches played through the cue graph
 * (voices.ts): each cue once, the engine hum following our thrust, the lock
 * warning beeping while a missile is locked on us. It plays only while the
 * host's sound kind is `webaudio`; under `none` the context is suspended.
 * A cue that comes while the context does not run is counted, not kept: a
 * sound late is worse than none.
 */
import type { ListenerPose, SoundBatch, SoundCue, SoundCueType } from '../../../shared/game/soundCues';
import type { SoundHookState, SoundRendered } from '../../../shared/host/soundHooks';
import type { SoundLevels } from '../../../shared/settings/sound';
import type { Vec3 } from '../../../shared/sim/types';
import { buildBus, setLevels, type Bus } from './bus';
import { Hum } from './hum';
import { renderCue } from './offlineRender';
import { placeCue, playClick, playCue, playLockBeep } from './voices';

/** Seconds between two beeps of the lock warning. */
const LOCK_BEEP_EVERY = 0.25;

export class SoundEngine {
  private ctx: AudioContext | null = null;
  private bus: Bus | null = null;
  private hum: Hum | null = null;
  private enabled = false;
  private failure: string | null = null;
  private pose: ListenerPose | null = null;
  private nextBeep = 0;
  /** The newest cue of each type and where it was heard from, for a render on request. */
  private readonly last = new Map<SoundCueType, { cue: SoundCue; place: Vec3 | null | 'unheard' }>();
  private readonly counts = { cues: 0, played: 0, batches: 0, clicks: 0, beeps: 0, byType: {} as Record<string, number> };

  /** `changed` is told whenever the context starts, stops or fails (the hint follows it). */
  constructor(
    private levels: SoundLevels,
    private readonly changed: () => void,
  ) {}

  /** Whether the player should be told how to turn sound on: it should play, and the context does not run. */
  get waiting(): boolean {
    return this.enabled && this.failure === null && this.ctx?.state !== 'running';
  }

  /** The failure that keeps this page silent, if any. */
  get failed(): string | null {
    return this.failure;
  }

  /**
   * A key or pointer button went down (a user gesture): makes the context,
   * or resumes it. Does nothing while the host's sound is off or once it runs.
   */
  gesture(): void {
    if (!this.enabled || this.failure !== null || this.ctx?.state === 'running') return;
    try {
      if (!this.ctx) {
        if (typeof AudioContext !== 'function') throw new Error('this browser has no Web Audio');
        const ctx = new AudioContext({ latencyHint: 'interactive' });
        this.ctx = ctx;
        ctx.onstatechange = () => this.changed();
        this.bus = buildBus(ctx, this.levels);
        this.hum = new Hum(ctx, this.bus.engine);
      }
      if (this.ctx.state === 'suspended') this.ctx.resume().then(this.changed, (err: unknown) => this.fail(err));
    } catch (err) {
      this.fail(err);
    }
    this.changed();
  }

  /** The host's sound kind is (or is no longer) `webaudio`: play, or fall silent and suspend. */
  setEnabled(on: boolean): void {
    if (on === this.enabled) return;
    this.enabled = on;
    const ctx = this.ctx;
    if (ctx && ctx.state !== 'closed') {
      if (!on) {
        this.hum?.set(null, ctx.currentTime);
        this.nextBeep = 0;
        ctx.suspend().then(this.changed, () => undefined);
      } else {
        // The page had its gesture when the context was made: it may resume without another.
        ctx.resume().then(this.changed, () => undefined);
      }
    }
    this.changed();
  }

  /** New levels (volume, s_effects, s_engine, s_mute), applied at once. */
  setLevels(levels: SoundLevels): void {
    this.levels = levels;
    if (this.ctx && this.bus) setLevels(this.bus, levels, this.ctx.currentTime);
  }

  /** One host tick's sound. */
  batch(b: SoundBatch): void {
    this.counts.batches++;
    if (b.listener) this.pose = b.listener;
    const ctx = this.running();
    const t = ctx?.currentTime ?? 0;
    for (const cue of b.cues) {
      this.counts.cues++;
      this.counts.byType[cue.type] = (this.counts.byType[cue.type] ?? 0) + 1;
      const place = placeCue(cue, this.pose);
      this.last.set(cue.type, { cue, place });
      if (ctx && this.bus && playCue(ctx, this.bus, cue, place, t)) this.counts.played++;
    }
    if (!ctx || !this.bus) return;
    this.hum?.set(b.engine, t);
    if (!b.locked) {
      this.nextBeep = 0;
      return;
    }
    // Beeps are scheduled a batch ahead at most, so the warning stops within a tick of the lock.
    if (this.nextBeep < t) this.nextBeep = t;
    while (this.nextBeep < t + 0.05) {
      playLockBeep(ctx, this.bus, this.nextBeep);
      this.counts.beeps++;
      this.nextBeep += LOCK_BEEP_EVERY;
    }
  }

  /** A menu button was clicked. */
  click(): void {
    const ctx = this.running();
    if (!ctx || !this.bus) return;
    playClick(ctx, this.bus, ctx.currentTime);
    this.counts.clicks++;
  }

  /** Renders offline through the same graph at the levels in force: the newest cue of type `what` (null when none came), or the cue `what`. */
  async render(what: string | SoundCue): Promise<SoundRendered | null> {
    if (typeof what !== 'string') return renderCue(what, placeCue(what, this.pose), this.levels);
    const entry = this.last.get(what as SoundCueType);
    return entry ? renderCue(entry.cue, entry.place, this.levels) : null;
  }

  /** The state for the page hook. */
  state(bound: string | null, hint: boolean): SoundHookState {
    const c = this.counts;
    const s = this.ctx?.state;
    return {
      context: this.failure !== null ? 'failed' : s === undefined ? 'none' : s === 'running' || s === 'closed' ? s : 'suspended',
      failure: this.failure,
      bound,
      cues: c.cues,
      byType: { ...c.byType },
      lastFrom: Object.fromEntries([...this.last].map(([type, { cue }]) => [type, cue.from])),
      played: c.played,
      batches: c.batches,
      clicks: c.clicks,
      beeps: c.beeps,
      engine: this.hum?.state?.thrust ?? null,
      hint,
      levels: { ...this.levels },
    };
  }

  private running(): AudioContext | null {
    return this.enabled && this.ctx?.state === 'running' ? this.ctx : null;
  }

  private fail(err: unknown): void {
    this.failure = err instanceof Error ? err.message : String(err);
    this.changed();
  }
}
