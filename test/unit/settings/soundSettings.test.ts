/**
 * The sound in the settings: the sound system saved for the next start (read
 * as untrusted like every field) and the levels the page reads from the
 * saved cvars (src/shared/settings/sound.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings, sanitizeSettings } from '../../../src/shared/settings/settings';
import { SOUND_DEFAULTS, soundLevels } from '../../../src/shared/settings/sound';

describe('sound settings', () => {
  it('keeps webaudio or none as the sound system; anything else is reported and left out', () => {
    expect(sanitizeSettings({ sound: 'none' }).settings.sound).toBe('none');
    expect(sanitizeSettings({ sound: 'webaudio' }).settings.sound).toBe('webaudio');
    const bad = sanitizeSettings({ sound: 'beeper' });
    expect(bad.settings.sound).toBeUndefined();
    expect(bad.issues).toContain('sound');
    expect(sanitizeSettings({}).issues).not.toContain('sound');
  });

  it('reads the levels from the saved cvars, within 0..1, with the defaults for what is missing or not a number', () => {
    const settings = defaultSettings();
    expect(soundLevels(settings)).toEqual({ ...SOUND_DEFAULTS, mute: false });
    settings.cvars = { volume: '0.25', s_effects: '7', s_engine: 'loud', s_mute: '1' };
    expect(soundLevels(settings)).toEqual({ volume: 0.25, effects: 1, engine: SOUND_DEFAULTS.engine, mute: true });
  });
});
