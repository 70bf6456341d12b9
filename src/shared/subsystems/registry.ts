/**
 * The subsystem kinds of one process as one set, for what concerns all of
 * them at once: listing them (the `subsystems` command), describing what is
 * bound (the host snapshot) and shutdown. Code that uses a kind holds it
 * typed (e.g. `NetSubsystems.protocol`), never looks it up here by name.
 */
import type { KindControl } from './jumpTable';

/**
 * Ownership: the registry owns its kinds; `killAll` unbinds them in reverse
 * order of registration, so dependants registered later (the protocol) stop
 * before what they use (the packet API).
 */
export class SubsystemRegistry<N extends string = string> {
  private readonly kinds: readonly KindControl<N>[];

  /** The kinds in registration order (what others use first); throws if a kind name appears twice. */
  constructor(kinds: readonly KindControl<N>[]) {
    const seen = new Set<string>();
    for (const kind of kinds) {
      if (seen.has(kind.kindName)) throw new Error(`subsystem kind '${kind.kindName}' registered twice`);
      seen.add(kind.kindName);
    }
    this.kinds = [...kinds];
  }

  /** Every kind, in registration order. */
  list(): readonly KindControl<N>[] {
    return this.kinds;
  }

  /** Kind name → bound implementation name (null when unbound), in registration order. */
  describe(): Record<N, string | null> {
    const out = {} as Record<N, string | null>;
    for (const kind of this.kinds) out[kind.kindName] = kind.bound();
    return out;
  }

  /** Shutdown: unbinds every kind, last registered first. Never rejects (kill errors go to each kind's log hook). */
  async killAll(): Promise<void> {
    for (const kind of [...this.kinds].reverse()) await kind.unbind();
  }
}
