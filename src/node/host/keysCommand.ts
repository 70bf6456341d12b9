/**
 * `keys`: the controls, as the player's key bindings (settings.json,
 * "bindings") have them — the README's controls table, in the console. `help`
 * ends with a line pointing here, so a new player finds the keys from the
 * one command everyone tries first.
 */
import type { CommandDef } from '../../shared/console/registry';
import type { KeyBindings } from '../../shared/settings/settings';
import { RULES } from '../../shared/game/rules';

/** The line `help` ends with. */
export const KEYS_HINT = 'keys: type keys for the controls (fly, fire, missiles, mines, EMP, target, scoreboard, console)';

/** What a player reads on the key of a KeyboardEvent.code: KeyW → W, ArrowDown → ↓, ShiftLeft → Left Shift, Backquote → ` (backquote). */
export function keyLabel(code: string): string {
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return letter[1]!;
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (digit) return digit[1]!;
  const side = /^(Shift|Control|Alt|Meta)(Left|Right)$/.exec(code);
  if (side) return `${side[2]} ${side[1] === 'Control' ? 'Ctrl' : side[1]}`;
  const named: Record<string, string> = {
    ArrowUp: '↑',
    ArrowDown: '↓',
    ArrowLeft: '←',
    ArrowRight: '→',
    Backquote: '` (backquote)',
    Minus: '-',
    Equal: '=',
    BracketLeft: '[',
    BracketRight: ']',
    Backslash: '\\',
    Semicolon: ';',
    Quote: "'",
    Comma: ',',
    Period: '.',
    Slash: '/',
  };
  return named[code] ?? code;
}

/** The controls table, one [keys, action] row each, with `bindings`' keys. */
export function keyRows(bindings: KeyBindings): [string, string][] {
  const k = keyLabel;
  return [
    [`${k(bindings.thrust)} / ${k(bindings.brake)}`, 'thrust / reverse'],
    [`${k(bindings.yawLeft)} / ${k(bindings.yawRight)}`, 'yaw left / right'],
    [`${k(bindings.pitchUp)} / ${k(bindings.pitchDown)}`, 'pitch up / down'],
    [`${k(bindings.rollLeft)} / ${k(bindings.rollRight)}`, 'roll left / right'],
    [`${k(bindings.fire)}, left mouse`, 'fire laser'],
    [k(bindings.afterburner), 'afterburner (burns energy)'],
    [`${k(bindings.missile)}, right mouse`, 'launch a missile (homing on the target when it can lock on)'],
    [k(bindings.mine), 'drop a proximity mine'],
    [k(bindings.emp), `EMP pulse (needs ${RULES.emp.energyCost} energy)`],
    [k(bindings.target), 'target the next other ship'],
    [`${k(bindings.scoreboard)} (hold)`, 'scoreboard'],
    ['mouse', 'yaw and pitch (click the view to capture it)'],
    [k(bindings.console), 'open or close this console'],
  ];
}

/** The `keys` command, reading the bindings from `bindings()` each time. */
export function keysCommand(bindings: () => KeyBindings): CommandDef {
  return {
    name: 'keys',
    help: 'list the controls: the keys that fly, fire, target, show the scoreboard and open the console',
    args: { max: 0 },
    run: (_args, out) => {
      const rows = keyRows(bindings());
      const width = Math.max(...rows.map(([keys]) => keys.length));
      out.print('keys (the bindings in settings.json):');
      for (const [keys, action] of rows) out.print(`  ${keys.padEnd(width)}  ${action}`);
    },
  };
}
