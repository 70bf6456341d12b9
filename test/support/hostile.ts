/**
 * Hostile traffic against running Starlane servers, for the hostile-traffic
 * test and `npm run bench:hostile`:
 * - UDP: random datagrams and mutations of real ones (game datagrams the
 *   cheater captures from the gameserver, and packets built with the real
 *   codec): bit flips, truncation, extension past 512 bytes, swapped header
 *   fields, valid-looking packets with wrong tokens, slots or versions, and
 *   near-miss LAN discovery requests; paced at a target rate from several
 *   sockets on source addresses other than the honest players';
 * - TCP: malformed, oversized and binary lines over many short connections to
 *   every line-protocol port (join, slot- and masterserver) and every HTTP
 *   status port, plus half-open connections that never send a thing;
 * - cheaters: real joined gameserver clients that send impossible ships
 *   (speed, teleports, lasers from afar, events that are not theirs) until
 *   they are dropped, then join again.
 * Everything is counted so a test can hold the servers' counters against it.
 */
import dgram from 'node:dgram';
import { connect, type Socket } from 'node:net';
import { formatJoin, parseJoinAccepted } from '../../src/shared/servers/joinProtocol';
import { encodePacket } from '../../src/shared/wire/codec';
import { objectId, PacketType, type RemoteEvent, type ShipState } from '../../src/shared/wire/types';
import { LineClient } from './gameClient';
import { DatagramFactory, plausible, rng } from './hostileDatagrams';

export interface Endpoint {
  host: string;
  port: number;
}

/** Where to aim. */
export interface HostileTargets {
  /** UDP ports (the gameserver's game port, a slotserver's discovery port). */
  udp: Endpoint[];
  /** Text-line TCP ports (join ports, masterserver). */
  tcp: Endpoint[];
  /** HTTP status ports. */
  http: Endpoint[];
  /** The gameserver's TCP join port, for cheaters (none when absent). */
  gameserver?: Endpoint;
}

export interface HostileOptions {
  /** Datagrams to send in all (split evenly over the UDP targets). */
  datagrams: number;
  /** Datagrams per second to aim for (0 = as fast as the sockets take them). */
  rate: number;
  /** Source addresses to send and connect from (e.g. 127.0.0.2.., never the honest players'). */
  sources: string[];
  /** UDP sockets per source address (default 2). */
  socketsPerSource?: number;
  /** Bad TCP lines to write in all (over every TCP and HTTP target). */
  tcpLines: number;
  /** TCP connections open at once (default 32). */
  tcpConcurrency?: number;
  /** Connections per TCP and HTTP target that connect and then never send anything (default 2). */
  halfOpen?: number;
  /** Cheating gameserver clients (default 1; each needs its own source address, taken from the end of `sources`). */
  cheaters?: number;
  seed?: number;
  /** Called about once a second while running. */
  progress?(report: HostileReport): void;
}

/** What was sent and what came of it. */
export interface HostileReport {
  seconds: number;
  /** CPU time the attacker itself used (user + system), so a reader can tell its load from the servers'. */
  cpuSeconds: number;
  datagrams: number;
  /** Datagrams by kind (random, bitflip, truncated, extended, swapped, forged, discovery) and by target port. */
  byKind: Record<string, number>;
  byPort: Record<string, number>;
  sendErrors: number;
  tcpLines: number;
  tcpLinesByPort: Record<string, number>;
  tcpConnections: number;
  /** Connections refused or reset before or while we wrote (rate limits, closes for bad lines). */
  tcpClosedEarly: number;
  /** Half-open connections and whether the server closed each within the run. */
  halfOpen: { opened: number; closedByServer: number };
  cheaters: { joins: number; kicked: number; reasons: string[]; datagrams: number; captured: number };
}

const PRINTABLE = 'abcdefghijklmnopqrstuvwxyz0123456789 :,.-';

/** One bad line for a text-line port: garbage, near-miss protocol lines, binary, control characters, or longer than any limit. */
function badLine(next32: () => number): string {
  const r = next32() % 8;
  const rand = (n: number, alphabet = PRINTABLE) => Array.from({ length: n }, () => alphabet[next32() % alphabet.length]).join('');
  switch (r) {
    case 0:
      return `version: 9.9 join me: ${rand(20)} os: ${rand(40)}`;
    case 1:
      return `join me: ${rand(12)}`;
    case 2:
      return 'x'.repeat(600 + (next32() % 4000));
    case 3:
      return Array.from({ length: 40 + (next32() % 80) }, () => String.fromCharCode(1 + (next32() % 9))).join('');
    case 4:
      return `version: 1.0 join me: ${'\u00ff\u0000'.repeat(5)} os: linux port: 99999`;
    case 5:
      return `players: ${next32()} of -${next32() % 9}`;
    case 6:
      return rand(next32() % 200);
    default:
      return `new name: ${rand(40)}`;
  }
}

/** One bad request for an HTTP port. */
function badHttp(next32: () => number): string {
  const r = next32() % 5;
  if (r === 0) return `GET /${'a'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
  if (r === 1) return `BREW /status.json HTCPCP/1.0\r\n\r\n`;
  if (r === 2) return `GET / HTTP/1.1\r\n${Array.from({ length: 200 }, (_, i) => `X-${i}: ${'v'.repeat(100)}`).join('\r\n')}\r\n\r\n`;
  if (r === 3) return `\u0000\u0001\u0002 / HTTP/9\r\n\r\n`;
  return `POST /status.json HTTP/1.1\r\nContent-Length: -5\r\n\r\n`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A cheater: joins the gameserver from `source`, says hello, then sends
 * impossible ships at 30 Hz (too fast, jumping about, lasers from afar,
 * other players' objects) until the server removes it; then joins again.
 * Relays it receives are real game datagrams: they feed `capture`.
 */
async function cheat(target: Endpoint, source: string, index: number, stop: () => boolean, report: HostileReport['cheaters'], capture: (b: Uint8Array) => void): Promise<void> {
  const udp = dgram.createSocket('udp4');
  udp.on('error', () => undefined);
  await new Promise<void>((r) => udp.bind(0, source, () => r()));
  udp.on('message', (msg) => capture(msg));
  try {
    let round = 0;
    while (!stop()) {
      round += 1;
      const socket = connect({ host: target.host, port: target.port, localAddress: source });
      const ok = await new Promise<boolean>((r) => {
        socket.once('connect', () => r(true));
        socket.once('error', () => r(false));
      });
      if (!ok) {
        await sleep(1000);
        continue;
      }
      const tcp = new LineClient(socket);
      tcp.send(formatJoin({ version: '1.0', name: `cheat${index}r${round % 1000}`, os: 'hostile', port: udp.address().port }));
      const accepted = parseJoinAccepted(await tcp.next(3000).catch(() => ''));
      if (!accepted || accepted.udp === undefined || accepted.token === undefined) {
        socket.destroy();
        await sleep(1000);
        continue;
      }
      report.joins += 1;
      const { slot, token, udp: port } = accepted;
      let id = 1;
      const send = (state: ShipState, events: RemoteEvent[] = [], type: PacketType = PacketType.GameState) => {
        udp.send(encodePacket({ header: { type, senderSlot: slot, messageId: id++, gameTime: 0, joined: true, state, token }, events }), port, target.host);
        report.datagrams += 1;
      };
      send(plausible(0), [], PacketType.NodeAlive);
      let step = 0;
      while (!stop() && !tcp.ended) {
        step += 1;
        // Mostly mild cheats (corrected and struck), now and then something blatant.
        const x = step * 400;
        const state: ShipState = { ...plausible(x), vel: { x: 900, y: 0, z: 0 }, angVel: { x: 9, y: 0, z: 0 } };
        const events: RemoteEvent[] = [];
        // A laser from somewhat too far (mild), and in every fourth round one from across the map (blatant).
        if (step % 3 === 0) events.push({ type: 'createLaser', id: objectId(slot, step & 0xffff), pos: { x: x + (round % 4 === 0 ? 20_000 : 1000), y: 0, z: 0 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 });
        if (step % 4 === 0) events.push({ type: 'killObject', id: objectId((slot + 1) % 16, 0), killerSlot: slot });
        send(state, events);
        await sleep(33);
      }
      const lines = tcp.lines.join('\n');
      if (lines.includes('removing you')) {
        report.kicked += 1;
        const why = tcp.lines.find((l) => l.startsWith('removed: '));
        if (why && report.reasons.length < 20) report.reasons.push(why);
      }
      socket.destroy();
      await sleep(500);
    }
  } finally {
    udp.close();
  }
}

/** Fires everything in `options` at `targets`; resolves with the counts when all is sent. */
export async function runHostile(targets: HostileTargets, options: HostileOptions): Promise<HostileReport> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const factory = new DatagramFactory(seed);
  const next32 = rng(seed ^ 0x5bd1e995);
  const cheaterCount = targets.gameserver ? Math.min(options.cheaters ?? 1, Math.max(0, options.sources.length - 1)) : 0;
  const floodSources = options.sources.slice(0, options.sources.length - cheaterCount);
  if (floodSources.length === 0) throw new Error('hostile: need at least one source address for the flood');
  const cpu0 = process.cpuUsage();
  const cpuSeconds = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1e6;
  };
  const report: HostileReport = {
    seconds: 0,
    cpuSeconds: 0,
    datagrams: 0,
    byKind: factory.counts,
    byPort: {},
    sendErrors: 0,
    tcpLines: 0,
    tcpLinesByPort: {},
    tcpConnections: 0,
    tcpClosedEarly: 0,
    halfOpen: { opened: 0, closedByServer: 0 },
    cheaters: { joins: 0, kicked: 0, reasons: [], datagrams: 0, captured: 0 },
  };
  let done = false;
  const stop = () => done;

  // Cheaters first, so their captured relays seed the mutations.
  const cheaters = Array.from({ length: cheaterCount }, (_, i) =>
    cheat(targets.gameserver as Endpoint, options.sources[options.sources.length - 1 - i] as string, i, stop, report.cheaters, (b) => {
      report.cheaters.captured += 1;
      if (report.cheaters.captured % 16 === 1) factory.capture(b);
    }),
  );

  // Half-open connections: connect, send nothing, note whether the server hangs up.
  const halfOpen: Socket[] = [];
  for (const t of [...targets.tcp, ...targets.http]) {
    for (let i = 0; i < (options.halfOpen ?? 2); i++) {
      const s = connect({ host: t.host, port: t.port, localAddress: floodSources[i % floodSources.length] });
      s.on('error', () => undefined);
      s.once('connect', () => (report.halfOpen.opened += 1));
      s.once('close', () => {
        if (!done) report.halfOpen.closedByServer += 1;
      });
      halfOpen.push(s);
    }
  }

  const sockets: dgram.Socket[] = [];
  for (const address of floodSources) {
    for (let i = 0; i < (options.socketsPerSource ?? 2); i++) {
      const s = dgram.createSocket('udp4');
      s.on('error', () => (report.sendErrors += 1));
      await new Promise<void>((r) => s.bind(0, address, () => r()));
      sockets.push(s);
    }
  }

  const progress = setInterval(() => {
    report.seconds = (performance.now() - started) / 1000;
    report.cpuSeconds = cpuSeconds();
    options.progress?.(report);
  }, 1000);

  const flood = (async () => {
    const t0 = performance.now();
    let sent = 0;
    let k = 0;
    while (sent < options.datagrams) {
      const due = options.rate > 0 ? Math.min(options.datagrams, Math.floor(((performance.now() - t0) / 1000) * options.rate)) : options.datagrams;
      let batch = Math.min(due - sent, 512);
      while (batch-- > 0) {
        const socket = sockets[k++ % sockets.length] as dgram.Socket;
        // A socket whose queue is long is skipped: the kernel is the limit, not the attacker's memory.
        if (socket.getSendQueueCount() > 64) continue;
        const target = targets.udp[sent % targets.udp.length] as Endpoint;
        const { bytes } = factory.next();
        socket.send(bytes, target.port, target.host);
        report.byPort[target.port] = (report.byPort[target.port] ?? 0) + 1;
        sent += 1;
      }
      report.datagrams = sent;
      await new Promise((r) => (options.rate > 0 && due <= sent ? setTimeout(r, 1) : setImmediate(r)));
    }
  })();

  const tcpTargets = [...targets.tcp.map((t) => ({ ...t, http: false })), ...targets.http.map((t) => ({ ...t, http: true }))];
  const abuse = (async () => {
    if (tcpTargets.length === 0) return;
    let written = 0;
    let c = 0;
    const one = async () => {
      const t = tcpTargets[c % tcpTargets.length] as (typeof tcpTargets)[number];
      const source = floodSources[Math.floor(c / tcpTargets.length) % floodSources.length] as string;
      c += 1;
      report.tcpConnections += 1;
      const s = connect({ host: t.host, port: t.port, localAddress: source });
      const closed = new Promise<void>((r) => s.once('close', () => r()));
      s.on('error', () => undefined);
      const ok = await new Promise<boolean>((r) => {
        s.once('connect', () => r(true));
        s.once('error', () => r(false));
      });
      if (!ok) {
        report.tcpClosedEarly += 1;
        return;
      }
      // A handful of lines per connection, one write each, as a client would send them.
      for (let i = 0; i < 6 && !s.destroyed && s.writable; i++) {
        const line = t.http ? badHttp(next32) : `${badLine(next32)}\n`;
        s.write(line);
        written += 1;
        report.tcpLines = written;
        report.tcpLinesByPort[t.port] = (report.tcpLinesByPort[t.port] ?? 0) + 1;
        await sleep(1);
      }
      if (!s.destroyed) {
        s.end();
        setTimeout(() => s.destroy(), 500).unref();
      } else report.tcpClosedEarly += 1;
      await closed;
    };
    const workers = Array.from({ length: options.tcpConcurrency ?? 32 }, async () => {
      while (written < options.tcpLines) await one();
    });
    await Promise.all(workers);
  })();

  await Promise.all([flood, abuse]);
  // Give the servers a moment to hang up on the half-open connections (their timeouts may be longer than the run).
  done = true;
  clearInterval(progress);
  await Promise.all(cheaters);
  for (const s of sockets) s.close();
  for (const s of halfOpen) s.destroy();
  report.seconds = (performance.now() - started) / 1000;
  report.cpuSeconds = cpuSeconds();
  return report;
}
