/**
 * Switching protocol while playing, by function calls on the typed protocol
 * kind (no console lines composed and re-parsed): the `protocol` command
 * carries a game in progress over to the new protocol, and `connect <n>` to a
 * server of another kind binds that protocol and connects it. What they
 * print are the lines of the `protocol` and `connect` commands.
 *
 * The last server of each kind the player was on is remembered for the run,
 * so switching back rejoins it; a switch to a kind with no server at the
 * host says so in one line, with the way back.
 */
import type { ConsoleOutput } from '../../shared/console/registry';
import type { CarriedConnect } from '../../shared/protocol/protocol';
import { OFFLINE_PROTOCOL } from '../protocol/offline';
import { P2P_PROTOCOL } from '../protocol/p2p';
import { LOCKSTEP_PROTOCOL } from '../protocol/lockstep';
import type { HostService } from './hostService';
import { rebind, type Carry, type KindReport } from './subsystemCommand';

/** Where a game was being played: its protocol, and for a server its host, port and name. */
export interface Whereabouts {
  kind: string;
  /** In a game when the switch came (a LAN protocol carries only a game in progress). */
  playing: boolean;
  host?: string;
  port?: number;
  name?: string;
}

/** How the `protocol` command describes the bound protocol. */
export function protocolReport(host: HostService): KindReport {
  return { what: 'the network protocol', detail: () => host.subsystems.protocol.table.status() };
}

/**
 * Starts the bound protocol's connect, printing its line as the `connect`
 * command does. A protocol without `connect` (offline) is left alone.
 */
export function connectBound(host: HostService, target: string | undefined, out: ConsoleOutput = host.output, carried?: CarriedConnect): void {
  const protocol = host.subsystems.protocol;
  if (protocol.bound() === null) return;
  const line = protocol.table.connect?.(target, carried) ?? null;
  if (line !== null) out.print(line);
}

/** `host:port` as `connect` takes it (IPv6 in brackets); the host alone when there is no port. */
function targetText(host: string, port?: number): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port === undefined ? h : `${h}:${port}`;
}

/** What a server of `kind` is called in a sentence. */
const serverNoun = (kind: string): string => (kind.endsWith('server') ? kind : `${kind} server`);

/** The LAN protocols find their game by broadcast. */
const onTheLan = (kind: string): boolean => kind === P2P_PROTOCOL || kind === LOCKSTEP_PROTOCOL;

/**
 * The `protocol` command's carry: before the switch, where the game was;
 * after it, rejoin where that makes sense (p2p and lockstep: the LAN; a
 * server protocol: the server of that kind we were on last, else the same
 * server again or the other kind of server on the same host).
 */
export function carryGame(host: HostService): Carry<Whereabouts> {
  const protocol = host.subsystems.protocol;
  const lastServer = new Map<string, Whereabouts>();
  /** Where a server protocol `now` goes after a switch from `was`, or null when we know of nowhere. */
  const destination = (was: Whereabouts, now: string): string | null => {
    if (now === OFFLINE_PROTOCOL || onTheLan(now)) return null;
    if (was.host !== undefined && was.kind === now) return targetText(was.host, was.port);
    const last = lastServer.get(now);
    if (last?.host !== undefined) return targetText(last.host, last.port);
    return was.host === undefined ? null : targetText(was.host);
  };
  /** The one line for a carried connect that found no server: what happened, and the ways back. */
  const wayBack = (was: Whereabouts, now: string, to: string, reason: string): string => {
    const back = lastServer.get(was.kind);
    const ways = [back?.host !== undefined && was.kind !== now ? `protocol ${was.kind} takes you back to ${back.name ? `"${back.name}"` : targetText(back.host, back.port)}` : null, `connect host[:port] joins a ${serverNoun(now)}`].filter((w) => w !== null);
    return `no ${serverNoun(now)} at ${to} (${reason}); you are not in a game — ${ways.join(', or ')}`;
  };
  return {
    before: () => {
      const bound = protocol.bound();
      if (!bound) return null;
      const where = protocol.table.connection?.() ?? null;
      const was: Whereabouts = { ...(where ?? {}), kind: bound, playing: where !== null };
      if (was.host !== undefined) lastServer.set(bound, was);
      return was;
    },
    follows: (was, now) => (onTheLan(now) ? was.playing : destination(was, now) !== null),
    after: (was, now) => {
      if (onTheLan(now)) return was.playing ? connectBound(host, undefined) : undefined;
      const to = destination(was, now);
      if (to !== null) connectBound(host, to, host.output, { failed: (reason) => wayBack(was, now, to, reason) });
    },
  };
}

/**
 * `connect <n>` to a server of another protocol: binds `name`, printing what
 * `protocol <name>` prints, then connects it to `target` (`watch`: as
 * `spectate` does).
 */
export async function switchTo(host: HostService, name: string, target: string, how: 'play' | 'watch' = 'play'): Promise<void> {
  const result = await rebind(host, host.subsystems.protocol, protocolReport(host), name, host.output, false);
  if (!result.ok) return;
  if (how === 'play') return connectBound(host, target);
  const line = host.subsystems.protocol.table.spectate?.(target) ?? null;
  if (line !== null) host.output.print(line);
}
