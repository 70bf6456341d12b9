/**
 * The `udp6` packet API: IPv6-only datagrams through `node:dgram`. IPv6 has no
 * broadcast, so LAN discovery uses a Starlane link-local multicast group that
 * the socket joins on every external interface where the OS allows it.
 */
import type dgram from 'node:dgram';
import type { PacketApiOptions } from '../../shared/net/packetApi';
import net from 'node:net';
import { DgramPacketApi } from './dgramPacketApi';

/** Name of the IPv6 packet API as typed in the console. */
export const UDP6_PACKET_API = 'udp6';

/** Starlane's link-local multicast group (ff02::/16; the low bits spell "Stln"). */
export const STARLANE_MULTICAST_GROUP = 'ff02::5374:6c6e';

/** Per-interface outcome of joining {@link STARLANE_MULTICAST_GROUP}. */
export interface MulticastJoin {
  iface: string;
  /** Scope id used in `%scope` suffixes: the interface name, or its index on Windows. */
  scope: string;
  /** Null when the join worked; otherwise why it failed. */
  error: string | null;
}

/** Canonical text of an IPv6 address (lower case, zero runs compressed), via the WHATWG URL parser. */
function canonicalIPv6(body: string): string | null {
  try {
    const host = new URL(`http://[${body}]/`).hostname;
    return host.slice(1, -1);
  } catch {
    return null;
  }
}

/**
 * IPv6 packet API. Binds a `udp6` socket with `ipv6Only` (IPv4-mapped
 * addresses are refused), joins the multicast group best effort: a failed
 * join on one interface is recorded in {@link multicastJoins} and does not stop
 * `init`. `broadcast` sends one copy per joined interface and does nothing
 * when none joined. `resolve` accepts IPv6 text, optionally bracketed and with
 * a `%scope`, or `localhost` (::1).
 */
export class Udp6PacketApi extends DgramPacketApi {
  readonly name = UDP6_PACKET_API;
  protected readonly family = 'udp6' as const;
  protected readonly wildcard = '::';
  protected readonly loopback = '::1';
  private joins: MulticastJoin[] = [];

  /** Join outcomes of the current socket (empty when not initialised). */
  multicastJoins(): readonly MulticastJoin[] {
    return this.joins.map((j) => ({ ...j }));
  }

  protected parseAddress(host: string): string | null {
    const text = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const percent = text.indexOf('%');
    const body = percent < 0 ? text : text.slice(0, percent);
    const scope = percent < 0 ? null : text.slice(percent + 1);
    if (!net.isIPv6(body)) return null;
    if (scope !== null && !/^[A-Za-z0-9_.-]+$/.test(scope)) return null;
    const canonical = canonicalIPv6(body);
    // An ipv6Only socket cannot reach IPv4-mapped addresses; that is what `udp` is for.
    if (canonical === null || canonical.startsWith('::ffff:')) return null;
    return scope === null ? canonical : `${canonical}%${scope}`;
  }

  protected broadcastAddresses(): string[] {
    return this.joins.filter((j) => j.error === null).map((j) => `${STARLANE_MULTICAST_GROUP}%${j.scope}`);
  }

  protected configure(socket: dgram.Socket, options: PacketApiOptions): void {
    this.joins = [];
    const wanted = options.lanInterfaces;
    for (const [iface, infos] of DgramPacketApi.externalInterfaces('IPv6')) {
      if (wanted !== undefined && !wanted.includes(iface)) continue;
      // libuv reads the scope as an interface name on Unix and as a number on Windows.
      const index = infos.find((i) => i.scopeid !== undefined && i.scopeid !== 0)?.scopeid;
      const scope = process.platform === 'win32' && index !== undefined ? String(index) : iface;
      try {
        socket.addMembership(STARLANE_MULTICAST_GROUP, `::%${scope}`);
        this.joins.push({ iface, scope, error: null });
      } catch (err) {
        this.joins.push({ iface, scope, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  protected unconfigure(): void {
    // Closing the socket leaves the groups; only our record needs clearing.
    this.joins = [];
  }
}
