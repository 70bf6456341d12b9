/**
 * Switching protocol while playing, by function calls on the typed protocol
 * kind (no console lines composed and re-parsed): the `protocol` command
 * carries a game in progress over to the new protocol, and `connect <n>` to a
 * server of another kind binds that protocol and connects it. What they
 * print are the lines of the `protocol` and `connect` commands.
 */
import type { ConsoleOutput } from '../../shared/console/registry';
import { OFFLINE_PROTOCOL } from '../protocol/offline';
import { P2P_PROTOCOL } from '../protocol/p2p';
import { LOCKSTEP_PROTOCOL } from '../protocol/lockstep';
import type { HostService } from './hostService';
import { rebind, type Carry, type KindReport } from './subsystemCommand';

/** Where a game was being played: its protocol, and for a server its host and port. */
export interface Whereabouts {
  kind: string;
  host?: string;
  port?: number;
}

/** How the `protocol` command describes the bound protocol. */
export function protocolReport(host: HostService): KindReport {
  return { what: 'the network protocol', detail: () => host.subsystems.protocol.table.status() };
}

/**
 * Starts the bound protocol's connect, printing its line as the `connect`
 * command does. A protocol without `connect` (offline) is left alone.
 */
export function connectBound(host: HostService, target: string | undefined, out: ConsoleOutput = host.output): void {
  const protocol = host.subsystems.protocol;
  if (protocol.bound() === null) return;
  const line = protocol.table.connect?.(target) ?? null;
  if (line !== null) out.print(line);
}

/**
 * The `protocol` command's carry: before the switch, where the game was;
 * after it, rejoin where that makes sense (p2p: the LAN; a server protocol:
 * the same server again, or the other kind of server on the same host).
 */
export function carryGame(host: HostService): Carry<Whereabouts> {
  const protocol = host.subsystems.protocol;
  return {
    before: () => {
      const bound = protocol.bound();
      const where = bound ? (protocol.table.connection?.() ?? null) : null;
      return where && bound ? { ...where, kind: bound } : null;
    },
    after: (was, now) => {
      if (now === OFFLINE_PROTOCOL) return;
      // The LAN protocols find their game by broadcast.
      if (now === P2P_PROTOCOL || now === LOCKSTEP_PROTOCOL) return connectBound(host, undefined);
      if (!was.host) return host.print(`type connect host[:port] to join a ${now}`);
      const h = was.host.includes(':') ? `[${was.host}]` : was.host;
      connectBound(host, was.kind === now && was.port ? `${h}:${was.port}` : h);
    },
  };
}

/**
 * `connect <n>` to a server of another protocol: binds `name`, printing what
 * `protocol <name>` prints, then connects it to `target`.
 */
export async function switchTo(host: HostService, name: string, target: string): Promise<void> {
  const result = await rebind(host, host.subsystems.protocol, protocolReport(host), name, host.output);
  if (result.ok) connectBound(host, target);
}
