/**
 * Renders one cue through the page's own cue graph (the same buses, the
 * same voice, the same placement as the live engine) into an
 * OfflineAudioContext, and measures it: how a test hears what a player
 * would, without speakers and without a user gesture.
 */
import type { SoundCue } from '../../../shared/game/soundCues';
import type { SoundRendered } from '../../../shared/host/soundHooks';
import type { SoundLevels } from '../../../shared/settings/sound';
import type { Vec3 } from '../../../shared/sim/types';
import { buildBus } from './bus';
import { CUE_SECONDS, playCue } from './voices';

const RATE = 22050;

/** `cue` placed at `place` (placeCue) rendered at `levels`: its peak and RMS. */
export async function renderCue(cue: SoundCue, place: Vec3 | null | 'unheard', levels: SoundLevels): Promise<SoundRendered> {
  const seconds = CUE_SECONDS[cue.type] + 0.1;
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: Math.ceil(seconds * RATE), sampleRate: RATE });
  playCue(ctx, buildBus(ctx, levels), cue, place, 0);
  const rendered = await ctx.startRendering();
  let peak = 0;
  let sum = 0;
  for (let c = 0; c < rendered.numberOfChannels; c++) {
    const data = rendered.getChannelData(c);
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      const a = Math.abs(v);
      if (a > peak) peak = a;
      sum += v * v;
    }
  }
  const samples = rendered.length * rendered.numberOfChannels;
  const positional = place !== null;
  const distance = place === null || place === 'unheard' ? 0 : Math.hypot(place.x, place.y, place.z);
  return { type: cue.type, from: cue.from, peak, rms: samples > 0 ? Math.sqrt(sum / samples) : 0, seconds, positional, distance };
}
