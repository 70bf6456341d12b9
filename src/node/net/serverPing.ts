/**
 * Pings listed servers by unicast LAN discovery (docs/PROTOCOL.md, "Ping by
 * unicast request"): each server gets the `STARLANE-DISCOVER` request at its
 * discovery UDP port (the masterserver lists it as `udp:`), and its ping is
 * the time to the announcement that answers it. No TCP connection is made:
 * those count against a server's join limits.
 *
 * Each request carries its own nonce; only an announcement that echoes a
 * nonce in flight *and* comes from the address and port that nonce was sent
 * to counts. Every other datagram is counted by reason and ignored; nothing
 * received can throw out of here. A server that has not answered after
 * `attempts` requests of `timeoutMs` each is unreachable. At most
 * `maxInFlight` servers are asked at once, so a list of 256 never becomes a
 * burst of 256 datagrams.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { isIP } from 'node:net';
import { encodeDiscoveryRequest, parseAnnouncement, type ServerAnnouncement } from '../../shared/servers/lanDiscovery';
import { systemClock, type Clock } from '../../shared/time/clock';

/** Where a server answers discovery: its IP address and discovery UDP port. */
export interface PingTarget {
  address: string;
  port: number;
}

/** One server's outcome: its round trip in ms (one decimal) and what it announced, or null for both when it never answered. */
export interface PingResult {
  target: PingTarget;
  pingMs: number | null;
  announcement: ServerAnnouncement | null;
}

/** What a round of pings saw. */
export interface PingReport {
  /** One per target, in the targets' order. */
  results: PingResult[];
  /** Datagrams received and ignored, by reason (`wrong-nonce`, `wrong-source`, the parser's reasons, …). */
  ignored: Record<string, number>;
  /** Requests sent (tries included). */
  requests: number;
}

/** The sockets a round of pings uses; the default is {@link udpPingTransport}. */
export interface PingTransport {
  /** Sends `bytes` to `address:port`; a failure is thrown or reported as false. */
  send(bytes: Uint8Array, address: string, port: number): boolean | void;
  /** Called for every datagram received, from anywhere. */
  onDatagram(handler: (bytes: Uint8Array, from: PingTarget) => void): void;
  close(): Promise<void>;
}

export interface PingOptions {
  /** How long each request waits for its answer (default 700 ms). */
  timeoutMs?: number;
  /** Requests per server before it counts as unreachable (default 2). */
  attempts?: number;
  /** Servers asked at once (default 16). */
  maxInFlight?: number;
  clock?: Clock;
  /** Default: a fresh {@link udpPingTransport}, closed when the round ends. A given one is left open. */
  transport?: PingTransport;
  /** Nonce source (default: random u32). */
  nonce?: () => number;
  /** Called as each server's outcome is known (answered, or out of tries), with how many are known of how many. */
  onResult?: (result: PingResult, settled: number, total: number) => void;
}

/** An address as datagrams report it: no IPv6 zone, lower case, IPv4-mapped IPv6 as plain IPv4. */
export function canonicalAddress(address: string): string {
  const bare = (address.split('%')[0] ?? '').toLowerCase();
  return bare.startsWith('::ffff:') && bare.includes('.') ? bare.slice(7) : bare;
}

/** Asks every target once in turn (see the file comment); resolves when each has answered or run out of tries. Never rejects for what the network does. */
export async function pingServers(targets: readonly PingTarget[], options: PingOptions = {}): Promise<PingReport> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 700;
  const attempts = Math.max(1, options.attempts ?? 2);
  const maxInFlight = Math.max(1, options.maxInFlight ?? 16);
  const nextNonce = options.nonce ?? (() => randomInt(0, 0x1_0000_0000));
  const transport = options.transport ?? udpPingTransport();
  const results: PingResult[] = targets.map((target) => ({ target, pingMs: null, announcement: null }));
  const ignored = new Map<string, number>();
  const ignore = (reason: string) => void ignored.set(reason, (ignored.get(reason) ?? 0) + 1);
  const pending = new Map<number, { index: number; sentAt: number; timer: unknown; source: string }>();
  const tries = new Array<number>(targets.length).fill(0);
  let next = 0;
  let inFlight = 0;
  let requests = 0;
  let settled = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const settle = (index: number) => {
    inFlight -= 1;
    settled += 1;
    try {
      options.onResult?.(results[index] as PingResult, settled, targets.length);
    } catch {
      // A listener's trouble is its own: the round goes on.
    }
    launch();
  };
  const launch = () => {
    while (inFlight < maxInFlight && next < targets.length) {
      inFlight += 1;
      ask(next++);
    }
    if (inFlight === 0 && next >= targets.length) finish();
  };
  const ask = (index: number) => {
    const target = targets[index] as PingTarget;
    tries[index] = (tries[index] ?? 0) + 1;
    if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535 || canonicalAddress(target.address) === '') return settle(index);
    let nonce = nextNonce() >>> 0;
    for (let guard = 0; pending.has(nonce) && guard < 16; guard++) nonce = nextNonce() >>> 0;
    if (pending.has(nonce)) return settle(index);
    const timer = clock.setTimeout(() => {
      pending.delete(nonce);
      if ((tries[index] ?? 0) < attempts) ask(index);
      else settle(index);
    }, timeoutMs);
    pending.set(nonce, { index, sentAt: clock.now(), timer, source: `${canonicalAddress(target.address)} ${target.port}` });
    requests += 1;
    try {
      if (transport.send(encodeDiscoveryRequest(nonce), target.address, target.port) === false) ignore('send-failed');
    } catch {
      // Unroutable, or a family we have no socket for: the timeout turns it into "unreachable".
      ignore('send-failed');
    }
  };

  transport.onDatagram((bytes, from) => {
    try {
      const now = clock.now();
      const parsed = parseAnnouncement(bytes);
      if (!parsed.ok) return ignore(parsed.reason);
      const asked = pending.get(parsed.value.nonce);
      if (!asked) return ignore('wrong-nonce');
      if (asked.source !== `${canonicalAddress(from.address)} ${from.port}`) return ignore('wrong-source');
      pending.delete(parsed.value.nonce);
      clock.clearTimeout(asked.timer);
      const result = results[asked.index] as PingResult;
      result.pingMs = Math.round((now - asked.sentAt) * 10) / 10;
      result.announcement = parsed.value;
      settle(asked.index);
    } catch {
      ignore('handler-threw');
    }
  });

  try {
    launch();
    await done;
  } finally {
    for (const p of pending.values()) clock.clearTimeout(p.timer);
    if (!options.transport) await transport.close();
  }
  return { results, ignored: Object.fromEntries(ignored), requests };
}

/**
 * Two unbound-until-needed UDP sockets (IPv4 and IPv6, each on a free port)
 * for a round of pings. A socket error is swallowed: the requests it would
 * have carried time out as unreachable.
 */
export function udpPingTransport(): PingTransport {
  const sockets = new Map<'udp4' | 'udp6', dgram.Socket>();
  let handler: (bytes: Uint8Array, from: PingTarget) => void = () => undefined;
  const socketFor = (family: 'udp4' | 'udp6') => {
    let s = sockets.get(family);
    if (!s) {
      s = dgram.createSocket({ type: family, ipv6Only: family === 'udp6' });
      s.on('error', () => undefined);
      s.on('message', (msg, rinfo) => handler(new Uint8Array(msg.buffer, msg.byteOffset, msg.byteLength), { address: rinfo.address, port: rinfo.port }));
      sockets.set(family, s);
    }
    return s;
  };
  return {
    send(bytes, address, port) {
      // Only addresses: a name would start a DNS lookup for whatever a masterserver wrote.
      const family = isIP(address);
      if (family === 0) return false;
      // An unbound socket binds to a free port on its first send.
      socketFor(family === 6 ? 'udp6' : 'udp4').send(bytes, port, address, () => undefined);
      return true;
    },
    onDatagram(h) {
      handler = h;
    },
    close: () =>
      Promise.all(
        [...sockets.values()].map(
          (s) =>
            new Promise<void>((resolve) => {
              try {
                s.close(() => resolve());
              } catch {
                resolve(); // Already closed by an error.
              }
            }),
        ),
      ).then(() => undefined),
  };
}
