/**
 * The mixing graph every sound goes through, in a live AudioContext and in
 * the OfflineAudioContext a test renders into alike: three buses — the
 * game's effects (`s_effects`), the engine hum (`s_engine`), the menu's
 * clicks — into a master gain (`volume`, 0 with `s_mute`) and a limiter,
 * then the speakers. Plus the small building blocks the voices use:
 * envelopes, sweeps and a noise buffer (seeded, so a render is the same every
 * time).
 */
import type { SoundLevels } from '../../../shared/settings/sound';

export interface Bus {
  master: GainNode;
  effects: GainNode;
  engine: GainNode;
  ui: GainNode;
}

/** How quickly a level change is followed (s, time constant): at once to the ear, without a click. */
const LEVEL_GLIDE = 0.02;

/** Builds the buses in `ctx` at `levels`. */
export function buildBus(ctx: BaseAudioContext, levels: SoundLevels): Bus {
  const limiter = ctx.createDynamicsCompressor();
  limiter.threshold.value = -10;
  limiter.knee.value = 6;
  limiter.ratio.value = 12;
  limiter.attack.value = 0.003;
  limiter.release.value = 0.2;
  limiter.connect(ctx.destination);
  const master = ctx.createGain();
  master.connect(limiter);
  const bus = { master, effects: ctx.createGain(), engine: ctx.createGain(), ui: ctx.createGain() };
  bus.effects.connect(master);
  bus.engine.connect(master);
  bus.ui.connect(master);
  setLevels(bus, levels, null);
  return bus;
}

/** Applies `levels`; with `at` (the context's time) they glide there, without it they are set outright. */
export function setLevels(bus: Bus, levels: SoundLevels, at: number | null): void {
  const pairs: [AudioParam, number][] = [
    [bus.master.gain, levels.mute ? 0 : levels.volume],
    [bus.effects.gain, levels.effects],
    [bus.engine.gain, levels.engine],
    [bus.ui.gain, 1],
  ];
  for (const [param, value] of pairs) {
    if (at === null) param.value = value;
    else {
      param.cancelScheduledValues(at);
      param.setTargetAtTime(value, at, LEVEL_GLIDE);
    }
  }
}

const noiseBuffers = new WeakMap<BaseAudioContext, AudioBuffer>();

/** One second of white noise for `ctx`, made once (a fixed-seed generator: the same noise every run). */
export function noiseBuffer(ctx: BaseAudioContext): AudioBuffer {
  let buffer = noiseBuffers.get(ctx);
  if (buffer) return buffer;
  buffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 0x2545f491;
  for (let i = 0; i < data.length; i++) {
    // xorshift32
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    data[i] = ((seed >>> 0) / 0xffffffff) * 2 - 1;
  }
  noiseBuffers.set(ctx, buffer);
  return buffer;
}

/** A gain that rises to `peak` in `attack` s from `t`, then falls away over `decay` s (exponentially, to silence). */
export function envelope(ctx: BaseAudioContext, t: number, peak: number, attack: number, decay: number): GainNode {
  const g = ctx.createGain();
  g.gain.setValueAtTime(0, t);
  g.gain.linearRampToValueAtTime(peak, t + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, t + attack + decay);
  g.gain.linearRampToValueAtTime(0, t + attack + decay + 0.01);
  return g;
}

/** An oscillator of `type` sweeping from `f0` to `f1` Hz over `dur` s from `t`, playing that long. */
export function sweep(ctx: BaseAudioContext, type: OscillatorType, f0: number, f1: number, t: number, dur: number): OscillatorNode {
  const o = ctx.createOscillator();
  o.type = type;
  o.frequency.setValueAtTime(f0, t);
  if (f1 !== f0) o.frequency.exponentialRampToValueAtTime(f1, t + dur);
  o.start(t);
  o.stop(t + dur + 0.02);
  return o;
}

/** Noise playing `dur` s from `t` (from a point of the buffer picked by `offset`, 0..1). */
export function noise(ctx: BaseAudioContext, t: number, dur: number, offset = 0): AudioBufferSourceNode {
  const src = ctx.createBufferSource();
  src.buffer = noiseBuffer(ctx);
  src.loop = true;
  src.start(t, offset % 1);
  src.stop(t + dur + 0.02);
  return src;
}

/** A filter of `type` whose cutoff sweeps from `f0` to `f1` Hz over `dur` s from `t`. */
export function filter(ctx: BaseAudioContext, type: BiquadFilterType, f0: number, f1: number, t: number, dur: number, q = 1): BiquadFilterNode {
  const f = ctx.createBiquadFilter();
  f.type = type;
  f.Q.value = q;
  f.frequency.setValueAtTime(f0, t);
  if (f1 !== f0) f.frequency.exponentialRampToValueAtTime(f1, t + dur);
  return f;
}

/** Connects `nodes` in a row; returns the last. */
export function chain(...nodes: AudioNode[]): AudioNode {
  for (let i = 1; i < nodes.length; i++) nodes[i - 1]!.connect(nodes[i]!);
  return nodes[nodes.length - 1]!;
}
