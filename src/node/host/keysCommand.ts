/**
 * `keys`: the controls, as the player's key bindings (settings.json,
 * "bindings") have them — the README's controls table, in the console. `help`
 * ends with a line pointing here, so a new player finds the keys from the
 * one command everyone tries first.
 */
import type { CommandDef } from '../../shared/console/registry';
import { ACTION_COMMANDS, inputLabel, inputsFor, type Action, type BindTable } from '../../shared/settings/bindings';
import { RULES } from '../../shared/game/rules';

/** The line `help` ends with. */
export const KEYS_HINT = 'keys: type keys for the controls (fly, fire, missiles, mines, EMP, target, scoreboard, console)';

/** What a player reads on an input (bindings.ts). */
export const keyLabel = inputLabel;

/** The controls table, one [keys, action] row each, with the inputs `table` binds to each action. */
export function keyRows(table: BindTable): [string, string][] {
  const k = (action: Action) => inputsFor(table, ACTION_COMMANDS[action]).map(inputLabel).join(', ') || 'unbound';
  return [
    [`${k('thrust')} / ${k('brake')}`, 'thrust / reverse'],
    [`${k('yawLeft')} / ${k('yawRight')}`, 'yaw left / right'],
    [`${k('pitchUp')} / ${k('pitchDown')}`, 'pitch up / down'],
    [`${k('rollLeft')} / ${k('rollRight')}`, 'roll left / right'],
    [k('fire'), 'fire laser'],
    [k('afterburner'), 'afterburner (burns energy)'],
    [k('missile'), 'launch a missile (homing on the target when it can lock on)'],
    [k('mine'), 'drop a proximity mine'],
    [k('emp'), `EMP pulse (needs ${RULES.emp.energyCost} energy)`],
    [k('target'), 'target the next other ship'],
    [`${k('scoreboard')} (hold)`, 'scoreboard'],
    ['mouse', 'yaw and pitch (click the view to capture it)'],
    [k('console'), 'open or close this console'],
  ];
}

/** The `keys` command, reading the bindings from `bindings()` each time. */
export function keysCommand(bindings: () => BindTable): CommandDef {
  return {
    name: 'keys',
    help: 'list the controls: the keys that fly, fire, target, show the scoreboard and open the console (bind changes them)',
    args: { max: 0 },
    run: (_args, out) => {
      const rows = keyRows(bindings());
      const width = Math.max(...rows.map(([keys]) => keys.length));
      out.print('keys (the bindings in settings.json; bind and unbind change them):');
      for (const [keys, action] of rows) out.print(`  ${keys.padEnd(width)}  ${action}`);
    },
  };
}
