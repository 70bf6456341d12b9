/**
 * A settings-screen control for one cvar, drawn from the host's description
 * of it (CvarInfo: type, range or choices, default, help): a number field, an
 * on/off button or a row of choices. It shows the saved value, checks what
 * the player enters with the cvar's own rules (a clear line under the field
 * when it is refused, and nothing sent), and runs `<cvar> <value>` on the
 * host, which saves it and tells every page (the change applies at once).
 */
import { cvarChecker, type CvarInfo } from '../../../shared/console/cvarInfo';
import type { Settings } from '../../../shared/settings/settings';
import { el, type MenuContext } from './menuPanel';

/** How the screen shows one cvar. */
export interface CvarSpec {
  cvar: string;
  label: string;
  /** Step of a number field (Left/Right); 1 for an int, else a hundredth of the range. */
  step?: number;
  /** A number shown in larger units: the field holds value / scale (timelimit in minutes: 60). */
  scale?: number;
  /** The unit the field is in, for the hint and errors ("minutes"). */
  unit?: string;
}

export interface CvarControl {
  readonly element: HTMLElement;
  /** Shows the saved value (a field the player is editing keeps their text). */
  refresh(settings: Settings): void;
  /** A number field's text, checked and sent (Enter, Left/Right, leaving the field); absent for buttons. */
  commit?(): void;
  /** The field `commit` reads. */
  readonly input?: HTMLInputElement;
}

/** The control for `spec`, or a line saying the host has no such setting. */
export function cvarControl(ctx: MenuContext, info: CvarInfo | undefined, spec: CvarSpec): CvarControl {
  if (!info) {
    const element = el('p', 'menu-note settings-missing', `${spec.label}: this host has no ${spec.cvar} setting`);
    return { element, refresh: () => undefined };
  }
  if (info.type === 'bool') return toggleControl(ctx, info, spec);
  if (info.type === 'string' && info.allowed) return choiceControl(ctx, info, spec, info.allowed);
  if (info.type === 'int' || info.type === 'float') return numberControl(ctx, info, spec);
  const element = el('p', 'menu-note settings-missing', `${spec.label}: set it in the console (${info.name})`);
  return { element, refresh: () => undefined };
}

/** The saved text of `info`'s cvar, or its default. */
const savedText = (settings: Settings, info: CvarInfo): string => settings.cvars[info.name] ?? info.default;

/** A control's frame: the label and control on one line, the help (and any error) under them. */
function frame(info: CvarInfo, spec: CvarSpec, hint: string): { element: HTMLElement; line: HTMLElement; error: HTMLElement } {
  const element = el('div', 'settings-cvar');
  element.dataset['cvar'] = info.name;
  const line = el('div', 'menu-field');
  line.append(el('span', 'menu-field-label', spec.label));
  const error = el('p', 'settings-error');
  error.id = `settings-${info.name}-error`;
  error.hidden = true;
  element.append(line, el('p', 'menu-note settings-hint', hint), error);
  return { element, line, error };
}

function numberControl(ctx: MenuContext, info: CvarInfo, spec: CvarSpec): CvarControl {
  const checker = cvarChecker(info);
  const scale = spec.scale ?? 1;
  const unit = spec.unit ? ` ${spec.unit}` : '';
  // In larger units the field takes whole ones within the range.
  const lo = info.min === undefined ? undefined : scale === 1 ? info.min : Math.ceil(info.min / scale);
  const hi = info.max === undefined ? undefined : scale === 1 ? info.max : Math.floor(info.max / scale);
  const step = spec.step ?? (info.type === 'int' ? 1 : niceStep(((info.max ?? 1) - (info.min ?? 0)) / 100));
  const range = lo !== undefined && hi !== undefined ? `${lo}–${hi}, ` : '';
  // Rounded, so 0.1 + 0.2 shows as 0.3 and minutes as whole ones when they are.
  const shown = (text: string) => String(Number((Number(text) / scale).toFixed(6)));
  const units = scale === 1 ? '' : `here in ${spec.unit ?? `${scale}s`}: `;
  const { element, line, error } = frame(info, spec, `${info.help} (${units}${range}default ${shown(info.default)})`);
  const input = el('input', 'menu-input settings-number');
  input.type = 'number';
  input.id = `settings-${info.name}`;
  if (lo !== undefined) input.min = String(lo);
  if (hi !== undefined) input.max = String(hi);
  input.step = String(step);
  input.setAttribute('aria-label', spec.label);
  line.append(input);
  let saved = info.default;
  /** The player has typed since the field last showed the saved value. */
  let dirty = false;
  const fail = (text: string) => {
    error.textContent = `Not changed: ${text}`;
    error.hidden = false;
  };
  const commit = () => {
    dirty = false;
    const typed = input.value.trim();
    const n = Number(typed);
    if (typed === '' || !Number.isFinite(n)) return fail(`${spec.label} must be a number${range ? ` from ${lo} to ${hi}${unit}` : ''} (got ${typed === '' ? 'nothing' : JSON.stringify(typed)})`);
    if (scale !== 1 && (!Number.isInteger(n) || (lo !== undefined && n < lo) || (hi !== undefined && n > hi))) {
      return fail(`${spec.label} must be a whole number from ${lo} to ${hi}${unit} (got ${typed})`);
    }
    const checked = checker.set(String(n * scale));
    if (!checked.ok) return fail(checked.error);
    error.hidden = true;
    const text = String(checked.value);
    if (text !== saved) ctx.run(`${info.name} ${text}`);
  };
  input.addEventListener('input', () => (dirty = true));
  input.addEventListener('change', commit);
  return {
    element,
    input,
    commit,
    refresh: (settings) => {
      saved = savedText(settings, info);
      if (dirty && document.activeElement === input) return;
      dirty = false;
      input.value = shown(saved);
    },
  };
}

/** 1, 2 or 5 times a power of ten, the nearest at or above `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = [1, 2, 5, 10].find((f) => f * p >= raw * 0.999) ?? 10;
  return Number((m * p).toPrecision(1));
}

function toggleControl(ctx: MenuContext, info: CvarInfo, spec: CvarSpec): CvarControl {
  const { element, line } = frame(info, spec, `${info.help} (default ${info.default === '1' ? 'on' : 'off'})`);
  const button = el('button', 'menu-button settings-toggle');
  button.type = 'button';
  button.id = `settings-${info.name}`;
  let on = info.default === '1';
  button.addEventListener('click', () => ctx.run(`${info.name} ${on ? 0 : 1}`));
  line.append(button);
  return {
    element,
    refresh: (settings) => {
      on = savedText(settings, info) === '1';
      button.textContent = on ? 'on' : 'off';
      button.setAttribute('aria-pressed', String(on));
      button.setAttribute('aria-label', `${spec.label}: ${on ? 'on' : 'off'}`);
    },
  };
}

function choiceControl(ctx: MenuContext, info: CvarInfo, spec: CvarSpec, allowed: readonly string[]): CvarControl {
  const { element, line } = frame(info, spec, `${info.help} (default ${info.default})`);
  const group = el('div', 'settings-choices');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', spec.label);
  const buttons = allowed.map((value) => {
    const b = el('button', 'menu-button settings-choice', value);
    b.type = 'button';
    b.id = `settings-${info.name}-${value}`;
    b.addEventListener('click', () => ctx.run(`${info.name} ${value}`));
    return b;
  });
  group.append(...buttons);
  line.append(group);
  return {
    element,
    refresh: (settings) => {
      const now = savedText(settings, info).toLowerCase();
      allowed.forEach((value, i) => buttons[i]!.setAttribute('aria-pressed', String(value.toLowerCase() === now)));
    },
  };
}
