import type {
  Completion,
  FrameUp,
  HostEvent,
  HostSnapshot,
  ConsoleLevel,
  ConsoleLine,
} from '../../shared/host/contract';
import { HOST_CONTRACT_VERSION } from '../../shared/host/contract';
import type { MenuPage, MenuState } from '../../shared/menu/menuState';
import { emptyBrowserState, type BrowserState } from '../../shared/servers/browserState';
import { ConsoleCore, type ConsoleOutput } from '../../shared/console';
import type { Cvar, CvarDef, CvarType } from '../../shared/console/cvar';
import { archivedCvarInfo } from '../../shared/console/cvarInfo';
import { pushHistory } from '../../shared/console/lineEditor';
import { MAX_HISTORY } from '../../shared/settings/settings';
import type { LoopStatsSnapshot } from '../../shared/util/stats';
import type { NetSubsystems } from '../subsystems';
import type { SettingsStore } from '../settings/store';
import type { Logger } from '../log';
import type { HostGame } from './hostGame';

/** Console lines kept for pages that connect later. */
export const CONSOLE_BACKLOG = 500;

export interface HostServiceOptions {
  shell: 'electron' | 'browser';
  appVersion: string;
  settings: SettingsStore;
  subsystems: NetSubsystems;
  log: Logger;
  /** Called once when the player types `quit` (after the host has been told to shut down). */
  onQuit: () => void;
  /** The console registry, when it had to exist before the host (subsystems add commands to it). */
  console?: ConsoleCore;
  /** Called last in dispose, once the settings are on disk (gives back the instance's settings folder). */
  release?: () => void;
}

/**
 * The host side of the host API, written once and carried by both shells.
 * It owns the console registry, the settings and the subsystem registry; the
 * renderer talks to it only through the contract in src/shared/host.
 *
 * Events produced during one turn of the event loop go out as one batch.
 */
export class HostService {
  /** While a `protocol` switch runs: why the player leaves the game they are in ("switched to netgame"), for the others to read. */
  switching: string | null = null;
  readonly console: ConsoleCore;
  readonly drops = new Map<string, number>();
  private readonly listeners = new Set<(events: HostEvent[]) => void>();
  private pending: HostEvent[] = [];
  /** Recent console lines, so a page that connects late (or reloads) still sees them. */
  private backlog: ConsoleLine[] = [];
  /** Number of the last console line or clear (ConsoleLine.seq). */
  private consoleSeq = 0;
  private flushTimer: NodeJS.Immediate | null = null;
  private stats: LoopStatsSnapshot | null = null;
  private lastFrame: FrameUp | null = null;
  private framesReceived = 0;
  private disposed = false;
  private readonly disposers: (() => void)[] = [];
  /** The game the host runs, steered by the pages' inputs (set by createHost). */
  game: HostGame | null = null;
  /** The menu over the game: every start opens on the main menu. */
  private menuState: MenuState = { page: 'main', dialog: null };
  /** The server browser's table as last refreshed. */
  private browserState: BrowserState = emptyBrowserState();

  constructor(readonly options: HostServiceOptions) {
    this.console = options.console ?? new ConsoleCore();
  }

  get settings(): SettingsStore {
    return this.options.settings;
  }

  get subsystems(): NetSubsystems {
    return this.options.subsystems;
  }

  get log(): Logger {
    return this.options.log;
  }

  /**
   * Registers a cvar. An archived one (flags.archive) starts from the value
   * saved in the settings (a saved value that no longer passes its checks is
   * reported and replaced by the default) and every change is saved and sent
   * to the renderer, so settings.cvars always holds each archived cvar's value.
   */
  addCvar<T extends CvarType>(def: CvarDef<T>): Cvar<T> {
    const cvar = this.console.addCvar(def);
    if (!def.flags?.archive) return cvar;
    const saved = this.settings.get().cvars[cvar.name];
    if (saved !== undefined) {
      const result = cvar.set(saved, { force: true });
      if (!result.ok) this.print(`settings: ${cvar.name} reset to its default (${result.error})`, 'warn');
    }
    const store = () => {
      const settings = this.settings.update((s) => {
        s.cvars[cvar.name] = cvar.text;
      });
      this.emit({ kind: 'settings', settings });
    };
    if (saved !== cvar.text) store();
    cvar.onChange(store);
    return cvar;
  }

  /** Latest loop statistics the renderer reported, if any. */
  get loopStats(): LoopStatsSnapshot | null {
    return this.stats;
  }

  get frames(): { received: number; last: FrameUp | null } {
    return { received: this.framesReceived, last: this.lastFrame };
  }

  /** What a page gets when it attaches (or reloads): settings, subsystems, console backlog, the network picture. */
  hello(): HostSnapshot {
    return {
      contractVersion: HOST_CONTRACT_VERSION,
      appVersion: this.options.appVersion,
      shell: this.options.shell,
      settings: this.settings.get(),
      subsystems: this.subsystems.describe(),
      consoleBacklog: [...this.backlog],
      consoleSeq: this.consoleSeq,
      net: this.game?.pageAttached() ?? [],
      menu: this.menuState,
      servers: this.browserState,
      cvars: archivedCvarInfo(this.console.cvars()),
    };
  }

  get menu(): MenuState {
    return this.menuState;
  }

  /** Shows a menu page and/or dialog on every page (and on pages that attach later). */
  setMenu(next: Partial<MenuState>): void {
    const opened = next.page !== undefined && next.page !== this.menuState.page ? next.page : null;
    this.menuState = { ...this.menuState, ...next };
    this.emit({ kind: 'menu', menu: this.menuState });
    if (opened !== null) for (const fn of this.menuOpeners.get(opened) ?? []) fn();
  }

  private readonly menuOpeners = new Map<MenuPage, (() => void)[]>();

  /** Calls `fn` whenever menu page `page` opens (the Demos page reads the folder then). */
  onMenuOpen(page: MenuPage, fn: () => void): void {
    this.menuOpeners.set(page, [...(this.menuOpeners.get(page) ?? []), fn]);
  }

  get browser(): BrowserState {
    return this.browserState;
  }

  /** Updates the server browser's table on every page. */
  setBrowser(next: Partial<BrowserState>): void {
    this.browserState = { ...this.browserState, ...next };
    this.emit({ kind: 'servers', browser: this.browserState });
  }

  /** Runs one console line (already validated for type and length); remembers it in the history. */
  command(line: string): Promise<void> {
    if (line.trim().length > 0) {
      this.settings.update((s) => {
        s.history = pushHistory(s.history, line, MAX_HISTORY);
      });
    }
    return this.console.execute(line, this.output);
  }

  complete(line: string): Completion {
    return this.console.complete(line);
  }

  frame(batch: FrameUp): void {
    this.framesReceived += 1;
    this.lastFrame = batch;
    if (batch.stats) this.stats = batch.stats;
    if (batch.input) this.game?.setInput(batch.input);
  }

  /** Counts a message refused at the boundary (bad shape, untrusted sender). */
  drop(reason: string): void {
    this.drops.set(reason, (this.drops.get(reason) ?? 0) + 1);
    this.log.debug({ reason }, 'host message dropped');
  }

  onEvents(listener: (events: HostEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Queues an event for the next batch. */
  emit(event: HostEvent): void {
    if (this.disposed) return;
    if (event.kind === 'console') {
      this.backlog.push({ text: event.text, level: event.level, seq: event.seq });
      if (this.backlog.length > CONSOLE_BACKLOG) this.backlog.splice(0, this.backlog.length - CONSOLE_BACKLOG);
    } else if (event.kind === 'console-clear') {
      this.backlog = [];
    }
    this.pending.push(event);
    if (!this.flushTimer) this.flushTimer = setImmediate(() => this.flush());
  }

  /** Prints to the console of every page (and the backlog), one numbered event per line. */
  print(text: string, level: ConsoleLevel = 'info'): void {
    for (const line of text.split('\n')) this.emit({ kind: 'console', text: line, level, seq: ++this.consoleSeq });
  }

  /** Clears the console of every page, and the backlog. */
  clearConsole(): void {
    this.emit({ kind: 'console-clear', seq: ++this.consoleSeq });
  }

  /** The console output sink handed to commands. */
  readonly output: ConsoleOutput = {
    print: (text, level) => this.print(text, level ?? 'info'),
  };

  private flush(): void {
    this.flushTimer = null;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    for (const listener of this.listeners) {
      try {
        listener(batch);
      } catch (err) {
        this.log.warn({ err }, 'event listener threw');
      }
    }
  }

  /** Runs `fn` when the host is disposed, before the subsystems stop (e.g. to clear a sampling timer). */
  onDispose(fn: () => void): void {
    this.disposers.push(fn);
  }

  /** Stops every subsystem, flushes settings and drops listeners. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    for (const fn of this.disposers.splice(0)) {
      try {
        fn();
      } catch (err) {
        this.log.warn({ err }, 'dispose hook threw');
      }
    }
    this.flush();
    this.disposed = true;
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = null;
    this.listeners.clear();
    await this.subsystems.killAll();
    try {
      await this.settings.save();
    } finally {
      this.options.release?.();
    }
  }
}
