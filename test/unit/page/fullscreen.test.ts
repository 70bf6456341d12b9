import { describe, expect, it } from 'vitest';
import { isFullscreenKey } from '../../../src/renderer/src/view/fullscreen';

const key = (code: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) => ({ code, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

describe('fullscreen keys', () => {
  it('Alt+Enter in both shells, F11 in the browser shell (the Electron menu has it there)', () => {
    expect(isFullscreenKey(key('Enter', { altKey: true }), 'browser')).toBe(true);
    expect(isFullscreenKey(key('Enter', { altKey: true }), 'electron')).toBe(true);
    expect(isFullscreenKey(key('NumpadEnter', { altKey: true }), 'browser')).toBe(true);
    expect(isFullscreenKey(key('F11'), 'browser')).toBe(true);
    expect(isFullscreenKey(key('F11'), 'electron')).toBe(false);
    // Enter alone sends a console line; Ctrl+Alt+Enter and Shift+F11 are not ours.
    expect(isFullscreenKey(key('Enter'), 'browser')).toBe(false);
    expect(isFullscreenKey(key('Enter', { altKey: true, ctrlKey: true }), 'browser')).toBe(false);
    expect(isFullscreenKey(key('F11', { shiftKey: true }), 'browser')).toBe(false);
  });
});
