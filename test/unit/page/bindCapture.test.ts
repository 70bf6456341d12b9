import { describe, expect, it } from 'vitest';
import { keyInput, mouseButtonInput, padInput } from '../../../src/renderer/src/menu/bindCapture';
import { byKind, commandLabel, rebindLines } from '../../../src/renderer/src/menu/settingsControls';
import { niceStep } from '../../../src/renderer/src/menu/cvarControls';
import { defaultBindTable, parseInputName, PAD_INPUTS } from '../../../src/shared/settings/bindings';

describe('the input a press on the settings screen binds', () => {
  it('a key is its KeyboardEvent.code, which bind reads back as the same input', () => {
    const codes = ['KeyJ', 'Digit7', 'Space', 'Tab', 'Enter', 'Backquote', 'ShiftLeft', 'ControlRight', 'AltLeft', 'ArrowUp', 'ArrowLeft', 'F1', 'F5', 'F12', 'F13', 'Numpad7', 'NumpadEnter', 'NumpadAdd', 'Minus', 'BracketLeft', 'IntlBackslash', 'Semicolon', 'CapsLock', 'Home', 'PageDown', 'Delete', 'Backspace'];
    for (const code of codes) {
      expect(keyInput(code)).toEqual({ ok: true, input: code });
      expect(parseInputName(code)).toBe(code);
    }
  });

  it('Esc and a key the browser does not name are never bound, with the reason', () => {
    expect(keyInput('Escape')).toEqual({ ok: false, reason: 'Esc cancels (it opens the pause menu in a game)' });
    expect(keyInput('')).toMatchObject({ ok: false, reason: expect.stringContaining('no name') });
    expect(keyInput('Unidentified')).toMatchObject({ ok: false });
    expect(keyInput('Key J')).toEqual({ ok: false, reason: 'Key J cannot be bound; try another key' });
  });

  it('mouse buttons by Quake’s numbers, pad buttons by the standard mapping', () => {
    expect([0, 2, 1, 3, 4].map(mouseButtonInput)).toEqual(['Mouse1', 'Mouse2', 'Mouse3', 'Mouse4', 'Mouse5']);
    expect(padInput(0)).toBe('PadA');
    expect(padInput(7)).toBe('PadRT');
    expect(padInput(PAD_INPUTS.length)).toBeNull();
    for (const [i, name] of PAD_INPUTS.entries()) expect(parseInputName(padInput(i)!)).toBe(name);
  });
});

describe('the lines a rebind runs', () => {
  const table = defaultBindTable();

  it('in place of an input: the new one first, then the old one freed', () => {
    expect(rebindLines(table, '+fire', 'KeyJ', 'Space')).toBe('bind KeyJ +fire; unbind Space');
  });

  it('as one more input, or over another action’s input (bind replaces it)', () => {
    expect(rebindLines(table, '+fire', 'KeyJ', null)).toBe('bind KeyJ +fire');
    expect(rebindLines(table, '+fire', 'KeyG', null)).toBe('bind KeyG +fire');
  });

  it('nothing when the input already drives the action, and no unbind of an input another action took meanwhile', () => {
    expect(rebindLines(table, '+fire', 'Mouse1', 'Space')).toBeNull();
    expect(rebindLines({ ...table, Space: '+mine' }, '+fire', 'KeyJ', 'Space')).toBe('bind KeyJ +fire');
  });

  it('rows list keys, then mouse buttons, then pad buttons', () => {
    expect(byKind(['PadRT', 'Mouse1', 'KeyJ', 'Mouse3', 'Space'])).toEqual(['KeyJ', 'Space', 'Mouse1', 'Mouse3', 'PadRT']);
  });

  it('a bound command reads as its action, or as the console line', () => {
    expect(commandLabel('+mine')).toBe('Drop mine');
    expect(commandLabel('target')).toBe('Target next ship');
    expect(commandLabel('say gg')).toBe('"say gg"');
  });
});

describe('number field steps', () => {
  it('1, 2 or 5 times a power of ten, at or above the raw step', () => {
    expect(niceStep(0.099)).toBe(0.1);
    expect(niceStep(0.009)).toBe(0.01);
    expect(niceStep(0.0125)).toBe(0.02);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(Number.NaN)).toBe(1);
  });
});
