import { queryMaster } from '../net/masterQuery';
import { formatLanServers, lanOptionsOf, nothingAnsweredLine, queryLanDetailed, type LanQueryOptions } from '../net/lanQuery';
import { parseTarget } from '../protocol/serverClient';
import type { ListedServer } from '../../shared/servers/masterProtocol';
import { DEFAULT_MASTER_PORT } from '../../shared/servers/masterProtocol';
import { inListOrder } from '../../shared/servers/listOrder';
import type { HostService } from './hostService';

export interface ServerList {
  /** The n-th server (1-based, as printed) of the last listing, when `text` is such a number. */
  pick(text: string): { protocol: string | null; target: string } | null;
}

/** A numbered line of the last listing: the protocol the server needs and where to connect. */
type Pickable = { protocol: string | null; target: string | null };

/**
 * `servers`: asks the masterserver named by the archived cvar `net_master`
 * (host[:port], default localhost:6502) for its list and prints it numbered;
 * `servers lan` asks the LAN instead (LAN discovery over the bound packet
 * API's kind, with `lan` as the host's broadcast settings). Both are printed
 * in one order (listOrder.ts). `connect <n>` then joins server n of whichever
 * list came last — the footer of each list says so — switching protocol if needed.
 */
export function registerServersCommand(host: HostService, lan: LanQueryOptions = {}): ServerList {
  let last: Pickable[] = [];
  const master = host.addCvar({
    name: 'net_master',
    type: 'string',
    default: `localhost:${DEFAULT_MASTER_PORT}`,
    maxLength: 255,
    help: 'masterserver asked by the servers command (host[:port])',
    flags: { archive: true },
    validate: (v) => (parseTarget(v, DEFAULT_MASTER_PORT) ? null : 'must be host[:port]'),
  });
  host.console.addCommand({
    name: 'servers',
    help: 'list the servers a masterserver knows, or with "lan" those answering on the LAN (then: connect <number>)',
    usage: '[lan]',
    args: { max: 1 },
    complete: (_args, argIndex) => (argIndex === 0 ? ['lan'] : []),
    run: async (args, out) => {
      if (args[0] !== undefined && args[0] !== 'lan') return out.print(`servers: unknown argument "${args[0]}" (type servers, or servers lan)`, 'error');
      if (args[0] === 'lan') return listLan(out);
      const target = parseTarget(master.value, DEFAULT_MASTER_PORT);
      if (!target) return out.print(`net_master "${master.value}" is not host[:port]`, 'error');
      let listed: ListedServer[];
      try {
        listed = inListOrder(await queryMaster(target.host, target.port), (s) => ({ name: s.name, kind: s.type, address: `${s.host}:${s.port ?? ''}` }));
      } catch (err) {
        return out.print(`servers: ${(err as Error).message}`, 'error');
      }
      last = listed.map((s) => ({ protocol: s.type, target: s.port === null ? null : `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}` }));
      if (listed.length === 0) return out.print(`the masterserver at ${target.host}:${target.port} lists no servers`);
      out.print(`  #  name                 type        players  address`);
      listed.forEach((s, i) =>
        out.print(`${String(i + 1).padStart(3)}  ${s.name.padEnd(20)} ${(s.type ?? '?').padEnd(11)} ${`${s.players}/${s.maxPlayers}`.padEnd(8)} ${s.host}:${s.port ?? '?'}`),
      );
      out.print(`type connect <number> to join one of this list (the masterserver's; servers lan lists the LAN's)`);
    },
  });
  /** `servers lan`: one discovery round over the bound packet API's kind, printed numbered. */
  async function listLan(out: { print(text: string, level?: 'info' | 'warn' | 'error'): void }): Promise<void> {
    const kind = host.subsystems.packetApi;
    const bound = kind.bound();
    if (bound !== 'udp' && bound !== 'udp6') return out.print('servers lan: no packet API is bound (type packetapi udp)', 'error');
    out.print(`asking the LAN (${bound === 'udp' ? 'IPv4 broadcast' : 'IPv6 multicast'}) for Starlane servers…`);
    let found: Awaited<ReturnType<typeof queryLanDetailed>>;
    try {
      found = await queryLanDetailed(bound, lanOptionsOf(kind.table, lan));
    } catch (err) {
      return out.print(`servers lan: ${(err as Error).message}`, 'error');
    }
    const servers = inListOrder(found.servers, (s) => ({ name: s.name, kind: s.kind, address: s.target }));
    last = servers.map((s) => ({ protocol: s.kind, target: s.target }));
    // Repeated answers of a listed server are expected (we ask three times); only foreign ones are worth a word.
    const ignored = Object.entries(found.ignored).reduce((sum, [reason, n]) => (reason === 'duplicate' ? sum : sum + n), 0);
    const note = ignored > 0 ? ` (${ignored} other datagram${ignored === 1 ? '' : 's'} ignored)` : '';
    if (found.servers.length === 0) return out.print(`${nothingAnsweredLine(bound, found)}${note}`);
    formatLanServers(servers).forEach((line) => out.print(line));
    out.print(`type connect <number> to join one of this list (the LAN's; servers lists the masterserver's)${note}`);
  }

  return {
    pick: (text) => {
      if (!/^\d{1,3}$/.test(text)) return null;
      const s = last[Number(text) - 1];
      if (!s || s.target === null) return null;
      return { protocol: s.protocol, target: s.target };
    },
  };
}
