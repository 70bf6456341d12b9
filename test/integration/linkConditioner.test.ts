/**
 * The link conditioner on real UDP sockets over loopback (port 0, broadcast
 * to 127.255.255.255, nothing leaves the machine): fake lag shows up in a
 * real round trip, and no timer or socket outlives a kill, a packet API
 * rebind or the shutdown of a subsystem set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor as waitForCondition } from '../support/waitFor';
import type { CommandDef } from '../../src/shared/console/registry';
import { ConditionedPacketApi } from '../../src/shared/net/conditionedPacketApi';
import { NO_CONDITIONS, type LinkConditions } from '../../src/shared/net/linkConditions';
import type { PacketApi } from '../../src/shared/net/packetApi';
import { UdpPacketApi } from '../../src/node/packet/udp';
import { createSubsystems } from '../../src/node/subsystems';
import { udpHandles, timers } from '../support/resources';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';

const LOOPBACK_BROADCAST = '127.255.255.255';

/** Waits for `check` (polled every 2 ms: round trips are timed by it). */
const waitFor = (check: () => boolean, what: string, ms = 10_000) => waitForCondition(what, check, ms, 2);

const opened: PacketApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((api) => api.kill()));
});

/** A udp packet API on a free port; `wildcard` binds all addresses (a directed broadcast reaches only such sockets). */
async function udp(wildcard = false): Promise<UdpPacketApi> {
  const api = new UdpPacketApi();
  opened.push(api);
  await api.init({ port: 0, broadcastAddress: LOOPBACK_BROADCAST, ...(wildcard ? {} : { bindAddress: '127.0.0.1' }) });
  return api;
}

/** A plain socket that sends every datagram straight back. */
async function echo(): Promise<UdpPacketApi> {
  const api = await udp();
  api.onPacket((p) => api.send(p.from, p.data));
  return api;
}

/**
 * Median round trip of `n` pings through `api` to `target`, in ms. They go
 * out together, each timed from its own send to its own echo's arrival
 * (`arrivals`: ping number → performance.now() when it came back, filled by
 * the caller's handler).
 */
async function medianRoundTrip(api: PacketApi, arrivals: Map<number, number>, targetPort: number, n: number): Promise<number> {
  const target = api.resolve('127.0.0.1', targetPort);
  arrivals.clear();
  const sentAt: number[] = [];
  for (let i = 0; i < n; i++) {
    sentAt.push(performance.now());
    api.send(target, Uint8Array.of(i));
  }
  await waitFor(() => arrivals.size >= n, `${n} echoes`);
  const rtts = sentAt.map((t0, i) => (arrivals.get(i) ?? NaN) - t0).sort((a, b) => a - b);
  return rtts[Math.floor(n / 2)] ?? NaN;
}

describe('link conditioner on real UDP sockets', () => {
  it('150 ms of fake lag on one end adds 300 ms to a real round trip (150 each way)', async () => {
    const server = await echo();
    const conditions: LinkConditions = { ...NO_CONDITIONS };
    const client = new ConditionedPacketApi(await udp(), { conditions: () => conditions, seed: 1 });
    const arrivals = new Map<number, number>();
    client.onPacket((p) => arrivals.set(p.data[0] ?? -1, performance.now()));

    const clean = await medianRoundTrip(client, arrivals, server.localPort(), 9);
    conditions.lagMs = 150;
    const lagged = await medianRoundTrip(client, arrivals, server.localPort(), 9);
    console.log(`loopback round trip: ${clean.toFixed(1)} ms clean, ${lagged.toFixed(1)} ms with net_fakelag 150`);
    expect(lagged - clean).toBeGreaterThanOrEqual(295); // timers may fire a millisecond early by performance.now()
    // Applied once each way, not twice (that would add 600 ms).
    expect(lagged - clean).toBeLessThan(600);
    expect(client.traffic()).toMatchObject({ packetsOut: 18, packetsIn: 18, bytesOut: 18, bytesIn: 18 });
  });

  it('delays a real broadcast by the lag, and kill leaves no waiting timer and no socket', async () => {
    const listener = await udp(true);
    const heard: number[] = [];
    listener.onPacket(() => heard.push(performance.now()));
    const startHandles = udpHandles();
    const startTimers = timers();
    const sender = new ConditionedPacketApi(await udp(), { conditions: () => ({ ...NO_CONDITIONS, lagMs: 150 }) });

    const t0 = performance.now();
    sender.broadcast(listener.localPort(), Uint8Array.of(1));
    await waitFor(() => heard.length === 1, 'the broadcast');
    expect((heard[0] ?? 0) - t0).toBeGreaterThanOrEqual(147);

    for (let i = 0; i < 20; i++) sender.broadcast(listener.localPort(), Uint8Array.of(2));
    expect(sender.pending()).toBe(20);
    expect(timers()).toBeGreaterThan(startTimers);
    await sender.kill();
    expect(sender.pending()).toBe(0);
    expect(timers()).toBeLessThanOrEqual(startTimers);
    expect(udpHandles()).toBe(startHandles);
    // A marker through a fresh conditioner with the same lag is due after the cancelled twenty would have been:
    // once it is heard, they would have been heard too.
    const marker = new ConditionedPacketApi(await udp(), { conditions: () => ({ ...NO_CONDITIONS, lagMs: 150 }) });
    marker.broadcast(listener.localPort(), Uint8Array.of(3));
    await waitFor(() => heard.length >= 2, 'the marker');
    await marker.kill();
    expect(heard).toHaveLength(2); // the first broadcast and the marker: the cancelled twenty never went out
  });

  it('through the subsystem set: protocol datagrams wait in the conditioner, and a rebind or shutdown drops them', async () => {
    const startHandles = udpHandles();
    const startTimers = timers();
    const commands = new Map<string, CommandDef>();
    const lines: string[] = [];
    const registry = createSubsystems({
      clientPort: await freeUdpPorts(P2P_PORT_SPAN),
      bindAddress: '127.0.0.1',
      broadcastAddress: LOOPBACK_BROADCAST,
      lanInterfaces: [],
      linkConditions: () => ({ ...NO_CONDITIONS, lagMs: 1000 }),
      addCommand: (def) => (commands.set(def.name, def), () => commands.delete(def.name)),
      print: (line) => lines.push(line),
      log: (line) => lines.push(`log: ${line}`),
    });
    expect((await registry.packetApi.bind('udp')).ok).toBe(true);
    expect((await registry.protocol.bind('p2p')).ok).toBe(true);
    await commands.get('connect')?.run([], { print: (l) => lines.push(l) });
    // Discovery broadcasts are waiting out their second of lag: nothing has reached the socket yet.
    await waitFor(() => timers() > startTimers + 1, 'delayed discovery datagrams');
    expect(registry.traffic().packetsOut).toBe(0);

    expect((await registry.packetApi.bind('udp')).ok).toBe(true); // restart: the old socket's datagrams go
    await registry.killAll();
    expect(udpHandles()).toBe(startHandles);
    expect(timers()).toBeLessThanOrEqual(startTimers);
    // A marker through a fresh conditioner with the same second of lag falls due after the dropped datagrams would have.
    const listener = await udp(true);
    let markerHeard = false;
    listener.onPacket(() => (markerHeard = true));
    const marker = new ConditionedPacketApi(await udp(), { conditions: () => ({ ...NO_CONDITIONS, lagMs: 1000 }) });
    marker.broadcast(listener.localPort(), Uint8Array.of(1));
    await waitFor(() => markerHeard, 'the marker', 5000);
    await Promise.all([marker.kill(), listener.kill()]);
    expect(registry.traffic().packetsOut).toBe(0);
    expect(lines.filter((l) => l.startsWith('log:'))).toEqual([]);
  });
});
