/**
 * Where the page plays a cue (renderer sound/voices.ts, placeCue): our own on
 * our ship, anyone else's in our ship's axes, nothing beyond hearing range or
 * before we know where we are. The sound itself is heard in the e2e test.
 */
import { describe, expect, it } from 'vitest';
import { HEARING_RANGE, placeCue } from '../../../src/renderer/src/sound/voices';
import type { SoundCue } from '../../../src/shared/game/soundCues';

const pose = { pos: { x: 100, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 } };
const cue = (at: SoundCue['at']): SoundCue => ({ type: 'laser', at, from: 1, strength: 1 });

describe('placing a cue', () => {
  it('our own plays on us; another ship\'s where it is from our ship; too far or no pose yet: not heard', () => {
    expect(placeCue(cue(null), pose)).toBeNull();
    expect(placeCue(cue(null), null)).toBeNull();
    expect(placeCue(cue({ x: 100, y: 0, z: -300 }), pose)).toEqual({ x: 0, y: 0, z: -300 });
    expect(placeCue(cue({ x: 100, y: 0, z: -300 }), null)).toBe('unheard');
    expect(placeCue(cue({ x: 100 + HEARING_RANGE + 1, y: 0, z: 0 }), pose)).toBe('unheard');
  });
});
