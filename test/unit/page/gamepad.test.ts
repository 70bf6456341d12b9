/**
 * A gamepad through the standard mapping (src/renderer/src/game/gamepad.ts)
 * and the page's input (input.ts), with a stand-in `navigator.getGamepads`:
 * sticks fly past the dead zone, buttons go through the bindings table like
 * keys (several inputs per action, commands once per press), hot-plug is said.
 */
import { describe, expect, it } from 'vitest';
import { InputState } from '../../../src/renderer/src/game/input';
import { firstPad, padAxes, padButtonsDown, pastDeadZone, PadWatch, type PadLike } from '../../../src/renderer/src/game/gamepad';
import { bind, defaultBindTable } from '../../../src/shared/settings/bindings';

/** A standard-mapping pad with `pressed` buttons (by table name) and `axes`. */
function pad(pressed: string[] = [], axes = [0, 0, 0, 0], id = 'Test Pad (STANDARD GAMEPAD)'): PadLike {
  const names = ['PadA', 'PadB', 'PadX', 'PadY', 'PadLB', 'PadRB', 'PadLT', 'PadRT', 'PadBack', 'PadStart', 'PadLS', 'PadRS', 'PadUp', 'PadDown', 'PadLeft', 'PadRight', 'PadHome'];
  return { id, connected: true, mapping: 'standard', axes, buttons: names.map((n) => ({ pressed: pressed.includes(n), value: pressed.includes(n) ? 1 : 0 })) };
}

describe('gamepad mapping', () => {
  it('ignores the dead zone and rescales the rest of the travel to full', () => {
    expect(pastDeadZone(0.1, 0.15)).toBe(0);
    expect(pastDeadZone(-0.15, 0.15)).toBe(0);
    expect(pastDeadZone(1, 0.15)).toBe(1);
    expect(pastDeadZone(-0.575, 0.15)).toBeCloseTo(-0.5, 10);
    expect(pastDeadZone(Number.NaN, 0.15)).toBe(0);
  });

  it('flies with the sticks: left yaw and pitch (pulled back climbs, or dives with invert), right roll and thrust (pushed forward)', () => {
    const p = pad([], [1, 1, -1, -1]);
    expect(padAxes(p, { deadZone: 0.15, invertPitch: false })).toEqual({ yaw: 1, pitch: 1, roll: -1, thrust: 1 });
    expect(padAxes(p, { deadZone: 0.15, invertPitch: true }).pitch).toBe(-1);
    // A half-pressed trigger counts as pressed from PRESSED_AT.
    const half = { ...pad(), buttons: pad().buttons.map((b, i) => (i === 7 ? { pressed: false, value: 0.6 } : b)) };
    expect(padButtonsDown(half)).toEqual(['PadRT']);
  });

  it('takes the first connected pad with the standard mapping', () => {
    const other = { ...pad(), id: 'odd', mapping: '' };
    const gone = { ...pad(), id: 'gone', connected: false };
    expect(firstPad([null, other, gone, pad()])?.id).toBe('Test Pad (STANDARD GAMEPAD)');
    expect(firstPad([null, other])).toBeNull();
  });
});

describe('the page input with a gamepad', () => {
  function rig(table = defaultBindTable()) {
    const commands: string[] = [];
    const input = new InputState(table, 1, (c) => commands.push(c));
    let now: PadLike | null = null;
    const said: string[] = [];
    const watch = new PadWatch(() => [now], (line) => said.push(line));
    input.pad = { current: () => watch.current(), config: () => ({ deadZone: 0.15, invertPitch: false }) };
    return { input, commands, said, set: (p: PadLike | null) => (now = p) };
  }

  it('fires with RT, burns with LT, targets with X once per press, and flies with the sticks', () => {
    const r = rig();
    r.set(pad(['PadRT', 'PadLT', 'PadX'], [0.5, 0, 0, -1]));
    const s = r.input.sample();
    expect(s).toMatchObject({ fire: true, afterburner: true, thrust: 1 });
    expect(s.yaw).toBeCloseTo((0.5 - 0.15) / 0.85, 10);
    expect(r.input.takeTargetPresses()).toBe(1);
    // Held: no second target press; released: the fire stops.
    r.input.sample();
    expect(r.input.takeTargetPresses()).toBe(0);
    r.set(pad([], [0, 0, 0, 0]));
    expect(r.input.sample()).toMatchObject({ fire: false, afterburner: false, thrust: 0, yaw: 0 });
  });

  it('runs a button bound to a command once per press, and says when a pad comes and goes', () => {
    const r = rig(bind(defaultBindTable(), 'PadStart', 'netgraph 1'));
    r.set(pad(['PadStart']));
    r.input.sample();
    r.input.sample();
    r.set(pad());
    r.input.sample();
    r.set(pad(['PadStart']));
    r.input.sample();
    expect(r.commands).toEqual(['netgraph 1', 'netgraph 1']);
    r.set(null);
    r.input.sample();
    expect(r.said).toEqual(['gamepad connected: Test Pad (STANDARD GAMEPAD) (sticks fly, buttons as bound: bindlist)', 'gamepad disconnected']);
  });

  it('without a Gamepad API, keyboard and mouse alone', () => {
    const input = new InputState(defaultBindTable());
    input.pad = { current: () => new PadWatch(() => { throw new Error('no Gamepad API'); }, () => undefined).current(), config: () => ({ deadZone: 0.15, invertPitch: false }) };
    expect(input.sample()).toMatchObject({ thrust: 0, fire: false });
  });
});
