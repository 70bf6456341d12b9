/**
 * The settings screen's Controls section: every action of the bindings table
 * with the keys, mouse buttons and gamepad buttons bound to it. Clicking one
 * waits for the input to put in its place (+ adds one more), × frees it, and
 * "Reset to defaults" brings the defaults back — each by the console's own
 * `bind`, `unbind` and `bindreset`. An input already bound to another action
 * is named and the player chooses to replace it or cancel. Then the mouse's
 * and the gamepad's cvars.
 */
import { ACTION_COMMANDS, actionOf, conflictOf, inputLabel, inputsFor, type Action, type BindTable } from '../../../shared/settings/bindings';
import type { CvarInfo } from '../../../shared/console/cvarInfo';
import type { Settings } from '../../../shared/settings/settings';
import type { BindCapture } from './bindCapture';
import { cvarControl, type CvarControl } from './cvarControls';
import { el, menuButton, type MenuContext } from './menuPanel';

/** What each action is called on the screen. */
export const ACTION_LABELS: Readonly<Record<Action, string>> = {
  thrust: 'Thrust',
  brake: 'Reverse',
  yawLeft: 'Yaw left',
  yawRight: 'Yaw right',
  pitchUp: 'Pitch up',
  pitchDown: 'Pitch down',
  rollLeft: 'Roll left',
  rollRight: 'Roll right',
  fire: 'Fire laser',
  afterburner: 'Afterburner',
  missile: 'Launch missile',
  mine: 'Drop mine',
  emp: 'EMP pulse',
  target: 'Target next ship',
  scoreboard: 'Scoreboard (hold)',
  console: 'Console',
};

/** A bound command as a player reads it: the action's name, or the console line in quotes. */
export function commandLabel(command: string): string {
  const action = actionOf(command);
  return action === undefined ? `"${command}"` : ACTION_LABELS[action];
}

/**
 * The console lines that bind `input` to `command` in place of `replacing`
 * (null: as one more input), or null when there is nothing to do (`input`
 * already runs `command`).
 */
export function rebindLines(table: BindTable, command: string, input: string, replacing: string | null): string | null {
  if (table[input] === command) return null;
  // The new input first: the row never shows the action without the input taking the old one's place.
  const lines = [`bind ${input} ${command}`];
  if (replacing !== null && replacing !== input && table[replacing] === command) lines.push(`unbind ${replacing}`);
  return lines.join('; ');
}

/** Inputs in the order a row shows them: keys, then mouse buttons, then gamepad buttons (each in the table's order). */
export function byKind(inputs: readonly string[]): string[] {
  const kind = (input: string) => (/^Mouse\d$/.test(input) ? 1 : input.startsWith('Pad') ? 2 : 0);
  return [...inputs].sort((a, b) => kind(a) - kind(b));
}

export interface ControlsSection {
  readonly element: HTMLElement;
  readonly cvars: CvarControl[];
  refresh(settings: Settings): void;
}

export function controlsSection(ctx: MenuContext, capture: BindCapture, infoOf: (name: string) => CvarInfo | undefined): ControlsSection {
  const element = el('section', 'settings-section');
  element.id = 'settings-controls';
  const status = el('p', 'menu-note settings-status');
  status.id = 'settings-bind-status';
  status.setAttribute('aria-live', 'polite');
  const list = el('div', 'settings-bindings');
  const others = el('div', 'settings-bindings settings-other-bindings');
  const reset = menuButton('Reset controls to defaults', () => capture.ask('Reset controls', 'Put every key, mouse button and gamepad button back as it was at the first start? Your own bindings are lost.', 'Reset', () => {
    say('controls reset to the defaults');
    ctx.run('bindreset');
  }), 'settings-bindreset');
  reset.classList.add('settings-wide');
  element.append(
    el('h2', 'settings-heading', 'Controls'),
    el('p', 'menu-note', 'Click a key to change it, + to add one, × to free it; then press the key, mouse button or gamepad button (Esc cancels).'),
    status,
    list,
    others,
    reset,
  );
  const cvars = [
    cvarControl(ctx, infoOf('sensitivity'), { cvar: 'sensitivity', label: 'Mouse sensitivity', step: 0.1 }),
    cvarControl(ctx, infoOf('m_invert'), { cvar: 'm_invert', label: 'Invert mouse' }),
    cvarControl(ctx, infoOf('joy_deadzone'), { cvar: 'joy_deadzone', label: 'Gamepad dead zone', step: 0.05 }),
    cvarControl(ctx, infoOf('joy_invert'), { cvar: 'joy_invert', label: 'Invert gamepad' }),
  ];
  element.append(...cvars.map((c) => c.element));

  function say(text: string): void {
    status.textContent = text;
  }

  /** The focus key to give the focus to once the table the host sends next is drawn. */
  let focusNext: string | null = null;

  /** Waits for an input for `action`, then binds it in place of `replacing` (or as one more). */
  const rebind = (action: Action, replacing: string | null) => {
    const label = ACTION_LABELS[action];
    capture.waitFor(label, (input) => {
      const command = ACTION_COMMANDS[action];
      const table = ctx.settings().bindings;
      const lines = rebindLines(table, command, input, replacing);
      if (lines === null) return say(`${inputLabel(input)} is already bound to ${label}`);
      const apply = () => {
        focusNext = `${action}:${input}`;
        say(`${inputLabel(input)}: ${label}`);
        ctx.run(lines);
      };
      const other = conflictOf(table, input, command);
      if (other === null) return apply();
      const taken = commandLabel(other);
      capture.ask('Key in use', `${inputLabel(input)} is bound to ${taken}. Bind it to ${label} instead? ${taken} loses it.`, 'Replace', apply);
    });
  };

  const row = (labelText: string, id: string) => {
    const r = el('div', 'settings-bind-row');
    r.id = id;
    const inputs = el('div', 'settings-bind-inputs');
    r.append(el('span', 'settings-bind-label', labelText), inputs);
    return { r, inputs };
  };
  const keyed = <T extends HTMLElement>(e: T, key: string): T => {
    e.dataset['focusKey'] = key;
    return e;
  };

  const draw = (table: BindTable) => {
    const rows = (Object.keys(ACTION_COMMANDS) as Action[]).map((action) => {
      const label = ACTION_LABELS[action];
      const { r, inputs } = row(label, `bind-${action}`);
      const bound = byKind(inputsFor(table, ACTION_COMMANDS[action]));
      for (const input of bound) {
        const chip = keyed(menuButton(inputLabel(input), () => rebind(action, input), `bind-${action}-${input}`), `${action}:${input}`);
        chip.classList.add('settings-chip');
        chip.setAttribute('aria-label', `${label}: ${inputLabel(input)} (change)`);
        const clear = keyed(menuButton('×', () => {
          focusNext = `${action}:add`;
          say(`${inputLabel(input)} freed`);
          ctx.run(`unbind ${input}`);
        }, `bind-${action}-${input}-clear`), `${action}:${input}:clear`);
        clear.classList.add('settings-chip-clear');
        clear.setAttribute('aria-label', `free ${inputLabel(input)} from ${label}`);
        const pair = el('span', 'settings-chip-pair');
        pair.append(chip, clear);
        inputs.append(pair);
      }
      if (bound.length === 0) inputs.append(el('span', 'settings-unbound', 'unbound'));
      const add = keyed(menuButton('+', () => rebind(action, null), `bind-${action}-add`), `${action}:add`);
      add.classList.add('settings-chip-add');
      add.setAttribute('aria-label', `add a key for ${label}`);
      inputs.append(add);
      return r;
    });
    list.replaceChildren(...rows);
    // Inputs bound to console lines (bind F5 "say gg"): listed so they can be freed; the console makes them.
    const commands = Object.entries(table).filter(([, command]) => actionOf(command) === undefined);
    others.replaceChildren(...(commands.length > 0 ? [el('h3', 'settings-subheading', 'Keys bound to console commands')] : []), ...commands.map(([input, command]) => {
      const { r, inputs } = row(`"${command}"`, `bind-line-${input}`);
      const clear = keyed(menuButton(`${inputLabel(input)} ×`, () => {
        say(`${inputLabel(input)} freed`);
        ctx.run(`unbind ${input}`);
      }, `bind-line-${input}-clear`), `line:${input}`);
      clear.setAttribute('aria-label', `free ${inputLabel(input)} (it runs "${command}")`);
      inputs.append(clear);
      return r;
    }));
  };

  let drawn = '';
  return {
    element,
    cvars,
    refresh: (settings) => {
      for (const c of cvars) c.refresh(settings);
      const text = JSON.stringify(settings.bindings);
      if (text === drawn) return;
      drawn = text;
      // The focus stays on the same input's button when the table is drawn again (or goes where an action asked).
      const active = document.activeElement instanceof HTMLElement && element.contains(document.activeElement) ? (document.activeElement.dataset['focusKey'] ?? null) : null;
      const want = focusNext ?? active;
      focusNext = null;
      draw(settings.bindings);
      if (want === null || capture.busy) return;
      const action = want.split(':')[0];
      const target = element.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(want)}"]`) ?? element.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(`${action}:add`)}"]`);
      target?.focus();
    },
  };
}
