/**
 * LAN probe: drives the real `udp` / `udp6` packet APIs from inside a
 * network namespace of a virtual LAN (see netns.ts). Prints JSON lines only.
 *
 *   npx tsx test/support/lanProbe.ts listen <udp|udp6> <port> <seconds>
 *     prints {"ready":true,"port":…,"local":…,"joins":[…]} once bound, then one
 *     {"from":…,"text":…} per datagram; exits 0 after <seconds> or on SIGTERM/SIGINT.
 *   npx tsx test/support/lanProbe.ts broadcast <udp|udp6> <port> <text> [broadcastAddress]
 *     binds any port, broadcasts <text> to <port> 3 times 50 ms apart, prints
 *     {"sent":3,"port":…,"stats":…} and exits 0.
 *
 * udp6 uses lanInterfaces ['eth0'] and exits 1 if the multicast join failed.
 * Failures print {"error":…} and exit 1. Every path is bounded in time.
 */
import type { PacketApi } from '../../src/shared/net/packetApi';
import { UdpPacketApi } from '../../src/node/packet/udp';
import { Udp6PacketApi } from '../../src/node/packet/udp6';

const BROADCAST_REPEATS = 3;
const BROADCAST_GAP_MS = 50;
/** Longest a listener may be asked to run, so a forgotten probe cannot linger. */
const MAX_LISTEN_SECONDS = 120;
/** Hard cap on shutting down once we decided to exit. */
const EXIT_GRACE_MS = 3000;
/** Hard cap on a whole broadcast run (bind, sends, kill). */
const BROADCAST_DEADLINE_MS = 10_000;

const print = (value: unknown): void => {
  // Writes to pipes are synchronous on Linux, so nothing is lost at process.exit.
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

function fail(message: string): never {
  print({ error: message });
  process.exit(1);
}

function makeApi(family: string | undefined): { api: PacketApi; multicast: Udp6PacketApi | null } {
  if (family === 'udp') return { api: new UdpPacketApi(), multicast: null };
  if (family === 'udp6') {
    const api = new Udp6PacketApi();
    return { api, multicast: api };
  }
  return fail(`family must be udp or udp6, got ${String(family)}`);
}

function parsePort(text: string | undefined): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad port ${String(text)}`);
  return port;
}

/** Fails (exit 1) after `ms` whatever else is going on (e.g. an init that never settles). */
function watchdog(ms: number): void {
  setTimeout(() => fail(`watchdog: still running after ${ms} ms`), ms).unref();
}

/** Kills the API and exits; a watchdog makes sure the process ends even if kill hangs. */
async function finish(api: PacketApi, code: number): Promise<never> {
  setTimeout(() => process.exit(code === 0 ? 2 : code), EXIT_GRACE_MS).unref();
  try {
    await api.kill();
  } catch (err) {
    print({ error: `kill failed: ${(err as Error).message}` });
    process.exit(1);
  }
  process.exit(code);
}

/** Fails unless the udp6 socket joined the Starlane group on eth0 (else broadcast would silently send nothing). */
function requireJoin(multicast: Udp6PacketApi | null): void {
  if (!multicast) return;
  const joins = multicast.multicastJoins();
  if (!joins.some((j) => j.iface === 'eth0' && j.error === null)) fail(`no multicast join on eth0: ${JSON.stringify(joins)}`);
}

async function listen(family: string | undefined, portText: string | undefined, secondsText: string | undefined): Promise<void> {
  const { api, multicast } = makeApi(family);
  const port = parsePort(portText);
  const seconds = Number(secondsText);
  if (!(seconds > 0 && seconds <= MAX_LISTEN_SECONDS)) fail(`seconds must be in (0, ${MAX_LISTEN_SECONDS}], got ${String(secondsText)}`);
  watchdog(seconds * 1000 + EXIT_GRACE_MS);
  const decoder = new TextDecoder();
  api.onPacket((p) => print({ from: api.nodeToString(p.from), text: decoder.decode(p.data) }));
  await api.init(family === 'udp6' ? { port, lanInterfaces: ['eth0'] } : { port });
  requireJoin(multicast);
  const stop = (): void => void finish(api, 0);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  setTimeout(stop, seconds * 1000);
  print({ ready: true, port: api.localPort(), local: api.nodeToString(api.localNode()), joins: multicast?.multicastJoins() ?? [] });
}

async function broadcast(family: string | undefined, portText: string | undefined, text: string | undefined, address: string | undefined): Promise<void> {
  const { api, multicast } = makeApi(family);
  const port = parsePort(portText);
  if (text === undefined) fail('missing text');
  watchdog(BROADCAST_DEADLINE_MS);
  // Any free port: the sender's own port must not matter to receivers.
  await api.init(
    family === 'udp6' ? { port: 0, lanInterfaces: ['eth0'] } : address === undefined ? { port: 0 } : { port: 0, broadcastAddress: address },
  );
  requireJoin(multicast);
  const data = new TextEncoder().encode(text);
  // Several copies, because the first multicast can race with a receiver's join.
  for (let i = 0; i < BROADCAST_REPEATS; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, BROADCAST_GAP_MS));
    api.broadcast(port, data);
  }
  // Give the last send callback a turn so the counters below are complete.
  await new Promise((r) => setTimeout(r, BROADCAST_GAP_MS));
  print({ sent: BROADCAST_REPEATS, port: api.localPort(), stats: api.stats() });
  await finish(api, 0);
}

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === 'listen') return listen(rest[0], rest[1], rest[2]);
  if (mode === 'broadcast') return broadcast(rest[0], rest[1], rest[2], rest[3]);
  fail(`usage: lanProbe.ts listen <udp|udp6> <port> <seconds> | broadcast <udp|udp6> <port> <text> [broadcastAddress]`);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
