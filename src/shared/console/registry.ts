/**
 * The console's command registry and dispatcher (Quake III's Cmd_* and the
 * cvar half of Cvar_Command): subsystems add commands and cvars on init and
 * remove them on kill; `execute` runs typed lines; `complete` serves Tab.
 *
 * Runs in the main process; the renderer only edits lines and shows output.
 * Names are matched case-insensitively and shown as they were defined.
 */

import { CONSOLE_NAME, Cvar } from './cvar';
import type { CvarDef, CvarType } from './cvar';
import type { OutputLevel } from './colors';
import { MAX_LINE_LENGTH, quoteArgument, splitCommandSegments, splitCommands, tokenize, tokenizeDetailed } from './tokenize';

/** Where console text goes. Each call is one message (normally one line); level defaults to info. */
export interface ConsoleOutput {
  print(text: string, level?: OutputLevel): void;
}

/** A console command. */
export interface CommandDef {
  /** Name typed in the console (same character rules as cvar names). */
  name: string;
  /** One-line description shown by `help`. */
  help: string;
  /** Argument synopsis shown after the name, e.g. `<host> [port]` (without the name itself). */
  usage?: string;
  /** Allowed argument count (not counting the name); outside it the usage line is printed and `run` is not called. */
  args?: { min?: number; max?: number };
  /**
   * Candidates for argument `argIndex` (0 = first after the name). `args` holds
   * the arguments so far; `args[argIndex]` is the partial word ('' for a new
   * one). Results are filtered by that prefix for you; throwing means none.
   */
  complete?(args: string[], argIndex: number): string[];
  /** Runs with the arguments after the name. Throwing or rejecting prints one error line. */
  run(args: string[], out: ConsoleOutput): void | Promise<void>;
}

/** Result of {@link ConsoleCore.complete}. */
export interface Completion {
  /** The input with the word completed as far as all candidates agree (plus a space when there is one candidate). */
  line: string;
  /** Every match, sorted; the renderer lists them when there is more than one. */
  candidates: string[];
}

/**
 * Handles a line whose first word is neither a command nor a cvar (the host
 * makes it chat). `line` is that one command of the line, `args` its words.
 */
export type FallbackHandler = (line: string, args: string[], out: ConsoleOutput) => void | Promise<void>;

/** Options for {@link ConsoleCore}. */
export interface ConsoleCoreOptions {
  fallback?: FallbackHandler;
}

const byName = (a: string, b: string): number => {
  // Code-unit order on lowercased names, not localeCompare: same order on every machine.
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

const firstLine = (text: string): string => text.split(/\r\n|\r|\n/)[0] ?? '';

/**
 * The usage line of a command: `usage: <name> <synopsis>`. A synopsis that
 * already starts with the command's name (as some were written) does not get
 * it twice, so `help connect` never says "usage: connect connect …".
 */
export function usageLine(cmd: Pick<CommandDef, 'name' | 'usage'>): string {
  const synopsis = (cmd.usage ?? '').trim();
  const words = synopsis.split(/\s+/);
  const rest = words[0]?.toLowerCase() === cmd.name.toLowerCase() ? words.slice(1).join(' ') : synopsis;
  return `usage: ${cmd.name}${rest ? ' ' + rest : ''}`;
}

/** One line from whatever was thrown, without ever throwing itself. */
function errorText(e: unknown): string {
  try {
    const text = firstLine(e instanceof Error ? e.message : String(e)).trim();
    return text || 'failed';
  } catch {
    return 'failed';
  }
}

/** Optimal-string-alignment distance (a swap of neighbours counts 1, so `hlep` is 1 from `help`). */
function editDistance(a: string, b: string): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] ?? 0) + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** Command registry, cvar table and dispatcher of one console. */
export class ConsoleCore {
  /** Called for lines whose first word is unknown; when unset, the unknown-command line is printed. */
  fallback: FallbackHandler | undefined;
  /** Lines `help` prints after the list of commands and cvars (e.g. where to find the keys). */
  helpFooter: readonly string[] = [];
  private readonly commandMap = new Map<string, CommandDef>();
  private readonly cvarMap = new Map<string, Cvar>();

  /** Makes a console with the built-in `help` command. */
  constructor(options: ConsoleCoreOptions = {}) {
    this.fallback = options.fallback;
    this.addCommand({
      name: 'help',
      help: 'list commands and cvars, or describe one',
      usage: '[name]',
      args: { max: 1 },
      complete: (_args, argIndex) => (argIndex === 0 ? this.allNames() : []),
      run: (args, out) => (args[0] === undefined ? this.printList(out) : this.printOne(args[0], out)),
    });
  }

  /**
   * Registers a command; returns its remover (idempotent, and harmless after
   * the name was reused). Throws on a bad or already used name: programmer error.
   */
  addCommand(def: CommandDef): () => void {
    const key = this.claim(def.name, 'command');
    const { min = 0, max = Infinity } = def.args ?? {};
    if (min < 0 || min > max) throw new Error(`command ${def.name}: bad args range`);
    this.commandMap.set(key, def);
    return () => {
      if (this.commandMap.get(key) === def) this.commandMap.delete(key);
    };
  }

  /** Removes a command by name; false when there was none. */
  removeCommand(name: string): boolean {
    return this.commandMap.delete(name.toLowerCase());
  }

  /**
   * Registers a cvar and returns its handle; `handle.dispose()` or
   * {@link removeCvar} removes it. Throws on a bad def or a used name.
   */
  addCvar<T extends CvarType>(def: CvarDef<T>): Cvar<T> {
    const key = this.claim(def.name, 'cvar');
    const cvar: Cvar<T> = new Cvar(def, () => {
      if (this.cvarMap.get(key) === cvar) this.cvarMap.delete(key);
    });
    this.cvarMap.set(key, cvar);
    return cvar;
  }

  /** Removes and disposes a cvar by name; false when there was none. */
  removeCvar(name: string): boolean {
    const cvar = this.cvarMap.get(name.toLowerCase());
    cvar?.dispose();
    return cvar !== undefined;
  }

  /** All commands, sorted by name. */
  commands(): CommandDef[] {
    return [...this.commandMap.values()].sort((a, b) => byName(a.name, b.name));
  }

  /** All cvars, sorted by name. */
  cvars(): Cvar[] {
    return [...this.cvarMap.values()].sort((a, b) => byName(a.name, b.name));
  }

  /** The command called `name` (any case). */
  command(name: string): CommandDef | undefined {
    return this.commandMap.get(name.toLowerCase());
  }

  /** The cvar called `name` (any case). */
  cvar(name: string): Cvar | undefined {
    return this.cvarMap.get(name.toLowerCase());
  }

  /**
   * Runs a typed line: split on `;`, each command in turn, awaiting async ones.
   * Every failure becomes one printed line; the promise never rejects. The line
   * is not echoed (the renderer already shows it). A first word written `/name`
   * or `\name` is always a command, never passed to the fallback (Quake habit).
   */
  async execute(line: string, out: ConsoleOutput): Promise<void> {
    try {
      if (line.length > MAX_LINE_LENGTH) {
        out.print(`line too long (${line.length} characters, limit ${MAX_LINE_LENGTH})`, 'error');
        return;
      }
      // Looked up one by one, so a command can add or remove the ones after it.
      for (const command of splitCommands(line)) await this.dispatch(command, out);
    } catch {
      // Only reachable when `out.print` itself throws; there is nowhere left to report it.
    }
  }

  /** `unknown command "foo" — type help for a list`, with a "did you mean" when a close name exists. */
  unknownCommandMessage(name: string): string {
    const near = this.suggest(name);
    const hint = near.length ? `did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}? Type help for a list` : 'type help for a list';
    return `unknown command ${JSON.stringify(name.slice(0, 40))} — ${hint}`;
  }

  /** Up to three command or cvar names close to `name`: small edit distance, or starting with it (3+ letters). */
  suggest(name: string): string[] {
    const typed = name.toLowerCase();
    const limit = Math.min(2, Math.floor(typed.length / 2));
    const scored: Array<[number, string]> = [];
    for (const n of this.allNames()) {
      const lower = n.toLowerCase();
      if (typed.length >= 3 && lower.startsWith(typed)) scored.push([limit + 1, n]);
      else if (Math.abs(lower.length - typed.length) <= limit) {
        const d = editDistance(typed, lower);
        if (d <= limit) scored.push([d, n]);
      }
    }
    return scored.sort((a, b) => a[0] - b[0] || byName(a[1], b[1])).slice(0, 3).map((s) => s[1]);
  }

  /**
   * Completes the word at the end of `line` (the text before the cursor): the
   * first word of the last `;` command against command and cvar names, later
   * words through the command's `complete` or the cvar's values. Never throws.
   */
  complete(line: string): Completion {
    const none: Completion = { line, candidates: [] };
    if (line.length > MAX_LINE_LENGTH) return none;
    const seg = splitCommandSegments(line).at(-1);
    if (!seg || seg.comment) return none;
    const tokens = tokenizeDetailed(seg.text).tokens;
    const last = tokens.at(-1);
    const partialTok = last && last.end === seg.text.length ? last : undefined;
    const wordIndex = partialTok ? tokens.length - 1 : tokens.length;
    let partial = partialTok?.text ?? '';
    let lead = '';
    let pool: readonly string[];
    if (wordIndex === 0) {
      if (!partialTok?.quoted && /^[/\\]/.test(partial)) {
        lead = partial.slice(0, 1);
        partial = partial.slice(1);
      }
      pool = this.allNames();
    } else {
      pool = this.argumentPool(tokens.map((t) => t.text), partialTok ? undefined : '', wordIndex);
    }
    const prefix = partial.toLowerCase();
    const candidates = [...new Set(pool.filter((c) => typeof c === 'string' && c.toLowerCase().startsWith(prefix)))].sort(byName);
    const first = candidates[0];
    if (first === undefined) return none;
    // Longest common prefix, compared case-insensitively, spelled as the first candidate.
    let common = first.length;
    for (const c of candidates) {
      let k = 0;
      while (k < common && k < c.length && c[k]?.toLowerCase() === first[k]?.toLowerCase()) k++;
      common = k;
    }
    const word = first.slice(0, common);
    const single = candidates.length === 1;
    // A shared prefix of several candidates stays unquoted unless it must be ('' is fine there).
    const body = lead || (!single && word === '' && !partialTok?.quoted) ? word : quoteArgument(word, { force: partialTok?.quoted, close: single });
    const from = seg.start + (partialTok?.start ?? seg.text.length);
    return { line: line.slice(0, from) + lead + body + (single ? ' ' : ''), candidates };
  }

  private argumentPool(words: string[], extra: string | undefined, wordIndex: number): readonly string[] {
    const name = (words[0] ?? '').replace(/^[/\\]/, '');
    const args = words.slice(1);
    if (extra !== undefined) args.push(extra);
    const cmd = this.command(name);
    if (cmd) {
      try {
        const result = cmd.complete?.(args, wordIndex - 1);
        return Array.isArray(result) ? result : [];
      } catch {
        return [];
      }
    }
    const cvar = this.cvar(name);
    if (!cvar || wordIndex !== 1) return [];
    if (cvar.type === 'bool') return ['0', '1'];
    return cvar.allowed ?? [];
  }

  private allNames(): string[] {
    return [...this.commandMap.values()].map((c) => c.name).concat([...this.cvarMap.values()].map((c) => c.name));
  }

  private claim(name: string, kind: string): string {
    if (typeof name !== 'string' || !CONSOLE_NAME.test(name)) throw new Error(`invalid ${kind} name ${JSON.stringify(name)}`);
    const key = name.toLowerCase();
    if (this.commandMap.has(key) || this.cvarMap.has(key)) throw new Error(`console name "${name}" is already registered`);
    return key;
  }

  private async dispatch(text: string, out: ConsoleOutput): Promise<void> {
    const words = tokenize(text);
    const first = words[0];
    if (first === undefined) return;
    const explicit = first.length > 1 && (first[0] === '/' || first[0] === '\\');
    const name = explicit ? first.slice(1) : first;
    const args = words.slice(1);
    const cmd = this.command(name);
    const cvar = cmd ? undefined : this.cvar(name);
    if (cmd) {
      const { min = 0, max = Infinity } = cmd.args ?? {};
      if (args.length < min || args.length > max) return out.print(usageLine(cmd), 'warn');
      try {
        await cmd.run(args, out);
      } catch (e) {
        out.print(`${cmd.name}: ${errorText(e)}`, 'error');
      }
    } else if (cvar) {
      if (args.length === 0) return out.print(cvar.describe());
      try {
        const result = cvar.set(args.join(' '));
        out.print(result.ok ? `${cvar.name} set to ${JSON.stringify(cvar.text)}` : result.error, result.ok ? 'info' : 'error');
      } catch (e) {
        // A change listener threw; the value is already stored.
        out.print(`${cvar.name}: ${errorText(e)}`, 'error');
      }
    } else if (!explicit && this.fallback) {
      try {
        await this.fallback(text, words, out);
      } catch (e) {
        out.print(errorText(e), 'error');
      }
    } else out.print(this.unknownCommandMessage(name), 'error');
  }

  private printList(out: ConsoleOutput): void {
    const cmds = this.commands();
    const cvars = this.cvars();
    // Align help texts, but do not let one very long name push every line right.
    const width = Math.min(24, Math.max(0, ...cmds.map((c) => c.name.length), ...cvars.map((c) => c.name.length)));
    const row = (name: string, help: string): string => `  ${name.padEnd(width)}  ${firstLine(help)}`.trimEnd();
    out.print('commands:');
    for (const c of cmds) out.print(row(c.name, c.help));
    if (cvars.length > 0) {
      out.print('cvars:');
      for (const v of cvars) out.print(row(v.name, v.help));
    }
    for (const line of this.helpFooter) out.print(line);
  }

  private printOne(name: string, out: ConsoleOutput): void {
    const bare = name.replace(/^[/\\]/, '');
    const cmd = this.command(bare);
    const cvar = this.cvar(bare);
    if (cmd) {
      out.print(usageLine(cmd));
      for (const l of cmd.help.split(/\r\n|\r|\n/)) out.print(`  ${l}`);
    } else if (cvar) {
      out.print(cvar.describe());
      out.print(`usage: ${cvar.name} [value]`);
    } else {
      const near = this.suggest(bare);
      const hint = near.length ? ` — did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?` : '';
      out.print(`no command or cvar named ${JSON.stringify(bare.slice(0, 40))}${hint}`, 'error');
    }
  }
}
