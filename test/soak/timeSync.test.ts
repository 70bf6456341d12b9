/**
 * Time synchronisation over real loopback UDP sockets: a client whose packet
 * API is wrapped in the link conditioner (50 ± 10 ms each way, so round trips
 * of 100 ± 20 ms) syncs to a responder that answers with
 * `performance.now() + KNOWN_OFFSET`. Both ends share this process's clock,
 * so the client's error is measured exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/waitFor';
import { ConditionedPacketApi } from '../../src/shared/net/conditionedPacketApi';
import type { LinkConditions } from '../../src/shared/net/linkConditions';
import type { PacketApi } from '../../src/shared/net/packetApi';
import { UdpPacketApi } from '../../src/node/packet/udp';
import { encodeTimeReply, isTimeDatagram, TimeResponder, TimeSyncClient } from '../../src/shared/time';
import { WIRE_VERSION } from '../../src/shared/wire';
import { resources } from '../support/resources';

const KNOWN_OFFSET = 123_456.789;
const PATH: LinkConditions = { lagMs: 50, jitterMs: 10, lossPct: 0, dupPct: 0, reorderPct: 0 };
/** How often the client is polled, as a game tick would (ms). */
const POLL_MS = 10;

const opened: PacketApi[] = [];
const intervals: ReturnType<typeof setInterval>[] = [];
afterEach(async () => {
  for (const i of intervals.splice(0)) clearInterval(i);
  await Promise.all(opened.splice(0).map((api) => api.kill()));
});

async function udp(): Promise<UdpPacketApi> {
  const api = new UdpPacketApi();
  opened.push(api);
  // Loopback only: never a real interface, never a real broadcast.
  await api.init({ port: 0, bindAddress: '127.0.0.1', broadcastAddress: '127.255.255.255', lanInterfaces: [] });
  return api;
}

interface LoopbackSync {
  sync: TimeSyncClient;
  responder: TimeResponder;
  client: ConditionedPacketApi;
  server: UdpPacketApi;
  /** The client's common time minus the responder's time, now, ms. */
  error(): number;
  /** Resolves with the error at the moment the client became ready (rejects after `ms`). */
  ready(ms: number): Promise<number>;
}

/** A responder socket and a conditioned client socket syncing to it, polled every POLL_MS. */
async function startLoopbackSync(seed: number): Promise<LoopbackSync> {
  const server = await udp();
  const responder = new TimeResponder(() => performance.now() + KNOWN_OFFSET);
  server.onPacket((p) => {
    if (!isTimeDatagram(p.data)) return;
    const reply = responder.answer(p.data);
    if (reply !== null) server.send(p.from, reply);
  });

  const inner = await udp();
  const client = new ConditionedPacketApi(inner, { conditions: () => PATH, seed });
  opened.push(client);
  const sync = new TimeSyncClient();
  const to = client.resolve('127.0.0.1', server.localPort());
  let readyError: number | null = null;
  const error = (): number => {
    const now = performance.now();
    return sync.commonTime(now) - (now + KNOWN_OFFSET);
  };
  client.onPacket((p) => {
    if (!isTimeDatagram(p.data)) return;
    sync.receive(p.data, performance.now());
    if (readyError === null && sync.ready) readyError = error();
  });
  const tick = (): void => {
    for (const request of sync.poll(performance.now())) client.send(to, request);
  };
  tick();
  intervals.push(setInterval(tick, POLL_MS));

  return {
    sync,
    responder,
    client,
    server,
    error,
    async ready(ms: number): Promise<number> {
      try {
        return await waitFor('the clock ready', () => readyError, ms);
      } catch (err) {
        throw new Error(`${(err as Error).message}: ${JSON.stringify(sync.stats())}`, { cause: err });
      }
    },
  };
}

describe('time sync over loopback UDP through the link conditioner', () => {
  it('converges on the server clock once ready on a 100 ± 20 ms round trip, stays there, and shrugs off junk', async () => {
    const before = resources();
    const runs = await Promise.all([1, 2, 3].map((seed) => startLoopbackSync(seed)));
    // Junk at both ends of the first pair while it syncs: dropped with a reason, never answered.
    const raw = await udp();
    const junk: Uint8Array[] = [];
    raw.onPacket((p) => junk.push(p.data));
    const toServer = raw.resolve('127.0.0.1', runs[0]!.server.localPort());
    const toClient = raw.resolve('127.0.0.1', runs[0]!.client.localPort());
    raw.send(toServer, Uint8Array.of(0x53, 0x4c, WIRE_VERSION, 12, 0, 0)); // a truncated request
    raw.send(toServer, Uint8Array.of(0x53, 0x4c, WIRE_VERSION, 9)); // a game Ping prefix: not for the responder
    raw.send(toServer, new Uint8Array(24).fill(0xff));
    raw.send(toClient, encodeTimeReply(12345, 1, KNOWN_OFFSET)); // a reply to nothing it asked
    raw.send(toClient, encodeTimeReply(0, 1, KNOWN_OFFSET).subarray(0, 20));
    const atReady = await Promise.all(runs.map((r) => r.ready(15_000)));
    // Keep refreshing: over the next ten replies each, the estimate must not wander.
    const later: number[] = [];
    for (let i = 0; i < 10; i++) {
      const seen = runs.map((r) => r.sync.stats().repliesAccepted);
      await waitFor('one more reply at every client', () => runs.every((r, k) => r.sync.stats().repliesAccepted > (seen[k] as number)));
      for (const r of runs) later.push(r.error());
    }
    const stats = runs.map((r) => r.sync.stats());
    console.log(
      `loopback, 50 ± 10 ms each way: error at ready ${atReady.map((e) => e.toFixed(3)).join(', ')} ms; ` +
        `worst over the next ten replies ${Math.max(...later.map(Math.abs)).toFixed(3)} ms; ` +
        `median rtt ${stats.map((s) => s.rttMs.toFixed(1)).join(', ')} ms; samples ${stats.map((s) => s.samples).join(', ')}`,
    );
    // A guard, not the target (bench:timesync prints the p95 against 1 ms): a broken estimate is off by half a
    // round trip (50 ms) or by the whole offset, far beyond this.
    for (const e of [...atReady, ...later]) expect(Math.abs(e)).toBeLessThanOrEqual(20);
    expect(junk).toEqual([]);
    expect(runs[0]!.responder.stats().drops).toEqual({ 'bad-length': 1 });
    expect(stats[0]!.drops).toEqual({ 'unknown-seq': 1, 'bad-length': 1 });
    for (const s of stats) {
      expect(s.ready).toBe(true);
      // The conditioner's path, seen through the estimate: the round trip is about 100 ms.
      expect(s.rttMs).toBeGreaterThan(90);
      expect(s.rttMs).toBeLessThan(1000);
    }
    for (const r of runs.slice(1)) expect([r.sync.stats().drops, r.responder.stats().drops]).toEqual([{}, {}]);

    for (const i of intervals.splice(0)) clearInterval(i);
    await Promise.all(opened.splice(0).map((api) => api.kill()));
    const after = resources();
    expect(after['UDPWrap'] ?? 0).toBe(before['UDPWrap'] ?? 0);
    expect(after['Timeout'] ?? 0).toBeLessThanOrEqual(before['Timeout'] ?? 0);
    for (const r of runs) expect(r.client.pending()).toBe(0);
  });
});
