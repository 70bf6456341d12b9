/**
 * Dynamic subsystem binding (Parsec §1.4; Quake's GetRefAPI + vid_restart).
 *
 * Every replaceable subsystem (packet API, protocol, ...) is reached through a
 * jump table: one stable object whose methods forward to whichever
 * implementation is bound right now. Callers keep the table, never an
 * implementation, so swapping `udp` for `udp6` at run time is invisible to
 * them apart from the change notification. Pure TS: no Node builtins, no clock.
 */

/** What every bindable implementation provides. `init` may take kind-specific options. */
export interface Subsystem {
  /** Implementation name as typed in the console, e.g. `udp`. */
  readonly name: string;
  init(options?: unknown): Promise<void>;
  /** Releases everything `init` acquired; must tolerate a half-finished `init` and repeated calls. */
  kill(): Promise<void>;
}

/** Outcome of {@link SubsystemKind.bind}; never thrown, so console commands can print it as is. */
export type BindResult =
  | { ok: true; from: string | null; to: string }
  /** `restored` is the name bound after the failed call (unchanged for unknown names; null if nothing could be restored). */
  | { ok: false; error: string; restored: string | null };

/** Passed to {@link SubsystemKind.onChange} listeners after a successful bind or a restore. */
export interface BindChange {
  kind: string;
  from: string | null;
  to: string;
  /** True when `to` was re-bound because binding another implementation failed. */
  restored: boolean;
}

/**
 * Optional per-kind behaviour given at construction. `beforeKill` and
 * `afterBind` order a kind against the kinds that use it: the protocol is
 * stopped in the packet API's `beforeKill` (while the old socket can still
 * carry its goodbye) and started again in its `afterBind`. Both run inside
 * the kind's queue, so they must not await `bind`/`unbind` of this same kind.
 */
export interface SubsystemHooks<T extends Subsystem> {
  /** Supplies the argument for `init` at each bind (read fresh every time, e.g. the current port setting). */
  initOptions?: () => Parameters<T['init']>[0];
  /**
   * Runs before every kill of an implementation (rebind, restart, a failed
   * start, unbind, shutdown), while the table still points at it. A throw is
   * logged and the kill goes ahead.
   */
  beforeKill?: (impl: T) => void | Promise<void>;
  /** Runs after every `bind`, whatever its outcome, once the change listeners are done. A throw is logged. */
  afterBind?: (result: BindResult) => void | Promise<void>;
  /** Receives lines about non-fatal trouble (a kill, a hook or a listener that threw). Default: dropped. */
  log?: (line: string) => void;
}

/**
 * A kind seen by name only, whatever it binds: what the registry and the
 * console commands that take a player's typed name need. Every
 * {@link SubsystemKind} is one.
 */
export interface KindControl<N extends string = string> {
  /** Kind name as typed in the console, e.g. `packetapi`. */
  readonly kindName: N;
  bound(): string | null;
  names(): string[];
  bind(name: string): Promise<BindResult>;
  unbind(): Promise<string | null>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function choiceList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

/**
 * One kind of subsystem (e.g. `packetapi`) with its implementations and its jump table.
 *
 * Ownership: the kind owns the implementation instances (one per name, made
 * lazily by its factory and reused across binds) and is the only thing that
 * calls their `init`/`kill`. `bind`/`unbind` calls are queued and run one at a
 * time in call order. Listeners run inside that queue, so a listener must not
 * await `bind` on the same kind (it would wait for itself).
 */
export class SubsystemKind<T extends Subsystem, N extends string = string> implements KindControl<N> {
  /** Stable forwarding object; see the class comment. Reading it while unbound throws. */
  readonly table: T;

  private current: T | null = null;
  private readonly instances = new Map<string, T>();
  private readonly listeners = new Set<(change: BindChange) => void | Promise<void>>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly kindName: N,
    private readonly factories: Readonly<Record<string, () => T>>,
    private readonly hooks: SubsystemHooks<T> = {},
  ) {
    this.table = this.makeTable();
  }

  /** Name of the bound implementation, or null. */
  bound(): string | null {
    return this.current?.name ?? null;
  }

  /** Implementation names in registration order (for console completion and error text). */
  names(): string[] {
    return Object.keys(this.factories);
  }

  /**
   * Kill the old implementation, point the table at `name`, init it. Binding
   * the bound name restarts it. On init failure the new one is killed and the
   * previous one re-bound and re-inited. Never rejects.
   */
  bind(name: string): Promise<BindResult> {
    return this.enqueue(async () => {
      const result = await this.doBind(name);
      await this.runHook('afterBind', () => this.hooks.afterBind?.(result));
      return result;
    });
  }

  /**
   * Kills the bound implementation (if any) and leaves the kind unbound;
   * resolves to the name it killed (null if nothing was bound). Listeners
   * and `afterBind` are not called.
   */
  unbind(): Promise<string | null> {
    return this.enqueue(async () => {
      const old = this.current;
      if (old) await this.retire(old);
      return old?.name ?? null;
    });
  }

  /** Registers a listener for successful binds and restores; returns its unsubscribe function. */
  onChange(listener: (change: BindChange) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private enqueue<R>(job: () => Promise<R>): Promise<R> {
    const run = this.queue.then(job);
    // Keep the chain alive whatever one job does; callers still see their own outcome.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private instance(name: string): T {
    let impl = this.instances.get(name);
    if (!impl) {
      const factory = this.factories[name];
      if (!factory) throw new Error(`no factory for ${this.kindName} '${name}'`);
      impl = factory();
      this.instances.set(name, impl);
    }
    return impl;
  }

  private async doBind(name: string): Promise<BindResult> {
    const previous = this.current;
    const previousName = previous?.name ?? null;
    if (!Object.hasOwn(this.factories, name)) {
      return {
        ok: false,
        error: `unknown ${this.kindName} '${name}' (choose ${choiceList(this.names())})`,
        restored: previousName,
      };
    }
    let next: T;
    try {
      next = this.instance(name);
    } catch (err) {
      return { ok: false, error: `${this.kindName} '${name}': ${message(err)}`, restored: previousName };
    }

    // Parsec order: kill old, rebind the table, init new.
    if (previous) await this.retire(previous);
    this.current = next;
    try {
      await next.init(this.hooks.initOptions?.());
    } catch (err) {
      const error = `${this.kindName} '${name}' failed to start: ${message(err)}`;
      await this.retire(next);
      const restored = previous ? await this.restore(previous) : null;
      return { ok: false, error, restored };
    }
    await this.notify({ kind: this.kindName, from: previousName, to: name, restored: false });
    return { ok: true, from: previousName, to: name };
  }

  /** Re-binds the implementation that was working before a failed bind; null if it will not start either. */
  private async restore(previous: T): Promise<string | null> {
    this.current = previous;
    try {
      await previous.init(this.hooks.initOptions?.());
    } catch (err) {
      this.hooks.log?.(`${this.kindName} '${previous.name}' could not be restored: ${message(err)}`);
      await this.retire(previous);
      return null;
    }
    await this.notify({ kind: this.kindName, from: null, to: previous.name, restored: true });
    return previous.name;
  }

  /** The one way an implementation goes: `beforeKill` while the table still points at it, then unbound, then killed. */
  private async retire(impl: T): Promise<void> {
    await this.runHook('beforeKill', () => this.hooks.beforeKill?.(impl));
    if (this.current === impl) this.current = null;
    await this.safeKill(impl);
  }

  private async runHook(hook: 'beforeKill' | 'afterBind', run: () => void | Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.hooks.log?.(`${this.kindName} ${hook} hook failed: ${message(err)}`);
    }
  }

  private async safeKill(impl: T): Promise<void> {
    try {
      await impl.kill();
    } catch (err) {
      // A failing kill must not block binding something else; report it and move on.
      this.hooks.log?.(`${this.kindName} '${impl.name}' kill failed: ${message(err)}`);
    }
  }

  private async notify(change: BindChange): Promise<void> {
    for (const listener of [...this.listeners]) {
      try {
        await listener(change);
      } catch (err) {
        this.hooks.log?.(`${this.kindName} change listener failed: ${message(err)}`);
      }
    }
  }

  /**
   * Builds the forwarding object. Methods are wrapped once per property name
   * and look the implementation up at call time, so a method reference taken
   * before a rebind still reaches the implementation bound when it is called.
   */
  private makeTable(): T {
    const forwarders = new Map<PropertyKey, (...args: unknown[]) => unknown>();
    const unbound = (prop: PropertyKey): Error =>
      new Error(`${this.kindName}: no implementation bound (tried to use '${String(prop)}'; bind one of ${choiceList(this.names())})`);
    const handler: ProxyHandler<object> = {
      get: (_target, prop) => {
        const impl = this.current;
        // Symbols and `then` are probed by inspectors and `await`; answer them without throwing.
        if (typeof prop === 'symbol' || prop === 'then') {
          return impl ? (impl as unknown as Record<PropertyKey, unknown>)[prop] : undefined;
        }
        if (!impl) throw unbound(prop);
        const value = (impl as unknown as Record<PropertyKey, unknown>)[prop];
        if (typeof value !== 'function') return value;
        let forward = forwarders.get(prop);
        if (!forward) {
          forward = (...args: unknown[]): unknown => {
            const target = this.current as unknown as Record<PropertyKey, unknown> | null;
            if (!target) throw unbound(prop);
            const fn = target[prop];
            if (typeof fn !== 'function') throw new Error(`${this.kindName} '${String(target['name'])}' has no method '${String(prop)}'`);
            return (fn as (...a: unknown[]) => unknown).apply(target, args);
          };
          forwarders.set(prop, forward);
        }
        return forward;
      },
      set: (_target, prop) => {
        throw new Error(`${this.kindName}: the jump table is read-only (tried to set '${String(prop)}')`);
      },
      has: (_target, prop) => (this.current ? prop in this.current : false),
    };
    return new Proxy({}, handler) as T;
  }
}
