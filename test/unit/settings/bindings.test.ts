/**
 * The bindings table (src/shared/settings/bindings.ts): inputs to commands,
 * the version-1 migration, bind/unbind, conflicts, the names a player types,
 * and hostile settings files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION_COMMANDS,
  bind,
  conflictOf,
  defaultBindTable,
  inputLabel,
  inputsFor,
  MAX_BINDINGS,
  migrateV1Bindings,
  parseInputName,
  sanitizeBindTable,
  unbind,
} from '../../../src/shared/settings/bindings';
import { sanitizeSettings } from '../../../src/shared/settings/settings';

describe('the bindings table', () => {
  it('lets several inputs drive one action, and one input drive one command', () => {
    let t = defaultBindTable();
    expect(inputsFor(t, '+fire')).toEqual(['Space', 'Mouse1', 'PadRT']);
    t = bind(t, 'KeyJ', '+fire');
    expect(inputsFor(t, '+fire')).toEqual(['Space', 'Mouse1', 'PadRT', 'KeyJ']);
    // Binding W to fire takes it from thrust: the conflict is the command it had.
    expect(conflictOf(t, 'KeyW', '+fire')).toBe('+thrust');
    expect(conflictOf(t, 'KeyW', '+thrust')).toBeNull();
    expect(conflictOf(t, 'KeyZ', '+fire')).toBeNull();
    t = unbind(bind(t, 'KeyW', '+fire'), 'Space');
    expect(inputsFor(t, '+thrust')).toEqual([]);
    expect(inputsFor(t, '+fire')).toEqual(['KeyW', 'Mouse1', 'PadRT', 'KeyJ']);
    // The default table is untouched: bind and unbind make new tables.
    expect(defaultBindTable()['KeyW']).toBe('+thrust');
  });

  it('moves a version-1 file to the table with every custom key, the mouse buttons as the page had them, the gamepad at its defaults', () => {
    const v1 = { thrust: 'KeyI', brake: 'KeyK', yawLeft: 'KeyJ', yawRight: 'KeyL', pitchUp: 'ArrowDown', pitchDown: 'ArrowUp', rollLeft: 'KeyU', rollRight: 'KeyO', fire: 'ControlRight', afterburner: 'ShiftRight', missile: 'KeyM', mine: 'KeyN', emp: 'KeyB', target: 'KeyY', scoreboard: 'CapsLock', console: 'F1' };
    const { table, invalid } = migrateV1Bindings(v1);
    expect(invalid).toEqual([]);
    for (const [action, key] of Object.entries(v1)) expect(table[key], action).toBe(ACTION_COMMANDS[action as keyof typeof ACTION_COMMANDS]);
    expect(table['Mouse1']).toBe('+fire');
    expect(table['Mouse2']).toBe('+missile');
    // 16 keys, 2 mouse buttons, and the gamepad's 7 default buttons (version 1 knew no gamepad).
    expect(table['PadRT']).toBe('+fire');
    expect(Object.keys(table)).toHaveLength(25);
    // Through the settings file: version 1 in, version 2 out, no issue.
    const { settings, issues } = sanitizeSettings({ version: 1, playerName: 'goose', bindings: v1 });
    expect(issues).toEqual([]);
    expect(settings.version).toBe(2);
    expect(settings.bindings).toEqual(table);
    // A version-2 file is read as a table.
    expect(sanitizeSettings({ version: 2, bindings: { KeyP: 'say gg' } }).settings.bindings).toEqual({ KeyP: 'say gg' });
  });

  it('reads the names a player types after bind', () => {
    expect(['w', 'W', '7', 'space', 'SHIFT', 'mouse1', 'MOUSE2', 'uparrow', 'F5', 'f12', 'KeyQ', 'Numpad4', '`', 'padstart', 'PadRT'].map(parseInputName)).toEqual([
      'KeyW',
      'KeyW',
      'Digit7',
      'Space',
      'ShiftLeft',
      'Mouse1',
      'Mouse2',
      'ArrowUp',
      'F5',
      'F12',
      'KeyQ',
      'Numpad4',
      'Backquote',
      'PadStart',
      'PadRT',
    ]);
    for (const bad of ['', 'mouse9', 'key w', 'ü', 'toolongnamethatisnotakeyatallsurelynot']) expect(parseInputName(bad), bad).toBeNull();
    expect([inputLabel('KeyW'), inputLabel('Mouse1'), inputLabel('ShiftLeft'), inputLabel('ArrowUp')]).toEqual(['W', 'left mouse', 'Left Shift', '↑']);
  });

  it('keeps what is valid of a hostile table, says what it dropped, and never grows past its bound', () => {
    const { table, issues } = sanitizeBindTable({ KeyW: '+thrust', 'Key W': '+fire', KeyX: '\u0007', KeyY: 5, KeyZ: 'x'.repeat(200) });
    expect(table).toEqual({ KeyW: '+thrust' });
    expect(issues).toEqual(['bindings.Key W', 'bindings.KeyX', 'bindings.KeyY', 'bindings.KeyZ']);
    const huge = Object.fromEntries(Array.from({ length: MAX_BINDINGS + 50 }, (_, i) => [`Pad${i}`, '+fire']));
    expect(Object.keys(sanitizeBindTable(huge).table)).toHaveLength(MAX_BINDINGS);
    expect(sanitizeBindTable([1, 2]).issues).toEqual(['bindings']);
    fc.assert(fc.property(fc.jsonValue(), (raw) => void sanitizeSettings({ version: 2, bindings: raw })));
    fc.assert(fc.property(fc.jsonValue(), (raw) => void sanitizeSettings({ version: 1, bindings: raw })));
  });
});
