/**
 * `<kind> [name]` console commands (`packetapi`, `protocol`): show what is
 * bound, or rebind live through the kind's jump table with one line about
 * the outcome. The kind is handed over typed; only the player's typed
 * implementation name is a string.
 */
import type { CommandDef, ConsoleOutput } from '../../shared/console/registry';
import type { BindResult, KindControl } from '../../shared/subsystems/jumpTable';
import type { HostService } from './hostService';

/** How a kind's command describes and remembers its binding. */
export interface KindReport {
  /** What the kind is, for help, e.g. `the packet API (udp = IPv4, udp6 = IPv6)`. */
  what: string;
  /** The words after the bound name, e.g. `listening on port 6526`. */
  detail(): string;
  /** Told the new name after a successful switch (the packet API choice is saved in the settings). */
  remember?(name: string): void;
}

/** Where a game in progress was when a switch came, so the new binding can rejoin it. */
export interface Carry<W> {
  /** Read before the switch; null when there is nothing to carry. */
  before(): W | null;
  /** Whether `after` will take the player somewhere (a connect with its own line): the switch line then leaves out the new binding's idle state. */
  follows?(was: W, now: string): boolean;
  /** Run after a successful switch, after the command's own line. */
  after(was: W, now: string): void;
}

/**
 * Rebinds `kind` to `name` and prints what `<kind> <name>` prints: one line
 * `<kind> <from> -> <to>: <detail>`, or on failure the error and what is
 * still bound; a switch is remembered and the page told. Never rejects.
 * `detail: false` leaves the detail out (a line about what happens next follows).
 */
export async function rebind(host: HostService, kind: KindControl, report: KindReport, name: string, out: ConsoleOutput, detail = true): Promise<BindResult> {
  // The game being left hears why (the other players read "bravo left (switched to netgame)").
  host.switching = kind === host.subsystems.protocol ? `switched to ${name}` : null;
  const result = await kind.bind(name).finally(() => (host.switching = null));
  if (!result.ok) {
    const restored = result.restored ? `; still using ${result.restored}` : '';
    out.print(`${kind.kindName} ${name} failed: ${result.error}${restored}`, 'error');
    return result;
  }
  const head = `${kind.kindName} ${result.from ?? '(none)'} -> ${result.to}`;
  out.print(detail ? `${head}: ${report.detail()}` : head);
  report.remember?.(result.to);
  host.emit({ kind: 'subsystems', bound: host.subsystems.describe() });
  return result;
}

/** The `<kind> [name]` command; with `carry`, a game in progress follows the switch. */
export function subsystemCommand<W>(host: HostService, kind: KindControl, report: KindReport, carry?: Carry<W>): CommandDef {
  const name = kind.kindName;
  return {
    name,
    help: `show or switch ${report.what} while running`,
    usage: `[${kind.names().join('|')}]`,
    args: { max: 1 },
    complete: (_args, index) => (index === 0 ? kind.names() : []),
    run: async (args, out) => {
      const wanted = args[0];
      if (wanted === undefined) {
        const bound = kind.bound();
        out.print(bound ? `${name} is ${bound}: ${report.detail()}` : `no ${name} is bound`);
        return;
      }
      const was = carry?.before() ?? null;
      const follows = carry !== undefined && was !== null && carry.follows?.(was, wanted) === true;
      const result = await rebind(host, kind, report, wanted, out, !follows);
      if (result.ok && carry && was !== null) {
        // Run after this command's own output, as its own step.
        setImmediate(() => carry.after(was, result.to));
      }
    },
  };
}
