/**
 * The Electron window as the player left it (src/shared/settings/windowState.ts):
 * read from an untrusted settings file, and put back on the displays there
 * are now — where it was when that is still on a screen, else centred.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW, MIN_WINDOW, placeWindow, sanitizeWindowState } from '../../../src/shared/settings/windowState';
import { sanitizeSettings } from '../../../src/shared/settings/settings';

const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('the window as it was left', () => {
  it('comes back where it was, maximised or fullscreen as it was', () => {
    const saved = { x: 2100, y: 100, width: 1600, height: 900, maximized: true, fullscreen: false };
    expect(placeWindow(saved, [laptop, rightMonitor])).toEqual(saved);
    expect(placeWindow({ ...saved, fullscreen: true }, [laptop, rightMonitor]).fullscreen).toBe(true);
  });

  it('is centred on what is left when its display is gone, and no larger than the largest one', () => {
    const onTheGoneMonitor = { x: 2100, y: 100, width: 2400, height: 1300, maximized: false, fullscreen: false };
    expect(placeWindow(onTheGoneMonitor, [laptop])).toEqual({ width: 1920, height: 1040, maximized: false, fullscreen: false });
    // Only its bottom corner on the laptop: its title bar could not be grabbed.
    expect(placeWindow({ ...DEFAULT_WINDOW, x: -1200, y: -780 }, [laptop]).x).toBeUndefined();
    // Its title bar 200 px onto the laptop: kept.
    expect(placeWindow({ ...DEFAULT_WINDOW, x: -1080, y: 10 }, [laptop])).toMatchObject({ x: -1080, y: 10 });
  });

  it('reads a hostile settings file as the default window, field by field', () => {
    expect(sanitizeWindowState('big')).toEqual(DEFAULT_WINDOW);
    expect(sanitizeWindowState({ width: 10, height: 1e9, x: 5, maximized: 'yes', fullscreen: true })).toEqual({ width: 1280, height: 800, maximized: false, fullscreen: true });
    expect(sanitizeSettings({ window: { width: 1000, height: 700, x: 3, y: 4, maximized: false, fullscreen: false } }).settings.window).toEqual({ width: 1000, height: 700, x: 3, y: 4, maximized: false, fullscreen: false });
    expect(sanitizeSettings({}).settings.window).toBeUndefined();
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.record({ x: fc.integer({ min: -5000, max: 5000 }), y: fc.integer({ min: -5000, max: 5000 }), width: fc.integer({ min: 800, max: 8000 }), height: fc.integer({ min: 600, max: 5000 }) }), { maxLength: 3 }), (raw, displays) => {
        const placed = placeWindow(sanitizeWindowState(raw), displays);
        expect(placed.width).toBeGreaterThanOrEqual(MIN_WINDOW.width);
        expect(placed.height).toBeGreaterThanOrEqual(MIN_WINDOW.height);
      }),
    );
  });
});
