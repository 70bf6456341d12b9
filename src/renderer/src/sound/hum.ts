/**
 * Our engine's hum: two slightly detuned sawtooths through a low-pass whose
 * pitch, brightness and loudness follow the thrust asked for, and a roar of
 * filtered noise while the afterburner burns. It runs for as long as the
 * context does; between batches it glides to the newest engine state (silent
 * while we have no ship).
 */
import type { EngineSound } from '../../../shared/game/soundCues';
import { noiseBuffer } from './bus';

/** How quickly the hum follows the thrust (s, time constant). */
const FOLLOW = 0.08;

export class Hum {
  private readonly low: OscillatorNode;
  private readonly high: OscillatorNode;
  private readonly tone: BiquadFilterNode;
  private readonly level: GainNode;
  private readonly roar: GainNode;
  private readonly sources: AudioScheduledSourceNode[];
  /** The last state asked for (for the page hook). */
  state: EngineSound | null = null;

  constructor(ctx: BaseAudioContext, out: AudioNode) {
    this.low = ctx.createOscillator();
    this.high = ctx.createOscillator();
    this.low.type = this.high.type = 'sawtooth';
    this.tone = ctx.createBiquadFilter();
    this.tone.type = 'lowpass';
    this.tone.Q.value = 2;
    this.level = ctx.createGain();
    this.level.gain.value = 0;
    this.low.connect(this.tone);
    this.high.connect(this.tone);
    this.tone.connect(this.level).connect(out);

    const hiss = ctx.createBufferSource();
    hiss.buffer = noiseBuffer(ctx);
    hiss.loop = true;
    const band = ctx.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = 700;
    band.Q.value = 0.7;
    this.roar = ctx.createGain();
    this.roar.gain.value = 0;
    hiss.connect(band).connect(this.roar).connect(out);

    this.sources = [this.low, this.high, hiss];
    this.set(null, ctx.currentTime);
    for (const s of this.sources) s.start();
  }

  /** Glides to `engine` from context time `t`. */
  set(engine: EngineSound | null, t: number): void {
    this.state = engine;
    const thrust = engine?.thrust ?? 0;
    const pitch = 46 + 34 * thrust;
    this.low.frequency.setTargetAtTime(pitch, t, FOLLOW);
    this.high.frequency.setTargetAtTime(pitch * 1.008, t, FOLLOW);
    this.tone.frequency.setTargetAtTime(160 + 1000 * thrust, t, FOLLOW);
    this.level.gain.setTargetAtTime(engine ? 0.07 + 0.2 * thrust : 0, t, FOLLOW);
    this.roar.gain.setTargetAtTime(engine?.afterburner ? 0.22 : 0, t, FOLLOW);
  }

  /** Stops its sources for good. */
  stop(): void {
    for (const s of this.sources) {
      try {
        s.stop();
      } catch {
        // Already stopped: nothing to do.
      }
    }
  }
}
