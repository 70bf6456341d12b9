/**
 * `connect` with no address under a server protocol: asks the LAN (udp
 * broadcast or udp6 multicast), prints every server that answered, and hands
 * the first of the wanted kind to `join`. The answer comes about a second
 * later; `stillWanted` says whether it is still worth acting on (the
 * protocol may have been killed or connected elsewhere meanwhile).
 * {@link LanLookup} keeps a protocol to one lookup at a time.
 */
import type { ProtocolContext } from '../../shared/protocol/protocol';
import { lanOptionsOf, lanSilenceHint, queryLanDetailed } from '../net/lanQuery';

export interface ServerDiscovery {
  kind: string;
  stillWanted(): boolean;
  join(target: string, name: string): void;
  failed(reason: string): void;
}

/** Starts the query (`started`), with the console line; or why it cannot start. */
export function discoverServer(ctx: ProtocolContext, d: ServerDiscovery): { started: boolean; line: string } {
  const api = ctx.packetApi;
  const kind = api.name;
  if (kind !== 'udp' && kind !== 'udp6') return { started: false, line: `connect: LAN discovery needs the udp or udp6 packet API, not ${kind} (or type connect host[:port])` };
  void queryLanDetailed(kind, lanOptionsOf(api, ctx.lan ?? {})).then(
    (found) => {
      if (!d.stillWanted()) return;
      for (const s of found.servers) ctx.print(`found ${s.kind} "${s.name}" at ${s.target}, ${s.players}/${s.maxPlayers} players, ping ${s.pingMs.toFixed(1)} ms`);
      const first = found.servers.find((s) => s.kind === d.kind);
      if (!first) {
        const other = found.servers.length > 0 ? ' (type servers lan, then connect <number> to join another kind)' : '';
        return d.failed(`connect: no ${d.kind} answered on the LAN within a second${other}; ${lanSilenceHint(kind)}`);
      }
      d.join(first.target, first.name);
    },
    (err: unknown) => {
      if (d.stillWanted()) d.failed(`connect: LAN discovery failed: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
  return { started: true, line: `looking for a ${d.kind} on the LAN (${kind === 'udp' ? 'IPv4 broadcast' : 'IPv6 multicast'})…` };
}

/**
 * A protocol's lookups (serverClient.ts): one at a time, so a second
 * `connect` with no address while the LAN is being asked is refused.
 */
export class LanLookup {
  /** True while a `connect` without an address is asking the LAN. */
  private discovering = false;

  /** `kind`: the protocol's name, the server kind it joins. */
  constructor(
    private readonly ctx: ProtocolContext,
    private readonly kind: string,
  ) {}

  /** Starts a lookup for a server of our kind; returns the console line (or why it cannot start). */
  start(d: Omit<ServerDiscovery, 'kind'>): string {
    if (this.discovering) return 'connect: already looking for servers on the LAN';
    this.discovering = true;
    const { started, line } = discoverServer(this.ctx, {
      kind: this.kind,
      stillWanted: () => {
        this.discovering = false;
        return d.stillWanted();
      },
      join: (target, name) => d.join(target, name),
      failed: (reason) => d.failed(reason),
    });
    this.discovering = started;
    return line;
  }
}
