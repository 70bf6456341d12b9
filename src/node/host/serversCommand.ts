import { formatLanServers, lanOptionsOf, nothingAnsweredLine, queryLanDetailed, type LanQueryOptions } from '../net/lanQuery';
import { parseTarget } from '../protocol/serverPick';
import { DEFAULT_MASTER_PORT, MASTER_SERVER_TYPES } from '../../shared/servers/masterProtocol';
import { inListOrder } from '../../shared/servers/listOrder';
import type { BrowserRow } from '../../shared/servers/browserModel';
import { systemsText } from '../../shared/servers/browserWords';
import type { HostService } from './hostService';
import { isServerKind, ServerBrowser } from './serverBrowser';
import { registerFavouriteCommand } from './favouriteCommand';

type Printer = { print(text: string, level?: 'info' | 'warn' | 'error'): void };

/** Console lines of a merged list numbered from 1: `#  name  kind  players  ping  address  from` (and `systems` when a row names any). */
export function formatBrowserRows(rows: readonly BrowserRow[]): string[] {
  const where = Math.max(7, ...rows.map((r) => r.address.length));
  const ping = (r: BrowserRow) => (r.pingMs !== null ? `${r.pingMs.toFixed(1)} ms` : r.ping === 'unreachable' ? 'no reply' : '?');
  const players = (r: BrowserRow) => (r.maxPlayers > 0 ? `${r.players}/${r.maxPlayers}` : '?');
  const from = (r: BrowserRow) => (r.fromMaster && r.fromLan ? 'master+LAN' : r.fromMaster ? 'master' : r.fromLan ? 'LAN' : r.favourite ? 'favourite' : 'recent');
  const withSystems = rows.some((r) => r.systems.length > 0);
  const systems = (r: BrowserRow) => (withSystems ? ` ${from(r).padEnd(10)} ${systemsText(r)}` : ` ${from(r)}`);
  return [
    `  #  ${'name'.padEnd(20)} ${'kind'.padEnd(11)} players  ${'ping'.padEnd(9)} ${'address'.padEnd(where)} ${withSystems ? `${'from'.padEnd(10)} solar systems` : 'from'}`,
    ...rows.map((r, i) => `${String(i + 1).padStart(3)}  ${r.name.padEnd(20)} ${(r.kind ?? '?').padEnd(11)} ${players(r).padEnd(8)} ${ping(r).padEnd(9)} ${r.address.padEnd(where)}${systems(r)}`),
  ];
}

export interface ServerList {
  /** The n-th server (1-based, as printed) of the last listing, when `text` is such a number. */
  pick(text: string): { protocol: string | null; target: string } | null;
}

/** A numbered line of the last listing: the protocol the server needs and where to connect. */
type Pickable = { protocol: string | null; target: string | null };

/**
 * `servers`: asks the masterserver named by the archived cvar `net_master`
 * (host[:port], default localhost:6502) and the LAN together and prints one
 * merged table numbered, with each server's ping (the LAN's, or measured by
 * unicast discovery at the UDP port the masterserver lists); a masterserver
 * that cannot be reached is one line, and the LAN is still listed.
 * `servers lan` asks only the LAN (LAN discovery over the bound packet API's
 * kind, with `lan` as the host's broadcast settings). Both are printed in one
 * order (listOrder.ts). `connect <n>` then joins server n of whichever
 * list came last — the footer of each list says so — switching protocol if needed.
 * The server browser page runs `servers refresh` (the same asking, the
 * table only in the browser) and `servers join <kind> <host:port>`
 * (serverBrowser.ts); `favourite` keeps servers (favouriteCommand.ts).
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
  const browser = new ServerBrowser(host, lan);
  registerFavouriteCommand(host, browser);
  const usage = 'type servers, servers lan, servers refresh, servers join <kind> <host:port> or servers watch <kind> <host:port>';
  host.console.addCommand({
    name: 'servers',
    help: 'list the servers a masterserver knows and those answering on the LAN with their pings, or with "lan" only the LAN\'s (then: connect <number>); "refresh" fills the server browser without a table; "join <kind> <host:port>" joins a server of that kind, "watch <kind> <host:port>" watches its game (spectate)',
    usage: '[lan | refresh | join|watch slotserver|gameserver|netgame <host:port>]',
    args: { max: 3 },
    complete: (args, argIndex) => (argIndex === 0 ? ['lan', 'refresh', 'join', 'watch'] : argIndex === 1 && (args[0] === 'join' || args[0] === 'watch') ? [...MASTER_SERVER_TYPES] : []),
    run: async (args, out) => {
      const [what, kind, address] = args;
      if (what === 'join' || what === 'watch') {
        if (!isServerKind(kind) || address === undefined) return out.print(`servers ${what}: say the kind and the address (servers ${what} slotserver|gameserver|netgame <host:port>)`, 'error');
        return browser.join(kind, address, out, what === 'watch' ? 'watch' : 'play');
      }
      if (what !== undefined && ((what !== 'lan' && what !== 'refresh') || args.length > 1)) return out.print(`servers: unknown argument "${args.join(' ')}" (${usage})`, 'error');
      if (what === 'lan') return listLan(out);
      const target = parseTarget(master.value, DEFAULT_MASTER_PORT);
      if (!target) return out.print(`net_master "${master.value}" is not host[:port]`, 'error');
      return what === 'refresh' ? refreshQuietly(out, target) : listAll(out, target);
    },
  });

  /**
   * `servers`: the masterserver's list and the LAN's answers at once, merged
   * into one table (browserModel.ts) with the player's kept servers, each
   * server the LAN did not answer pinged by unicast discovery at the UDP
   * port the list gives; the server browser shows the same table.
   */
  async function listAll(out: Printer, target: { host: string; port: number }): Promise<void> {
    const where = `${target.host}:${target.port}`;
    const bound = host.subsystems.packetApi.bound();
    const lanKind = bound === 'udp' || bound === 'udp6' ? bound : null;
    out.print(`asking the masterserver at ${where} and ${lanKind ? `the LAN (${lanKind === 'udp' ? 'IPv4 broadcast' : 'IPv6 multicast'})` : 'not the LAN (no packet API is bound)'} for Starlane servers…`);
    const { rows, masterError } = await browser.refresh(target, (r) => {
      if (r.masterError !== null) out.print(`servers: the masterserver at ${where} cannot be reached (${r.masterError}); listing the LAN only`, 'warn');
      if (r.lanError !== null && r.lanKind !== null) out.print(`servers: the LAN could not be asked (${r.lanError})`, 'warn');
    });
    last = rows.map((r) => ({ protocol: r.kind, target: r.port === null ? null : r.address }));
    if (rows.length === 0) {
      const masterSaid = masterError === null ? `the masterserver at ${where} lists no servers` : 'no masterserver list';
      return out.print(`${masterSaid} and ${lanKind ? 'no server answered on the LAN' : 'the LAN was not asked'}`);
    }
    formatBrowserRows(rows).forEach((line) => out.print(line));
    out.print(`type connect <number> to join one of this list (the masterserver's and the LAN's; servers lan lists only the LAN's)`);
  }

  /** `servers refresh` (the browser's Refresh): the same asking, one line in the console; the table is the browser's. */
  async function refreshQuietly(out: Printer, target: { host: string; port: number }): Promise<void> {
    const r = await browser.refresh(target);
    const listed = r.rows.filter((row) => row.fromMaster || row.fromLan).length;
    const missing = [r.masterError !== null ? `the masterserver at ${r.where} cannot be reached (${r.masterError})` : null, r.lanError !== null ? `the LAN was not asked (${r.lanError})` : null].filter((m) => m !== null);
    out.print(`servers: ${listed} server${listed === 1 ? '' : 's'} listed${missing.length > 0 ? `; ${missing.join('; ')}` : ''} (servers prints the table)`, missing.length > 0 ? 'warn' : 'info');
  }

  /** `servers lan`: one discovery round over the bound packet API's kind, printed numbered. */
  async function listLan(out: Printer): Promise<void> {
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
    out.print(`type connect <number> to join one of this list (the LAN's; servers lists the masterserver's and the LAN's)${note}`);
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
