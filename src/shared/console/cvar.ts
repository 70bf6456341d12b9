/**
 * Console variables (Quake III cvars): a typed value with a default, checked
 * range, help text and flags, set from console text with one clear error line
 * when the text is wrong.
 */

/** The value types a cvar can hold. */
export type CvarType = 'int' | 'float' | 'bool' | 'string';

/** TypeScript type of a cvar's value: number for int/float, boolean for bool, string for string. */
export type CvarValueOf<T extends CvarType> = T extends 'bool' ? boolean : T extends 'string' ? string : number;

/** Cvar flags. `archive`: the host saves it in settings. `readOnly`: the console cannot set it. */
export interface CvarFlags {
  archive?: boolean;
  readOnly?: boolean;
}

/**
 * Definition of a cvar. `min`/`max` apply to int and float, `allowed` and
 * `maxLength` to string; anything else is a programmer error and the Cvar
 * constructor throws, as it does when the default breaks the cvar's own rules.
 */
export interface CvarDef<T extends CvarType = CvarType> {
  /** Name typed in the console; letters, digits, `_`, `.`, `+`, `-`, not starting with a digit or `.`. */
  name: string;
  type: T;
  default: CvarValueOf<T>;
  /** One-line description (only the first line is shown in listings). */
  help: string;
  min?: number;
  max?: number;
  /** Accepted values of a string cvar, matched case-insensitively and stored as spelled here. */
  allowed?: readonly string[];
  maxLength?: number;
  flags?: CvarFlags;
  /** Extra rule run after parsing and range checks: a short reason when `value` is refused, else null. */
  validate?(value: CvarValueOf<T>): string | null;
}

/** Outcome of setting a cvar: the stored value, or one line saying what was wrong. */
export type CvarSetResult<T extends CvarType = CvarType> =
  | { ok: true; value: CvarValueOf<T> }
  | { ok: false; error: string };

/** Called after the value changed (not when it was set to the same value). */
export type CvarListener<T extends CvarType = CvarType> = (
  value: CvarValueOf<T>,
  previous: CvarValueOf<T>,
  cvar: Cvar<T>,
) => void;

/** Options for {@link Cvar.set}: `force` bypasses `readOnly` (for the host, never for typed input). */
export interface CvarSetOptions {
  force?: boolean;
}

/** Names a cvar or command may have (also used by the registry). */
export const CONSOLE_NAME = /^[A-Za-z_+-][A-Za-z0-9_.+-]*$/;

const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOL_TEXT: Readonly<Record<string, boolean>> = { '0': false, '1': true, false: false, true: true, off: false, on: true };
const NUMBERISH = /^[+-]?[\d.]+(?:[eE][+-]?\d+)?$/;

/** Shows user input inside an error line: numbers bare, anything else quoted; long input cut. */
function shown(text: string): string {
  const cut = text.length > 32 ? text.slice(0, 32) + '…' : text;
  return NUMBERISH.test(cut) ? cut : JSON.stringify(cut);
}

/**
 * Validator for {@link CvarDef.validate} that refuses control characters
 * (names and chat text are printed to other players' terminals).
 */
export function requirePrintable(value: string): string | null {
  return /[\x00-\x1f\x7f-\x9f]/.test(value) ? 'must contain printable characters only' : null;
}

/** A live cvar. Made by `ConsoleCore.addCvar` (or directly, for tests and host-only settings). */
export class Cvar<T extends CvarType = CvarType> {
  readonly name: string;
  readonly type: T;
  readonly help: string;
  readonly flags: Readonly<CvarFlags>;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly allowed: readonly string[] | undefined;
  readonly maxLength: number | undefined;
  readonly defaultValue: CvarValueOf<T>;
  private current: CvarValueOf<T>;
  // Method-shaped and `unknown`-typed on purpose: function-typed fields over T would make
  // Cvar invariant in T, and then a Cvar<'int'> could not be used where a Cvar is expected.
  private readonly validateHook: ((value: unknown) => string | null) | undefined;
  private readonly listeners = new Set<{ run(value: CvarValueOf<T>, previous: CvarValueOf<T>, cvar: Cvar<T>): void }>();
  private onDispose: (() => void) | undefined;
  private isDisposed = false;

  /** Checks `def` and throws on a programmer error; `onDispose` is how the registry learns of {@link dispose}. */
  constructor(def: CvarDef<T>, onDispose?: () => void) {
    if (!CONSOLE_NAME.test(def.name)) throw new Error(`invalid cvar name ${JSON.stringify(def.name)}`);
    const numeric = def.type === 'int' || def.type === 'float';
    if (!numeric && (def.min !== undefined || def.max !== undefined)) throw new Error(`cvar ${def.name}: min/max need a number type`);
    if (def.type !== 'string' && (def.allowed !== undefined || def.maxLength !== undefined))
      throw new Error(`cvar ${def.name}: allowed/maxLength need type string`);
    if (def.min !== undefined && def.max !== undefined && !(def.min <= def.max)) throw new Error(`cvar ${def.name}: min > max`);
    if (def.allowed !== undefined && def.allowed.length === 0) throw new Error(`cvar ${def.name}: allowed is empty`);
    this.name = def.name;
    this.type = def.type;
    this.help = def.help;
    this.flags = Object.freeze({ ...def.flags });
    this.min = def.min;
    this.max = def.max;
    this.allowed = def.allowed ? Object.freeze([...def.allowed]) : undefined;
    this.maxLength = def.maxLength;
    const hook = def.validate;
    this.validateHook = hook ? (v) => hook.call(def, v as CvarValueOf<T>) : undefined;
    const checked = this.check(def.default);
    if (!checked.ok) throw new Error(`cvar ${def.name}: bad default: ${checked.error}`);
    this.defaultValue = checked.value;
    this.current = checked.value;
    this.onDispose = onDispose;
  }

  /** Current value. */
  get value(): CvarValueOf<T> {
    return this.current;
  }

  /** Current value as console text (bools as `1`/`0`), which {@link set} accepts back. */
  get text(): string {
    return this.format(this.current);
  }

  /** Default value as console text. */
  get defaultText(): string {
    return this.format(this.defaultValue);
  }

  /** True when the value equals the default. */
  get isDefault(): boolean {
    return this.current === this.defaultValue;
  }

  /** True after {@link dispose}. */
  get disposed(): boolean {
    return this.isDisposed;
  }

  /**
   * Parses console text and stores it if it passes every check; never throws
   * for bad text. Refused when read-only unless `force`. A listener that throws
   * does not undo the change; the first such error is rethrown after all ran.
   */
  set(text: string, options: CvarSetOptions = {}): CvarSetResult<T> {
    if (this.flags.readOnly && !options.force) return { ok: false, error: `${this.name} is read-only` };
    const parsed = this.parse(text);
    if (!parsed.ok) return parsed;
    return this.store(parsed.value, text);
  }

  /** Like {@link set} for a typed value (settings files, host code); a wrong JS type is refused too. */
  setValue(value: CvarValueOf<T>, options: CvarSetOptions = {}): CvarSetResult<T> {
    if (this.flags.readOnly && !options.force) return { ok: false, error: `${this.name} is read-only` };
    return this.store(value, String(value));
  }

  /** Puts the default back (subject to read-only like {@link set}). */
  reset(options: CvarSetOptions = {}): CvarSetResult<T> {
    return this.setValue(this.defaultValue, options);
  }

  /** Adds a change listener; returns its remover (idempotent). */
  onChange(listener: CvarListener<T>): () => void {
    // A fresh box per call, so adding the same function twice gives two independent registrations.
    const entry = { run: listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** What the console prints for the bare name: `name is "20" (default "20", range 5 to 60) — help`. */
  describe(): string {
    const notes = [`default ${JSON.stringify(this.defaultText)}`];
    const c = this.constraintText();
    if (c) notes.push(c);
    if (this.flags.readOnly) notes.push('read-only');
    if (this.flags.archive) notes.push('archived');
    const help = this.help.split('\n')[0] ?? '';
    return `${this.name} is ${JSON.stringify(this.text)} (${notes.join(', ')})${help ? ' — ' + help : ''}`;
  }

  /** Short text of what values are accepted (`range 5 to 60`, `0 or 1`, `one of a|b`), or '' if anything goes. */
  constraintText(): string {
    switch (this.type) {
      case 'bool':
        return '0 or 1';
      case 'string':
        if (this.allowed) return `one of ${this.allowed.join('|')}`;
        return this.maxLength !== undefined ? `at most ${this.maxLength} characters` : '';
      default:
        if (this.min !== undefined && this.max !== undefined) return `range ${this.min} to ${this.max}`;
        if (this.min !== undefined) return `at least ${this.min}`;
        return this.max !== undefined ? `at most ${this.max}` : '';
    }
  }

  /** Detaches the cvar: listeners are dropped and its registry (if any) forgets it. Idempotent. */
  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.listeners.clear();
    const cb = this.onDispose;
    this.onDispose = undefined;
    cb?.();
  }

  private store(value: CvarValueOf<T>, input: string): CvarSetResult<T> {
    const checked = this.check(value, input);
    if (!checked.ok) return checked;
    const previous = this.current;
    this.current = checked.value;
    if (previous !== checked.value) this.notify(checked.value, previous);
    return checked;
  }

  private notify(value: CvarValueOf<T>, previous: CvarValueOf<T>): void {
    let firstError: unknown;
    let failed = false;
    // Snapshot: a listener may add or remove listeners while we iterate.
    for (const l of [...this.listeners]) {
      try {
        l.run(value, previous, this);
      } catch (e) {
        if (!failed) firstError = e;
        failed = true;
      }
    }
    if (failed) throw firstError;
  }

  /** The "must be …" phrase for number and bool errors. */
  private expectation(): string {
    if (this.type === 'bool') return 'must be 0/1, true/false or on/off';
    const kind = this.type === 'int' ? 'an integer' : 'a number';
    if (this.min !== undefined && this.max !== undefined) return `must be ${kind} from ${this.min} to ${this.max}`;
    if (this.min !== undefined) return `must be ${kind} of at least ${this.min}`;
    if (this.max !== undefined) return `must be ${kind} of at most ${this.max}`;
    return `must be ${kind}`;
  }

  private parse(text: string): CvarSetResult<T> {
    const bad = (): CvarSetResult<T> => ({ ok: false, error: `${this.name} ${this.expectation()} (got ${shown(text)})` });
    if (this.type === 'string') return { ok: true, value: text as CvarValueOf<T> };
    const t = text.trim();
    if (this.type === 'bool') {
      const b = Object.hasOwn(BOOL_TEXT, t.toLowerCase()) ? BOOL_TEXT[t.toLowerCase()] : undefined;
      return b === undefined ? bad() : { ok: true, value: b as CvarValueOf<T> };
    }
    if (!(this.type === 'int' ? INT_TEXT : FLOAT_TEXT).test(t)) return bad();
    return { ok: true, value: Number(t) as CvarValueOf<T> };
  }

  /** Type, range and hook checks on a parsed or typed value; `input` is what the user typed, for the message. */
  private check(value: CvarValueOf<T>, input: string = String(value)): CvarSetResult<T> {
    const bad = (): CvarSetResult<T> => ({ ok: false, error: `${this.name} ${this.expectation()} (got ${shown(input)})` });
    let v: CvarValueOf<T> = value;
    switch (this.type) {
      case 'bool':
        if (typeof v !== 'boolean') return bad();
        break;
      case 'int':
      case 'float':
        if (typeof v !== 'number' || !Number.isFinite(v)) return bad();
        if (this.type === 'int' && !Number.isSafeInteger(v)) return bad();
        if ((this.min !== undefined && v < this.min) || (this.max !== undefined && v > this.max)) return bad();
        break;
      case 'string': {
        if (typeof v !== 'string') return { ok: false, error: `${this.name} must be text (got ${shown(input)})` };
        if (this.allowed) {
          const lower = (v as string).toLowerCase();
          const match = this.allowed.find((a) => a.toLowerCase() === lower);
          if (match === undefined)
            return { ok: false, error: `${this.name} must be one of ${this.allowed.join(', ')} (got ${shown(input)})` };
          v = match as CvarValueOf<T>;
        }
        const len = (v as string).length;
        if (this.maxLength !== undefined && len > this.maxLength)
          return { ok: false, error: `${this.name} must be at most ${this.maxLength} characters (got ${len})` };
        break;
      }
    }
    const reason = this.validateHook?.(v) ?? null;
    return reason === null ? { ok: true, value: v } : { ok: false, error: `${this.name}: ${reason}` };
  }

  private format(value: CvarValueOf<T>): string {
    return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
  }
}
