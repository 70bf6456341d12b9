/**
 * `keys` (src/node/host/keysCommand.ts): the controls table of the README in
 * the console, with the player's own bindings; `help` ends with a line
 * pointing at it.
 */
import { describe, expect, it } from 'vitest';
import { ConsoleCore } from '../../../src/shared/console/registry';
import { defaultBindTable } from '../../../src/shared/settings/bindings';
import { migrateV1Bindings } from '../../../src/shared/settings/bindings';
import { KEYS_HINT, keyLabel, keysCommand } from '../../../src/node/host/keysCommand';

async function run(bindings = defaultBindTable()): Promise<string[]> {
  const core = new ConsoleCore();
  core.addCommand(keysCommand(() => bindings));
  const lines: string[] = [];
  await core.execute('keys', { print: (text) => lines.push(text) });
  return lines;
}

describe('keys', () => {
  it('lists the default controls as the README has them', async () => {
    expect(await run()).toEqual([
      'keys (the bindings in settings.json; bind and unbind change them):',
      '  W / S                      thrust / reverse',
      '  A / D                      yaw left / right',
      '  ↓ / ↑                      pitch up / down',
      '  Q / E                      roll left / right',
      '  Space, left mouse, pad RT  fire laser',
      '  Left Shift, pad LT         afterburner (burns energy)',
      '  F, right mouse, pad A      launch a missile (homing on the target when it can lock on)',
      '  G, pad B                   drop a proximity mine',
      '  R, pad Y                   EMP pulse (needs 75 energy)',
      '  T, pad X                   target the next other ship',
      '  Tab, pad Back (hold)       scoreboard',
      '  mouse                      yaw and pitch (click the view to capture it)',
      '  ` (backquote)              open or close this console',
    ]);
  });

  it('follows the player\'s bindings', async () => {
    const lines = await run(migrateV1Bindings({ thrust: 'ArrowUp', brake: 'ArrowDown', pitchUp: 'KeyI', pitchDown: 'KeyK', emp: 'Digit4', afterburner: 'ControlRight' }).table);
    expect(lines[1]).toBe('  ↑ / ↓                      thrust / reverse');
    expect(lines).toContain('  4, pad Y                   EMP pulse (needs 75 energy)');
    expect(lines).toContain('  Right Ctrl, pad LT         afterburner (burns energy)');
    expect(keyLabel('F13')).toBe('F13');
  });

  it('is what the line help ends with points at', () => {
    expect(KEYS_HINT).toBe('keys: type keys for the controls (fly, fire, missiles, mines, EMP, target, scoreboard, console)');
  });
});
