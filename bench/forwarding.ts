/**
 * `npm run bench:forwarding`: the gameserver's forwarding core in this
 * process, without sockets: N players all in sight, each sending 20 states a
 * second, arrivals taken in bursts and every burst flushed to the seats it
 * made dirty, as the server's flush on arrival does; the relay datagrams are
 * encoded (as the server sends them) and counted. Prints, per N, the time per
 * forwarded state and the bytes allocated per forwarded state (from V8's own
 * collection records: what the young generation filled), also less the
 * datagrams' own bytes, and the datagrams and bytes each client got. The hot path's target (issue 27): no per-state
 * allocation. Each N runs twice: clients that acknowledge no Relay (every
 * state relayed full) and clients that acknowledge every Relay before the
 * next tick (each state relayed partial against the one before, wire v14).
 */
import { GCProfiler } from 'node:v8';
import { Command, InvalidArgumentError } from 'commander';
import { Forwarder } from '../src/node/servers/game/forwarder';
import type { ClientSeat } from '../src/node/servers/game/seat';
import { serverHeader } from '../src/node/servers/game/relay';
import { PacketType, type Packet } from '../src/shared/wire/types';
import type { UdpEndpoint } from '../src/node/servers/common/serverUdp';

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('a whole number above 0');
  return n;
};
const program = new Command('bench:forwarding')
  .description('the gameserver forwarding core in process: time and bytes allocated per forwarded state, all players in sight')
  .option('--players <n...>', 'player counts to run', (v, prev: number[] | undefined) => [...(prev ?? []), positive(v)])
  .option('--seconds <s>', 'simulated seconds of 20 Hz states per N', positive, 5)
  .option('--burst <n>', 'arrivals taken before each flush (the server reads a burst of datagrams per turn of its event loop)', positive, 8)
  .parse();
const opts = program.opts<{ players?: number[]; seconds: number; burst: number }>();
const playerCounts = opts.players ?? [16, 64, 128, 255];

/** A client's newest GameState, as the server decodes it (moving a little each state). */
function statePacket(slot: number, id: number): Packet {
  const x = (slot % 16) * 20 + (id % 7) * 0.25;
  const y = Math.floor(slot / 16) * 20;
  return {
    header: {
      type: PacketType.GameState,
      senderSlot: slot,
      messageId: id,
      gameTime: id * 50,
      joined: true,
      state: { pos: { x, y, z: 0 }, rot: { x: 0, y: 0, z: 0.0998, w: 0.995 }, vel: { x: 3.5, y: 0, z: -1.25 }, angVel: { x: 0, y: 0.5, z: 0 }, energy: 0.8, damage: 0.1 },
      token: 99,
    },
    events: [],
  };
}

interface Figures {
  states: number;
  ns: number;
  allocated: number;
  collections: number;
  datagrams: number;
  bytes: number;
}

function run(players: number, seconds: number, burst: number, acks: boolean): Figures {
  const fwd = new Forwarder({ radius: 100_000, outdatedMs: 500, budget: 1_000_000, queueCap: 64, levelOfDetail: false });
  let token = 1;
  const seats: ClientSeat[] = [];
  for (let slot = 0; slot < players; slot++) {
    const s = fwd.add(slot, '127.0.0.1', () => token++, 0);
    s.udp = { address: '127.0.0.1', port: 10_000 + slot } as UdpEndpoint;
    seats.push(s);
  }
  const ticks = seconds * 20;
  // Every packet made before measuring: the clients' datagrams are not the server's allocation.
  const packets = Array.from({ length: ticks + 1 }, (_, t) => seats.map((s) => statePacket(s.slot, t + 1)));
  let datagrams = 0;
  let bytes = 0;
  /** Per seat: the id of its first Relay this tick (one id is skipped between ticks). */
  const firstOfTick = new Float64Array(players);
  for (const s of seats) firstOfTick[s.slot] = s.connection.stamp() + 1;
  // As the server's flush on arrival does it (gameDatagrams.ts flushDirty): each dirty seat taken off the set and flushed.
  const flushDirty = (now: number) => {
    fwd.takeDirty((c) => {
      const out = fwd.flush(c, now, () => serverHeader(PacketType.Relay, c.connection.stamp(), now, c.token));
      for (let i = 0; i < out.length; i++) {
        datagrams += 1;
        bytes += (out[i] as Uint8Array).length;
      }
    });
  };
  const tick = (t: number) => {
    const now = t * 50;
    const row = packets[t] as Packet[];
    for (let i = 0; i < row.length; i++) {
      fwd.onGameState(seats[i] as ClientSeat, row[i] as Packet, true, now);
      if ((i + 1) % burst === 0) flushDirty(now);
    }
    flushDirty(now);
    for (const s of seats) {
      s.budget = 1_000_000;
      // A client that took every Relay of the tick acknowledges them with its next state (ids are consecutive per seat).
      const next = s.connection.stamp();
      if (acks) {
        const count = Math.min(32, (next - (firstOfTick[s.slot] as number)) >>> 0);
        const newest = (next - 1) >>> 0;
        s.relayLog.acknowledge({ newest: newest & 0xffff, mask: count >= 33 ? 0xffffffff : (2 ** Math.max(0, count - 1) - 1) >>> 0 });
      }
      firstOfTick[s.slot] = (next + 1) >>> 0;
    }
  };
  // Warm up (the JIT, and every seat has every other's first state), then measure.
  tick(0);
  const before = fwd.clients.get(0)?.counters.statesSent ?? 0;
  datagrams = 0;
  bytes = 0;
  const gc = new GCProfiler();
  gc.start();
  const heapAtStart = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  for (let t = 1; t <= ticks; t++) tick(t);
  const ns = Number(process.hrtime.bigint() - t0);
  const heapAtEnd = process.memoryUsage().heapUsed;
  const profile = gc.stop();
  // Bytes allocated: what the heap grew by, plus what every collection in between freed.
  let freed = 0;
  for (const s of profile.statistics) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
  const states = seats.reduce((n, s) => n + s.counters.statesSent, 0) - before * players;
  return { states, ns, allocated: heapAtEnd - heapAtStart + freed, collections: profile.statistics.length, datagrams, bytes };
}

console.log(`forwarding core in process: N players all in sight, 20 Hz each for ${opts.seconds} s, a flush after every ${opts.burst} arrivals; relay datagrams encoded`);
console.log('N    relayed   states      ns/state   bytes allocated/state   beyond the datagrams   collections   datagrams/client/s   bytes/state sent');
for (const n of playerCounts) for (const acks of [false, true]) {
  const f = run(n, opts.seconds, opts.burst, acks);
  const cols = [
    String(n).padEnd(4),
    (acks ? 'partial' : 'full').padEnd(8),
    String(f.states).padStart(9),
    (f.ns / f.states).toFixed(0).padStart(13),
    (f.allocated / f.states).toFixed(1).padStart(23),
    ((f.allocated - f.bytes) / f.states).toFixed(1).padStart(22),
    String(f.collections).padStart(13),
    (f.datagrams / n / opts.seconds).toFixed(1).padStart(20),
    (f.bytes / f.states).toFixed(1).padStart(18),
  ];
  console.log(cols.join(' '));
}
console.log("target (issue 27): no per-state allocation on the forwarding path (beyond the datagrams' own bytes: what a player's state costs to encode once, shared by every client it goes to, and a view per datagram)");
