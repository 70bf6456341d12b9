/**
 * `bind`, `unbind`, `unbindall` and `bindlist`: the console's side of the
 * bindings table (src/shared/settings/bindings.ts) — the same table the
 * settings screen edits, saved in settings.json and sent to the page, which
 * reads every key and mouse button through it at once.
 *
 *   bind <input>                 what <input> runs
 *   bind <input> <command…>      binds it (a flight action like +fire, or any console line)
 *   unbind <input>               frees it
 *   unbindall                    frees every input but the console key
 *   bindlist                     every binding, input by input
 */
import type { CommandDef } from '../../shared/console/registry';
import { actionOf, ACTION_COMMANDS, bind, conflictOf, defaultBindTable, inputLabel, isBindableCommand, parseInputName, unbind, type BindTable } from '../../shared/settings/bindings';
import type { HostService } from './hostService';

const ACTIONS = Object.values(ACTION_COMMANDS);
const INPUT_HELP = 'a key (w, space, shift, F5, or its code: KeyW, ArrowUp), mouse1..mouse5, or a gamepad button (Pad…)';

/** The console commands that edit the bindings table of `host`. */
export function bindCommands(host: HostService): CommandDef[] {
  const table = (): BindTable => host.settings.get().bindings;
  const save = (next: BindTable) => {
    const settings = host.settings.update((s) => {
      s.bindings = next;
    });
    host.emit({ kind: 'settings', settings });
  };
  const readInput = (text: string): string => {
    const input = parseInputName(text);
    if (input === null) throw new Error(`"${text.slice(0, 40)}" is no input: ${INPUT_HELP}`);
    return input;
  };
  const described = (input: string) => `${inputLabel(input)} (${input})`;
  return [
    {
      name: 'bind',
      help: 'show or set what a key, mouse button or gamepad button does: a flight action (+thrust, +fire, …) or any console line',
      usage: '<input> [command]',
      args: { min: 1 },
      complete: (_args, index) => (index === 1 ? ACTIONS : []),
      run: (args, out) => {
        const input = readInput(args[0] as string);
        if (args.length === 1) {
          const now = table()[input];
          return out.print(now === undefined ? `${described(input)} is not bound` : `${described(input)} runs "${now}"`);
        }
        const command = args.slice(1).join(' ').trim();
        if (!isBindableCommand(command)) return out.print(`bind: a command is 1–128 printable characters (got ${command.length})`, 'error');
        if (command.startsWith('+') && actionOf(command) === undefined) {
          return out.print(`bind: no action ${command}; the actions are ${ACTIONS.join(' ')}`, 'error');
        }
        const replaced = conflictOf(table(), input, command);
        save(bind(table(), input, command));
        out.print(`${described(input)} runs "${command}"${replaced === null ? '' : ` (it ran "${replaced}")`}`);
      },
    },
    {
      name: 'unbind',
      help: 'free a key, mouse button or gamepad button',
      usage: '<input>',
      args: { min: 1, max: 1 },
      run: (args, out) => {
        const input = readInput(args[0] as string);
        const was = table()[input];
        if (was === undefined) return out.print(`${described(input)} was not bound`);
        save(unbind(table(), input));
        out.print(`${described(input)} unbound (it ran "${was}")`);
      },
    },
    {
      name: 'unbindall',
      help: 'free every input but the console key (bindreset brings back the defaults)',
      args: { max: 0 },
      run: (_args, out) => {
        const keep = Object.fromEntries(Object.entries(table()).filter(([, command]) => command === ACTION_COMMANDS.console));
        save(keep);
        out.print(`every binding removed but the console key (${Object.keys(keep).map(inputLabel).join(', ') || 'none: ` still opens it'})`);
      },
    },
    {
      name: 'bindreset',
      help: 'bring back the default bindings (the controls in the README)',
      args: { max: 0 },
      run: (_args, out) => {
        save(defaultBindTable());
        out.print('bindings reset to the defaults (type keys to see them)');
      },
    },
    {
      name: 'bindlist',
      help: 'list every binding: input and the command it runs',
      args: { max: 0 },
      run: (_args, out) => {
        const entries = Object.entries(table());
        if (entries.length === 0) return out.print('nothing is bound (bindreset brings back the defaults)');
        const width = Math.max(...entries.map(([input]) => input.length));
        for (const [input, command] of entries) out.print(`  ${input.padEnd(width)}  ${command}`);
        out.print(`${entries.length} binding${entries.length === 1 ? '' : 's'}`);
      },
    },
  ];
}
