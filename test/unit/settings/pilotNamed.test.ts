/**
 * The first start's name prompt shows until the player has chosen a name:
 * a fresh profile is unnamed; a settings file from before the prompt counts
 * as named when its name is not the default; a bad value is reported.
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings, sanitizeSettings } from '../../../src/shared/settings/settings';

describe('pilot named (the first start asks for a name)', () => {
  it('a fresh profile has no chosen name', () => {
    expect(defaultSettings().pilotNamed).toBe(false);
  });

  it('a file from before the prompt is named when its name is not the default', () => {
    expect(sanitizeSettings({ version: 2, playerName: 'goose' }).settings.pilotNamed).toBe(true);
    expect(sanitizeSettings({ version: 2, playerName: 'pilot' }).settings.pilotNamed).toBe(false);
    expect(sanitizeSettings({ version: 2 }).settings.pilotNamed).toBe(false);
  });

  it('the saved flag wins, and a flag that is not true or false is reset and reported', () => {
    expect(sanitizeSettings({ version: 2, playerName: 'pilot', pilotNamed: true }).settings.pilotNamed).toBe(true);
    expect(sanitizeSettings({ version: 2, playerName: 'goose', pilotNamed: false }).settings.pilotNamed).toBe(false);
    const bad = sanitizeSettings({ version: 2, playerName: 'goose', pilotNamed: 'yes' });
    expect(bad.settings.pilotNamed).toBe(false);
    expect(bad.issues).toContain('pilotNamed');
  });
});
