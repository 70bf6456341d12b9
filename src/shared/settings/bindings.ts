/**
 * Key bindings, Quake's way: one table from an input — a key
 * (KeyboardEvent.code, e.g. `KeyW`, `Space`), a mouse button (`Mouse1` left,
 * `Mouse2` right, `Mouse3` middle, as Quake numbers them) or a gamepad button
 * (`Pad…`) — to a command. Flight actions are commands (`+thrust`, `+fire`,
 * …, held while the input is down), so several inputs can share an action;
 * any other command (`say gg`, `netgraph 1`) runs once when its input is
 * pressed. `bind`, `unbind` and `bindlist` in the console and the settings
 * screen edit this one table. Pure data and validation.
 */

/** The flight and view actions an input can drive, by their command. */
export const ACTION_COMMANDS = {
  thrust: '+thrust',
  brake: '+brake',
  yawLeft: '+yawleft',
  yawRight: '+yawright',
  pitchUp: '+pitchup',
  pitchDown: '+pitchdown',
  rollLeft: '+rollleft',
  rollRight: '+rollright',
  fire: '+fire',
  afterburner: '+afterburner',
  missile: '+missile',
  mine: '+mine',
  emp: '+emp',
  /** Target the next other ship (for homing missiles): once per press. */
  target: 'target',
  /** The scoreboard, while held. */
  scoreboard: '+scores',
  console: 'toggleconsole',
} as const;

export type Action = keyof typeof ACTION_COMMANDS;
export type ActionCommand = (typeof ACTION_COMMANDS)[Action];

/** A gamepad's buttons as the table names them, in the standard mapping's order (button 0 is PadA). */
export const PAD_INPUTS: readonly string[] = ['PadA', 'PadB', 'PadX', 'PadY', 'PadLB', 'PadRB', 'PadLT', 'PadRT', 'PadBack', 'PadStart', 'PadLS', 'PadRS', 'PadUp', 'PadDown', 'PadLeft', 'PadRight', 'PadHome'];

/** Input → command. */
export type BindTable = Record<string, string>;

/** Longest command a binding may run. */
export const MAX_BOUND_COMMAND = 128;
/** Most bindings in one table (a hostile settings file cannot grow it without bound). */
export const MAX_BINDINGS = 256;

/** Whether `input` names an input: a KeyboardEvent.code, `Mouse1`..`Mouse5`, or a gamepad button `Pad…`. */
export function isInputName(input: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]{0,31}$/.test(input);
}

/** Whether `command` may be bound: 1..128 printable ASCII characters, no space at either end. */
export function isBindableCommand(command: string): boolean {
  return command.length >= 1 && command.length <= MAX_BOUND_COMMAND && /^[\x20-\x7e]+$/.test(command) && command.trim() === command;
}

/** The table a first start has: the README's controls. */
export function defaultBindTable(): BindTable {
  return {
    KeyW: '+thrust',
    KeyS: '+brake',
    KeyA: '+yawleft',
    KeyD: '+yawright',
    ArrowDown: '+pitchup',
    ArrowUp: '+pitchdown',
    KeyQ: '+rollleft',
    KeyE: '+rollright',
    Space: '+fire',
    Mouse1: '+fire',
    ShiftLeft: '+afterburner',
    KeyF: '+missile',
    Mouse2: '+missile',
    KeyG: '+mine',
    // Not KeyE: that rolls right.
    KeyR: '+emp',
    KeyT: 'target',
    Tab: '+scores',
    Backquote: 'toggleconsole',
    // A gamepad (standard mapping; the sticks fly: gamepad.ts): triggers fire and burn, face buttons the rest.
    PadRT: '+fire',
    PadLT: '+afterburner',
    PadA: '+missile',
    PadB: '+mine',
    PadY: '+emp',
    PadX: 'target',
    PadBack: '+scores',
  };
}

/**
 * A version-1 settings file's bindings (action → one key code, the mouse
 * buttons fixed in the page) as a table: every custom key kept, the mouse
 * buttons as the page had them (left fires, right launches a missile), and
 * the gamepad's defaults.
 * Returns the table and the actions whose saved key was not a valid input.
 */
export function migrateV1Bindings(v1: Record<string, unknown>): { table: BindTable; invalid: string[] } {
  const table: BindTable = {};
  const invalid: string[] = [];
  const defaults = defaultBindTable();
  const keyOf = (command: string) => Object.keys(defaults).find((input) => defaults[input] === command && !input.startsWith('Mouse'));
  for (const [action, command] of Object.entries(ACTION_COMMANDS) as [Action, string][]) {
    const saved = v1[action];
    const input = typeof saved === 'string' && isInputName(saved) ? saved : keyOf(command);
    if (saved !== undefined && input !== saved) invalid.push(action);
    // Two actions on one key in a v1 file: the first keeps it, as the page read them.
    if (input !== undefined && table[input] === undefined) table[input] = command;
  }
  table['Mouse1'] ??= ACTION_COMMANDS.fire;
  table['Mouse2'] ??= ACTION_COMMANDS.missile;
  // Version 1 knew no gamepad: its buttons get the defaults.
  for (const [input, command] of Object.entries(defaults)) if (input.startsWith('Pad')) table[input] ??= command;
  return { table, invalid };
}

/** `table` with `input` bound to `command` (a new table; one command per input). */
export function bind(table: BindTable, input: string, command: string): BindTable {
  return { ...table, [input]: command };
}

/** `table` without a binding for `input` (a new table). */
export function unbind(table: BindTable, input: string): BindTable {
  const out = { ...table };
  delete out[input];
  return out;
}

/** The inputs bound to `command`, in the table's order. */
export function inputsFor(table: BindTable, command: string): string[] {
  return Object.keys(table).filter((input) => table[input] === command);
}

/**
 * What binding `input` to `command` would take away: the command `input`
 * drives now, when it is another one (the settings screen shows it as a
 * conflict; `bind` replaces it and says so). Null when there is none.
 */
export function conflictOf(table: BindTable, input: string, command: string): string | null {
  const now = table[input];
  return now === undefined || now === command ? null : now;
}

/** The action a command drives, or undefined for any other command. */
export function actionOf(command: string): Action | undefined {
  return (Object.keys(ACTION_COMMANDS) as Action[]).find((a) => ACTION_COMMANDS[a] === command);
}

/**
 * A player's name for an input, as typed after `bind`: `w` → `KeyW`, `7` →
 * `Digit7`, `space` → `Space`, `shift` → `ShiftLeft`, `mouse1` → `Mouse1`,
 * `uparrow` → `ArrowUp`, `padstart` → `PadStart`; a KeyboardEvent.code
 * passes as it is (case aside for the short forms). Null when it names nothing.
 */
export function parseInputName(text: string): string | null {
  const t = text.trim();
  if (/^[a-z]$/i.test(t)) return `Key${t.toUpperCase()}`;
  if (/^[0-9]$/.test(t)) return `Digit${t}`;
  const alias = INPUT_ALIASES[t.toLowerCase()];
  if (alias) return alias;
  const mouse = /^mouse([1-5])$/i.exec(t);
  if (mouse) return `Mouse${mouse[1]}`;
  if (/^f([1-9]|1[0-2])$/i.test(t)) return t.toUpperCase();
  const pad = PAD_INPUTS.find((p) => p.toLowerCase() === t.toLowerCase());
  if (pad) return pad;
  return isInputName(t) && /^[A-Z]/.test(t) ? t : null;
}

const INPUT_ALIASES: Record<string, string> = {
  space: 'Space',
  shift: 'ShiftLeft',
  ctrl: 'ControlLeft',
  alt: 'AltLeft',
  tab: 'Tab',
  enter: 'Enter',
  backspace: 'Backspace',
  uparrow: 'ArrowUp',
  downarrow: 'ArrowDown',
  leftarrow: 'ArrowLeft',
  rightarrow: 'ArrowRight',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  '`': 'Backquote',
  backquote: 'Backquote',
};

/** What a player reads on an input: KeyW → W, ArrowDown → ↓, ShiftLeft → Left Shift, Backquote → ` (backquote), Mouse1 → left mouse. */
export function inputLabel(code: string): string {
  const letter = /^Key([A-Z])$/.exec(code);
  if (letter) return letter[1]!;
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (digit) return digit[1]!;
  const side = /^(Shift|Control|Alt|Meta)(Left|Right)$/.exec(code);
  if (side) return `${side[2]} ${side[1] === 'Control' ? 'Ctrl' : side[1]}`;
  return INPUT_LABELS[code] ?? code;
}

const INPUT_LABELS: Record<string, string> = {
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
  Mouse1: 'left mouse',
  Mouse2: 'right mouse',
  Mouse3: 'middle mouse',
  Mouse4: 'mouse 4',
  Mouse5: 'mouse 5',
  PadA: 'pad A',
  PadB: 'pad B',
  PadX: 'pad X',
  PadY: 'pad Y',
  PadLB: 'pad LB',
  PadRB: 'pad RB',
  PadLT: 'pad LT',
  PadRT: 'pad RT',
  PadBack: 'pad Back',
  PadStart: 'pad Start',
};

/**
 * Untrusted JSON (a settings file's `bindings`) as a table: valid entries
 * kept, the others listed in `issues`, at most MAX_BINDINGS.
 */
export function sanitizeBindTable(raw: unknown): { table: BindTable; issues: string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { table: defaultBindTable(), issues: ['bindings'] };
  const table: BindTable = {};
  const issues: string[] = [];
  for (const [input, command] of Object.entries(raw as Record<string, unknown>)) {
    if (Object.keys(table).length >= MAX_BINDINGS) {
      issues.push('bindings (too many)');
      break;
    }
    if (isInputName(input) && typeof command === 'string' && isBindableCommand(command)) table[input] = command;
    else issues.push(`bindings.${input.slice(0, 32)}`);
  }
  return { table, issues };
}
