/**
 * The client half of LAN discovery (src/shared/servers/lanDiscovery.ts):
 * asks every slot- and gameserver on the LAN who they are and collects the
 * answers for about a second.
 *
 * A short-lived packet API of the asked kind (`udp`: IPv4 broadcast, `udp6`:
 * the Starlane link-local multicast group) is made on a free port for each
 * query, so the answers never mix with game traffic on the bound one, and it
 * is killed however the query ends. The request goes to the gameserver's and
 * the slotserver's default UDP ports three times, 250 ms apart (a lost
 * datagram costs nothing), each time with a fresh nonce; only announcements
 * echoing one of our nonces count, and the ping is measured from the request
 * that nonce belongs to. Everything else received is counted and ignored.
 */
import { randomInt } from 'node:crypto';
import os from 'node:os';
import type { PacketApi, PacketApiOptions } from '../../shared/net/packetApi';
import { DISCOVERY_PORTS, encodeDiscoveryRequest, parseAnnouncement, type DiscoveryServerKind } from '../../shared/servers/lanDiscovery';
import { IPV4_BROADCAST_ADDRESS, UdpPacketApi } from '../packet/udp';
import { Udp6PacketApi } from '../packet/udp6';

/** One server that answered. */
export interface LanServer {
  kind: DiscoveryServerKind;
  name: string;
  /** The address the answer came from (IPv6 link-local with its `%scope`). */
  address: string;
  /** TCP join port. */
  port: number;
  players: number;
  maxPlayers: number;
  version: string;
  /** Time from our request to its answer, in ms. */
  pingMs: number;
  /** `host:port` for `connect` (`[v6]:port` for IPv6). */
  target: string;
}

export interface LanQueryOptions {
  /** udp: where the request is broadcast (default 255.255.255.255, plus each interface's own subnet broadcast). */
  broadcastAddress?: string | undefined;
  /** udp6: interfaces to multicast on (default every external one). */
  lanInterfaces?: readonly string[] | undefined;
  /** UDP ports asked (default the gameserver's 6522 and the slotserver's 6523). */
  ports?: readonly number[];
  /** Requests per port (default 3), `intervalMs` apart (default 250). */
  rounds?: number;
  intervalMs?: number;
  /** How long answers are collected from the first request on (default 1000 ms). */
  waitMs?: number;
}

/** Everything a query saw. */
export interface LanQueryResult {
  /** In order of arrival, one per server. */
  servers: LanServer[];
  /** Datagrams received and ignored, by reason (`not-starlane`, `wrong-nonce`, `duplicate`, …). */
  ignored: Record<string, number>;
  /** Request datagrams sent (one per round, port and destination address). */
  requests: number;
  /** Of those, how many could not be sent (e.g. no route for 255.255.255.255 on a host without a default route). */
  sendFailures: number;
}

/** Most servers one query keeps (a LAN flooding us with forged answers cannot grow memory). */
const MAX_SERVERS = 64;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * IPv4 destinations of a request. The limited broadcast 255.255.255.255
 * leaves through one interface only (the default route's) and fails outright
 * without one, so with it we also ask every external interface's own subnet
 * broadcast; an explicitly configured address is used alone.
 */
export function ipv4BroadcastTargets(configured: string = IPV4_BROADCAST_ADDRESS): string[] {
  if (configured !== IPV4_BROADCAST_ADDRESS) return [configured];
  const targets = new Set([IPV4_BROADCAST_ADDRESS]);
  for (const infos of Object.values(os.networkInterfaces())) {
    for (const i of infos ?? []) {
      if (i.family !== 'IPv4' || i.internal) continue;
      const toInt = (text: string) => text.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
      const b = (toInt(i.address) | ~toInt(i.netmask)) >>> 0;
      targets.add([b >>> 24, (b >>> 16) & 255, (b >>> 8) & 255, b & 255].join('.'));
    }
  }
  return [...targets];
}

/**
 * The query options matching a bound packet API: for udp6, the interfaces
 * its socket joined the multicast group on (so a query asks where the game
 * listens). udp's broadcast address is not visible through the packet API;
 * pass it explicitly where it is known.
 */
export function lanOptionsOf(api: PacketApi, base: LanQueryOptions = {}): LanQueryOptions {
  const joins = (api as Partial<Pick<Udp6PacketApi, 'multicastJoins'>>).multicastJoins;
  if (api.name !== 'udp6' || typeof joins !== 'function' || base.lanInterfaces !== undefined) return base;
  return { ...base, lanInterfaces: joins.call(api).filter((j) => j.error === null).map((j) => j.iface) };
}

/** {@link queryLanDetailed}'s servers only. */
export async function queryLan(kind: 'udp' | 'udp6', options: LanQueryOptions = {}): Promise<LanServer[]> {
  return (await queryLanDetailed(kind, options)).servers;
}

/**
 * Asks the LAN which Starlane servers run, over `kind`. Resolves after
 * `waitMs` with every server that answered; rejects only when the query
 * socket cannot be made or (udp6) no interface can multicast, with a message
 * a person can act on.
 */
export async function queryLanDetailed(kind: 'udp' | 'udp6', options: LanQueryOptions = {}): Promise<LanQueryResult> {
  const rounds = options.rounds ?? 3;
  const intervalMs = options.intervalMs ?? 250;
  const waitMs = options.waitMs ?? 1000;
  const ports = options.ports ?? DISCOVERY_PORTS;
  const api = kind === 'udp6' ? new Udp6PacketApi() : new UdpPacketApi();
  const init: PacketApiOptions = { port: 0 };
  if (options.broadcastAddress !== undefined) init.broadcastAddress = options.broadcastAddress;
  if (options.lanInterfaces !== undefined) init.lanInterfaces = options.lanInterfaces;

  const sentAt = new Map<number, number>();
  const servers: LanServer[] = [];
  const seen = new Set<string>();
  const ignored = new Map<string, number>();
  const ignore = (reason: string) => ignored.set(reason, (ignored.get(reason) ?? 0) + 1);

  try {
    await api.init(init);
    if (api instanceof Udp6PacketApi && !api.multicastJoins().some((j) => j.error === null)) {
      const tried = api.multicastJoins().map((j) => `${j.iface}: ${j.error}`);
      throw new Error(`udp6: no network interface joined the discovery multicast group${tried.length ? ` (${tried.join('; ')})` : ' (no external IPv6 interface)'}`);
    }
    api.onPacket(({ from, data }) => {
      const now = performance.now();
      const parsed = parseAnnouncement(data);
      if (!parsed.ok) return ignore(parsed.reason);
      const a = parsed.value;
      const sent = sentAt.get(a.nonce);
      if (sent === undefined) return ignore('wrong-nonce');
      const source = /^\[(.+)\]:\d+$/.exec(api.nodeToString(from))?.[1] ?? api.nodeToString(from).replace(/:\d+$/, '');
      // One entry per answering socket, and per server start (a server heard over two paths answers twice).
      const keys = [api.nodeKey(from), `${a.instance}/${a.kind}/${a.port}/${a.name}`];
      if (keys.some((k) => seen.has(k))) return ignore('duplicate');
      if (servers.length >= MAX_SERVERS) return ignore('too-many');
      keys.forEach((k) => seen.add(k));
      servers.push({
        kind: a.kind,
        name: a.name,
        address: source,
        port: a.port,
        players: a.players,
        maxPlayers: a.maxPlayers,
        version: a.version,
        pingMs: Math.round((now - sent) * 10) / 10,
        target: source.includes(':') ? `[${source}]:${a.port}` : `${source}:${a.port}`,
      });
    });

    const targets = kind === 'udp' ? ipv4BroadcastTargets(options.broadcastAddress) : null;
    const started = performance.now();
    let requests = 0;
    for (let round = 0; round < rounds; round++) {
      if (round > 0) await sleep(intervalMs);
      const nonce = randomInt(0, 0x1_0000_0000);
      sentAt.set(nonce, performance.now());
      const request = encodeDiscoveryRequest(nonce);
      for (const port of ports) {
        if (targets === null) {
          api.broadcast(port, request);
          requests += api instanceof Udp6PacketApi ? api.multicastJoins().filter((j) => j.error === null).length : 1;
        } else {
          for (const address of targets) api.send(api.resolve(address, port), request);
          requests += targets.length;
        }
      }
    }
    await sleep(Math.max(0, waitMs - (performance.now() - started)));
    const drops = api.stats().drops;
    for (const reason of ['too-large', 'handler-threw'] as const) if (drops[reason]) ignored.set(reason, drops[reason]);
    return { servers, ignored: Object.fromEntries(ignored), requests, sendFailures: drops['send-failed'] ?? 0 };
  } finally {
    await api.kill();
  }
}

/** Console lines listing `servers` numbered from 1: `n  name  kind  address:port  players/max  ping`. */
export function formatLanServers(servers: readonly LanServer[]): string[] {
  const width = Math.max(4, ...servers.map((s) => s.name.length));
  const where = Math.max(12, ...servers.map((s) => s.target.length));
  return [
    `  #  ${'name'.padEnd(width)}  kind        ${'address'.padEnd(where)}  players  ping`,
    ...servers.map(
      (s, i) =>
        `${String(i + 1).padStart(3)}  ${s.name.padEnd(width)}  ${s.kind.padEnd(10)}  ${s.target.padEnd(where)}  ${`${s.players}/${s.maxPlayers}`.padEnd(7)}  ${s.pingMs.toFixed(1)} ms`,
    ),
  ];
}

/**
 * Why a LAN query may have found nothing, as the end of a console line: a
 * server bound to loopback never hears a broadcast (and udp6 discovery only
 * reaches servers listening on ::), so the way in is its address and port.
 */
export function lanSilenceHint(kind: 'udp' | 'udp6'): string {
  return kind === 'udp'
    ? 'servers bound to loopback (127.0.0.1) cannot answer broadcasts — connect host:port instead'
    : 'IPv6 discovery reaches only servers listening on :: (--host ::) — connect host:port instead';
}

/** The console line for a query that found no server: that, why the requests may not have left, and {@link lanSilenceHint}. */
export function nothingAnsweredLine(kind: 'udp' | 'udp6', found: Pick<LanQueryResult, 'requests' | 'sendFailures'>): string {
  const unsent = found.requests > 0 && found.sendFailures >= found.requests ? ' (no request could even be sent: is the network up?)' : '';
  return `no servers answered on the LAN within a second${unsent}; ${lanSilenceHint(kind)}`;
}
