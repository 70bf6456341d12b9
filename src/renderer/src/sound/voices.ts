/**
 * The cue graph: how each of the game's sound cues (shared/game/soundCues.ts)
 * sounds, synthesised in code — oscillators, filtered noise and envelopes, no
 * sound files — and where: our own sounds straight into the effects bus,
 * anyone else's through a panner placed where the cue happened, seen from
 * our ship (the listener stays at the origin looking down -Z; the cue is
 * moved into its axes, shared heardFrom). The live engine and the offline
 * render in the tests build the very same nodes.
 */
import { heardFrom, type ListenerPose, type SoundCue, type SoundCueType } from '../../../shared/game/soundCues';
import type { Vec3 } from '../../../shared/sim/types';
import { chain, envelope, filter, noise, sweep, type Bus } from './bus';

/** How long each cue sounds (s): what an offline render must cover. */
export const CUE_SECONDS: Readonly<Record<SoundCueType, number>> = {
  laser: 0.16,
  missile: 0.75,
  mine: 0.25,
  emp: 1.3,
  explosion: 1.6,
  break: 0.7,
  shieldHit: 0.3,
  hullHit: 0.4,
  pickup: 0.3,
  drained: 0.9,
};

/** Farther than this (world units) a cue is not heard at all (no nodes made). */
export const HEARING_RANGE = 2500;
/**
 * Distance at which a positional cue is as loud as our own (inverse distance
 * law beyond it): a bot's laser at 300 units is about −8 dB, at the far end
 * of the hearing range about −26 dB — enemy fire in a dogfight stays clear.
 */
const REF_DISTANCE = 120;
const ROLLOFF = 1;

/**
 * Where `cue` is heard from: null for our own (no position), the listener-space
 * position of anyone else's, or 'unheard' (too far, or no listener pose yet).
 */
export function placeCue(cue: SoundCue, pose: ListenerPose | null): Vec3 | null | 'unheard' {
  if (cue.at === null) return null;
  if (pose === null) return 'unheard';
  const rel = heardFrom(pose, cue.at);
  return Math.hypot(rel.x, rel.y, rel.z) > HEARING_RANGE ? 'unheard' : rel;
}

/** What a voice needs: the context, where to play into, when, how strong. */
interface Voice {
  ctx: BaseAudioContext;
  out: AudioNode;
  t: number;
  s: number;
}

const VOICES: Readonly<Record<SoundCueType, (v: Voice) => void>> = {
  // A bright zap falling fast.
  laser: ({ ctx, out, t, s }) => {
    chain(sweep(ctx, 'square', 1500, 260, t, 0.13), filter(ctx, 'lowpass', 4000, 900, t, 0.13), envelope(ctx, t, 0.45 * s, 0.004, 0.13), out);
  },
  // A rising hiss with a low growl under it.
  missile: ({ ctx, out, t, s }) => {
    chain(noise(ctx, t, 0.7, 0.1), filter(ctx, 'bandpass', 350, 2200, t, 0.6, 1.5), envelope(ctx, t, 0.8 * s, 0.05, 0.65), out);
    chain(sweep(ctx, 'sawtooth', 95, 60, t, 0.6), filter(ctx, 'lowpass', 400, 200, t, 0.6), envelope(ctx, t, 0.3 * s, 0.02, 0.6), out);
  },
  // A metallic clunk.
  mine: ({ ctx, out, t, s }) => {
    chain(sweep(ctx, 'triangle', 320, 140, t, 0.2), envelope(ctx, t, 0.5 * s, 0.003, 0.2), out);
    chain(noise(ctx, t, 0.05, 0.3), filter(ctx, 'highpass', 2500, 2500, t, 0.05), envelope(ctx, t, 0.15 * s, 0.001, 0.04), out);
  },
  // A deep thump and a whine falling away.
  emp: ({ ctx, out, t, s }) => {
    chain(sweep(ctx, 'sine', 70, 28, t, 1.1), envelope(ctx, t, 0.6 * s, 0.01, 1.2), out);
    chain(sweep(ctx, 'sawtooth', 2400, 180, t, 1.0), filter(ctx, 'lowpass', 5000, 400, t, 1.0), envelope(ctx, t, 0.12 * s, 0.02, 1.0), out);
  },
  // A roar of noise closing down, and a low boom.
  explosion: ({ ctx, out, t, s }) => {
    chain(noise(ctx, t, 1.5, 0.5), filter(ctx, 'lowpass', 2200, 90, t, 1.4), envelope(ctx, t, 0.9 * s, 0.01, 1.5), out);
    chain(sweep(ctx, 'sine', 90, 35, t, 0.8), envelope(ctx, t, 0.7 * s, 0.005, 0.8), out);
  },
  // Rock crumbling: low noise, shorter.
  break: ({ ctx, out, t, s }) => {
    chain(noise(ctx, t, 0.65, 0.7), filter(ctx, 'lowpass', 900, 150, t, 0.6), envelope(ctx, t, 0.6 * s, 0.01, 0.6), out);
  },
  // A ringing ping over a crackle: the shield took it.
  shieldHit: ({ ctx, out, t, s }) => {
    chain(sweep(ctx, 'sine', 1320, 990, t, 0.25), envelope(ctx, t, 0.5 * s, 0.002, 0.25), out);
    chain(noise(ctx, t, 0.12, 0.2), filter(ctx, 'bandpass', 3200, 1800, t, 0.12, 2), envelope(ctx, t, 0.6 * s, 0.002, 0.1), out);
  },
  // A dull metal clank: the hull took it.
  hullHit: ({ ctx, out, t, s }) => {
    chain(noise(ctx, t, 0.35, 0.4), filter(ctx, 'lowpass', 1400, 200, t, 0.3), envelope(ctx, t, 0.9 * s, 0.002, 0.35), out);
    chain(sweep(ctx, 'square', 130, 80, t, 0.2), filter(ctx, 'lowpass', 600, 300, t, 0.2), envelope(ctx, t, 0.4 * s, 0.002, 0.2), out);
  },
  // Two rising notes.
  pickup: ({ ctx, out, t, s }) => {
    chain(sweep(ctx, 'triangle', 660, 660, t, 0.09), envelope(ctx, t, 0.3 * s, 0.005, 0.09), out);
    chain(sweep(ctx, 'triangle', 990, 990, t + 0.09, 0.16), envelope(ctx, t + 0.09, 0.3 * s, 0.005, 0.16), out);
  },
  // Power draining: a buzzing fall with a wobble.
  drained: ({ ctx, out, t, s }) => {
    const buzz = sweep(ctx, 'sawtooth', 240, 40, t, 0.85);
    const wobble = sweep(ctx, 'sine', 18, 6, t, 0.85);
    const depth = ctx.createGain();
    depth.gain.value = 30;
    chain(wobble, depth);
    depth.connect(buzz.frequency);
    chain(buzz, filter(ctx, 'lowpass', 1800, 300, t, 0.85), envelope(ctx, t, 0.3 * s, 0.01, 0.85), out);
  },
};

/**
 * Plays `cue` at context time `t` into `bus`, placed at `place` (placeCue);
 * false when it is not heard.
 */
export function playCue(ctx: BaseAudioContext, bus: Bus, cue: SoundCue, place: Vec3 | null | 'unheard', t: number): boolean {
  if (place === 'unheard') return false;
  let out: AudioNode = bus.effects;
  if (place !== null) {
    const panner = ctx.createPanner();
    panner.panningModel = 'equalpower';
    panner.distanceModel = 'inverse';
    panner.refDistance = REF_DISTANCE;
    panner.maxDistance = HEARING_RANGE;
    panner.rolloffFactor = ROLLOFF;
    panner.positionX.value = place.x;
    panner.positionY.value = place.y;
    panner.positionZ.value = place.z;
    panner.connect(bus.effects);
    out = panner;
  }
  const s = Math.min(1, Math.max(0.05, cue.strength));
  VOICES[cue.type]({ ctx, out, t, s });
  return true;
}

/** The lock warning's beep (one of a series while a missile is locked on us). */
export function playLockBeep(ctx: BaseAudioContext, bus: Bus, t: number): void {
  chain(sweep(ctx, 'square', 1250, 1250, t, 0.07), filter(ctx, 'lowpass', 3000, 3000, t, 0.07), envelope(ctx, t, 0.16, 0.003, 0.07), bus.effects);
}

/** A menu button's click. */
export function playClick(ctx: BaseAudioContext, bus: Bus, t: number): void {
  chain(sweep(ctx, 'sine', 1200, 700, t, 0.04), envelope(ctx, t, 0.18, 0.001, 0.04), bus.ui);
}
