/**
 * Netgame bytes and late inputs (`npm run bench:netgame -- [options]`), in
 * process on a virtual clock, no sockets: a real NetgameServer (packing with
 * zlib level 6 as the host does) and --clients real NetgameClients, each
 * ticking every 25 ms with its own phase, every event carried after a one-way
 * delay of rtt/2 ± 10 % (uniform, so events may overtake each other) or lost
 * (5 %). Each client is flown by the hunt pilot (skill 5) looking at its own
 * client's world (`client.state.world`); the match has no kill limit, so the
 * ships fight for the whole run. One run of --seconds per round trip of
 * --rtts; for each it prints:
 *  1. bytes per state difference (the server's `stateDiff` to each client
 *     every 20 frames, the XOR with the state the client acknowledged last):
 *     raw (the XOR: state size + 4), the bytes that actually changed, and
 *     zlib-packed at each level of --levels (each difference packed again at
 *     every level on the side: the same bytes, only the level differs), the
 *     ratio raw / packed and the datagrams (≤ 400-byte chunks) per difference.
 *     The whole states sent at the joins are left out; "base age" is the
 *     frames between a difference and its base.
 *  2. bytes per second per client, upstream and downstream, by message type:
 *     every event sent (lost or not) encoded with encodePacket as the datagram
 *     it goes in (10-byte header + 4-byte token + event + 1 terminator; the
 *     core sends one event per datagram), without and with 28 B of IPv4 + UDP
 *     per datagram, over the whole run (joins included). For reference only,
 *     the 1998 design's 28.8 kbit/s modem budget (2,880 B/s, bench/codec.ts).
 *     Then where gameMoves' bytes come from: the moves each one carries (every
 *     entry the client has not acknowledged, at most MAX_MOVES) and how many
 *     entries the client had not acknowledged (the server's array end − start).
 *  3. control changes: the pilots' distinct changes, those the clients sent
 *     (with resends), those the server took, dropped as late (target: < 1 %
 *     at 100 ms, issue 15's requirement) or refused (rate limit); the round
 *     trip the server measured and the control leads it sent once measured.
 *  4. sync: each client's state after its frame is compared byte for byte
 *     with the server's state of that frame (mismatches must be 0), and the
 *     corrections (a difference that overwrote a client's state) counted.
 * Nothing is asserted: exit 0, or 1 when a client's frame differed.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { zlibPacker } from '../src/node/lockstep/zlibPacker';
import { createHuntMemory, huntInput, type HuntMemory } from '../src/shared/game/pilots/hunt';
import { quantiseInput, sameFrameInput } from '../src/shared/lockstep/input';
import type { StatePacker } from '../src/shared/lockstep/stateTransfer';
import { NetgameClient } from '../src/shared/netgame/client';
import { encodeNetState } from '../src/shared/netgame/netState';
import { NetgameServer } from '../src/shared/netgame/server';
import { NO_INPUT, type ShipInput } from '../src/shared/sim/types';
import { BASE_HEADER_SIZE, encodePacket, PacketType, TERMINATOR_SIZE, TOKEN_SIZE } from '../src/shared/wire';
import { MAX_MOVES, NO_FRAME, STATE_CHUNK_BYTES, type FrameInput, type NetgameEvent, type PacketHeader, type RemoteEvent } from '../src/shared/wire/types';
import { prng } from '../test/support/lockstepSim';

const TICK_MS = 25;
const LOSS_PCT = 5;
const JITTER = 0.1;
const SKILL = 5;
const WIRE_LEVEL = 6;
const IP_UDP = 28;
const MODEM_BUDGET = 2_880;
const LATE_TARGET_PCT = 1;
const LATE_TARGET_RTT = 100;
/** The datagram header every event is measured in: a client's or the server's, with a session token. */
/** A netgame datagram's header (wire v10): the base and the session token, no ship state, no game time. */
const HEADER: PacketHeader = { type: PacketType.GameState, senderSlot: 0, messageId: 0, joined: true, token: 0 };

const int = (lo: number, hi: number) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < lo || n > hi) throw new InvalidArgumentError(`must be an integer from ${lo} to ${hi}`);
  return n;
};
const intList = (lo: number, hi: number, what: string) => (value: string) => {
  const list = value.split(',').map((v) => v.trim());
  if (!list.every((v) => /^\d+$/.test(v) && Number(v) >= lo && Number(v) <= hi)) throw new InvalidArgumentError(`must be ${what} from ${lo} to ${hi} separated by commas`);
  return list.map(Number);
};

const program = new Command('bench:netgame')
  .description('Netgame in process on a virtual clock: bytes per state difference (raw, zlib levels), bytes/s per client by message type, late control changes against the round trip, sync')
  .option('--clients <n>', 'clients, each flown by a hunt pilot', int(1, 30), 8)
  .option('--seconds <s>', 'virtual seconds played per round trip', int(1, 3600), 60)
  .addOption(new Option('--rtts <ms,…>', 'round trips (one-way delay rtt/2 ± 10 %, 5 % loss)').argParser(intList(0, 2000, 'round trips in ms')).default([50, 100, 200], '50,100,200'))
  .addOption(new Option('--levels <l,…>', 'zlib levels to pack every difference with (the wire uses 6)').argParser(intList(0, 9, 'zlib levels')).default([1, 6, 9], '1,6,9'))
  .option('--seed <n>', 'seed of the network (delays, loss) and the pilots', int(0, 2 ** 31), 1)
  .option('--json', 'one JSON line per round trip', false)
  .showHelpAfterError();

type Opts = { clients: number; seconds: number; rtts: number[]; levels: number[]; seed: number; json: boolean };
/** An event under way: `to` -1 is the server. */
type Flight = { at: number; seq: number; to: number; from: number; ev: NetgameEvent };
type Stats = { mean: number; p95: number; max: number };
const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] ?? 0, max: s[s.length - 1] ?? 0 };
};
/** Everything one round trip's run measured. */
type Figures = ReturnType<typeof run>;

function run(o: Opts, rttMs: number) {
  const rand = prng(o.seed * 7919 + rttMs);
  const latency = rttMs / 2;
  let now = 0;
  let seq = 0;
  const flights: Flight[] = [];
  const traffic = new Map<string, { n: number; bytes: number }>();
  const diffs: { raw: number; changed: number; sizes: number[]; age: number }[] = [];
  let wholeStates = 0;
  const leads: Record<number, number> = {};
  const moves: number[] = [];
  const backlog: number[] = [];

  const post = (from: number, to: number, events: RemoteEvent[]): void => {
    const key = `${to === -1 ? 'up' : 'down'} ${events.map((e) => e.type).join('+')}`;
    const t = traffic.get(key) ?? { n: 0, bytes: 0 };
    traffic.set(key, { n: t.n + 1, bytes: t.bytes + encodePacket({ header: HEADER, events }).length });
    for (const ev of events) {
      if (rand() * 100 < LOSS_PCT) continue;
      const f: Flight = { at: now + Math.max(0, latency + (rand() * 2 - 1) * JITTER * latency), seq: seq++, from, to, ev: ev as NetgameEvent };
      let i = flights.length;
      while (i > 0 && (flights[i - 1] as Flight).at > f.at) i--;
      flights.splice(i, 0, f);
    }
  };

  // The wire packs at WIRE_LEVEL; every difference is also packed at each level measured.
  const wire = zlibPacker(WIRE_LEVEL);
  const measured = o.levels.map((l) => zlibPacker(l));
  let lastPack = { changed: 0, sizes: [] as number[] };
  const packer: StatePacker = {
    pack: (bytes) => {
      let changed = 0;
      for (let i = 4; i < bytes.length; i++) if (bytes[i] !== 0) changed++;
      lastPack = { changed, sizes: measured.map((p) => p.pack(bytes).length) };
      return wire.pack(bytes);
    },
    unpack: wire.unpack,
  };
  const server: NetgameServer = new NetgameServer({
    seed: 0x5741524c,
    matchLimits: { killLimit: 0 },
    packer,
    send: (slot, events) => {
      for (const ev of events) {
        if (ev.type === 'gameMoves') {
          moves.push(ev.moves.length);
          backlog.push(server.moves.end - ev.start);
          if (server.clients.get(slot)?.rttMs != null) leads[ev.controlLead] = (leads[ev.controlLead] ?? 0) + 1;
        }
        if (ev.type !== 'stateDiff' || ev.index !== 0) continue;
        const d = server.clients.get(slot)?.lastDiff;
        if (ev.base === NO_FRAME) wholeStates++;
        else if (d) diffs.push({ raw: d.raw, changed: lastPack.changed, sizes: lastPack.sizes, age: ev.frame - ev.base });
      }
      post(-1, slot, events);
    },
  });
  const clients: NetgameClient[] = [];
  const memories: HuntMemory[] = [];
  const lastQ: (FrameInput | null)[] = [];
  let pilotChanges = 0;
  const clientNext: number[] = [];
  for (let i = 0; i < o.clients; i++) {
    const slot = i + 1;
    clients.push(new NetgameClient({ send: (events) => post(slot, -1, events), packer: zlibPacker() }));
    memories.push(createHuntMemory(o.seed * 31 + slot));
    lastQ.push(null);
    clientNext.push(Math.floor(rand() * TICK_MS));
    server.join(slot, 0);
  }

  const serverStates = new Map<number, Buffer>();
  const sync = { compared: 0, mismatches: 0, firstMismatch: null as number | null };
  let shots = 0;
  let kills = 0;
  let serverNext = 0;
  const end = o.seconds * 1000;
  for (;;) {
    const tickAt = Math.min(serverNext, ...clientNext);
    const f = flights[0];
    if (f && f.at <= tickAt) {
      if (f.at > end) break;
      flights.shift();
      now = f.at;
      if (f.to === -1) server.receive(f.from, f.ev, now);
      else clients[f.to - 1]?.receive(f.ev, now);
      continue;
    }
    if (tickAt > end) break;
    now = tickAt;
    if (serverNext === now) {
      serverNext += TICK_MS;
      server.tick(now);
      for (const e of server.lastEvents) {
        if (e.type === 'fired') shots++;
        else if (e.type === 'destroyed') kills++;
      }
      serverStates.set(server.frame, Buffer.from(encodeNetState(server.state)));
      serverStates.delete(server.frame - 400);
    }
    clients.forEach((client, i) => {
      if (clientNext[i] !== now) return;
      clientNext[i] = now + TICK_MS;
      const st = client.state;
      const slot = client.slot;
      let input: ShipInput = NO_INPUT;
      if (st && slot !== null) {
        input = huntInput(st.world, slot, memories[i] as HuntMemory, SKILL);
        const q = quantiseInput(input);
        const last = lastQ[i];
        if (!last || !sameFrameInput(last, q)) pilotChanges++;
        lastQ[i] = q;
      }
      const stepped = client.tick(input, now);
      const mine = client.state;
      if (stepped.length === 0 || !mine) return;
      const theirs = serverStates.get(mine.world.tick);
      if (!theirs) return;
      sync.compared++;
      if (theirs.equals(encodeNetState(mine))) return;
      sync.mismatches++;
      sync.firstMismatch ??= mine.world.tick;
    });
  }

  const perClientS = o.clients * o.seconds;
  const byClient = [...server.clients.values()];
  const taken = byClient.reduce((n, c) => n + c.changes, 0);
  const late = byClient.reduce((n, c) => n + c.late, 0);
  const rtts = byClient.flatMap((c) => (c.rttMs === null ? [] : [c.rttMs]));
  return {
    rttMs,
    diffs: diffs.length,
    wholeStates,
    ackedPct: (100 * (traffic.get('up stateAck')?.n ?? 0)) / Math.max(1, diffs.length + wholeStates),
    baseAge: stats(diffs.map((d) => d.age)).mean,
    raw: stats(diffs.map((d) => d.raw)),
    changed: stats(diffs.map((d) => d.changed)),
    levels: o.levels.map((level, j) => {
      const packed = diffs.map((d) => d.sizes[j] as number);
      return { level, packed: stats(packed), ratio: diffs.reduce((a, d) => a + d.raw, 0) / Math.max(1, packed.reduce((a, b) => a + b, 0)), datagrams: stats(packed.map((p) => Math.max(1, Math.ceil(p / STATE_CHUNK_BYTES)))) };
    }),
    moves: stats(moves),
    movesAtCapPct: (100 * moves.filter((n) => n >= MAX_MOVES).length) / Math.max(1, moves.length),
    backlog: stats(backlog),
    traffic: [...traffic].map(([key, t]) => {
      const [dir, type] = key.split(' ') as ['up' | 'down', string];
      return { dir, type, datagramsPerS: t.n / perClientS, bytesPerS: t.bytes / perClientS, withIpPerS: (t.bytes + IP_UDP * t.n) / perClientS };
    }),
    measuredRttMs: rtts.reduce((a, b) => a + b, 0) / Math.max(1, rtts.length),
    pilotChanges,
    sent: clients.reduce((n, c) => n + c.stats().controlChanges, 0),
    taken,
    late,
    latePct: (100 * late) / Math.max(1, taken + late),
    refused: byClient.reduce((n, c) => n + c.refused, 0),
    leads,
    ...sync,
    corrections: clients.reduce((n, c) => n + c.stats().corrections, 0),
    shots,
    kills,
  };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const msd = (s: Stats) => `${fmt(s.mean)} / ${fmt(s.p95)} / ${fmt(s.max)}`;
const table = (widths: number[]) => (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' ').trimEnd();
const TYPES = ['controlChange', 'movesAck', 'stateAck', 'gameMoves', 'stateDiff', 'lateControl', 'netgameWelcome'];

function print(o: Opts, all: Figures[]): void {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  w(`netgame: ${o.clients} clients flown by hunt pilots (skill ${SKILL}, no kill limit), ${o.seconds} virtual s per round trip; one way rtt/2 ± ${JITTER * 100} %, ${LOSS_PCT} % loss; the wire packs with zlib level ${WIRE_LEVEL}`);
  w('');
  w(`1. bytes per state difference (to each client every 20 frames, XOR with its acknowledged state; whole states at the joins left out); mean / p95 / max`);
  w(`   acked: differences whose every chunk arrived (the client acknowledges only those; the base of the next is the last acked)`);
  const t1 = table([10, 6, 6, 9, 22, 22, 5, 22, 7, 14]);
  w(t1(['round trip', 'diffs', 'acked', 'base age', 'raw B', 'changed B', 'zlib', 'packed B', 'ratio', 'datagrams/diff']));
  for (const f of all)
    f.levels.forEach((l, j) => {
      const head = j === 0 ? [`${f.rttMs} ms`, String(f.diffs), `${fmt(f.ackedPct)} %`, `${fmt(f.baseAge, 1)} fr`, msd(f.raw), msd(f.changed)] : ['', '', '', '', '', ''];
      w(t1([...head, String(l.level), msd(l.packed), `${fmt(l.ratio, 1)}:1`, `${fmt(l.datagrams.mean, 2)} / ${l.datagrams.p95} / ${l.datagrams.max}`]));
    });
  w('');
  w(`2. traffic per client: datagrams/s, B/s (header ${BASE_HEADER_SIZE} + token ${TOKEN_SIZE} + event + ${TERMINATOR_SIZE} B), and B/s with ${IP_UDP} B of IPv4+UDP per datagram; reference (no target): 28.8 kbit/s modem ${fmt(MODEM_BUDGET)} B/s`);
  const t2 = table([10, 5, 15, 12, 9, 12]);
  w(t2(['round trip', 'dir', 'message', 'datagrams/s', 'B/s', 'B/s + IP']));
  for (const f of all)
    for (const dir of ['up', 'down'] as const) {
      const rows = f.traffic.filter((t) => t.dir === dir).sort((a, b) => TYPES.indexOf(a.type) - TYPES.indexOf(b.type));
      for (const t of rows) w(t2([`${f.rttMs} ms`, dir, t.type, fmt(t.datagramsPerS, 1), fmt(t.bytesPerS), fmt(t.withIpPerS)]));
      const sum = (k: 'datagramsPerS' | 'bytesPerS' | 'withIpPerS') => rows.reduce((a, t) => a + t[k], 0);
      const headers = (100 * sum('datagramsPerS') * (BASE_HEADER_SIZE + TOKEN_SIZE + TERMINATOR_SIZE)) / sum('bytesPerS');
      w(t2([`${f.rttMs} ms`, dir, 'total', fmt(sum('datagramsPerS'), 1), fmt(sum('bytesPerS')), `${fmt(sum('withIpPerS'))} (${fmt((100 * sum('withIpPerS')) / MODEM_BUDGET)} % of modem; headers ${fmt(headers)} % of B/s)`]));
    }
  for (const f of all) w(`${f.rttMs} ms: moves per gameMoves ${msd(f.moves)} (${fmt(f.movesAtCapPct, 1)} % at the cap of ${MAX_MOVES}); entries not yet acknowledged by the client ${msd(f.backlog)}`);
  w('');
  w(`3. control changes (all clients): the pilots' distinct changes, sent by the clients (with resends), taken / late / refused by the server; target < ${LATE_TARGET_PCT} % late at ${LATE_TARGET_RTT} ms (issue 15)`);
  const t3 = table([10, 9, 8, 7, 7, 5, 8, 20, 8, 30]);
  w(t3(['round trip', 'measured', 'pilots', 'sent', 'taken', 'late', 'late %', 'target', 'refused', 'leads sent, frames (share)']));
  for (const f of all) {
    const total = Object.values(f.leads).reduce((a, b) => a + b, 0);
    const leads = Object.entries(f.leads).map(([l, n]) => `${l} (${fmt((100 * n) / total, 1)} %)`).join(', ');
    const target = f.rttMs === LATE_TARGET_RTT ? `< ${LATE_TARGET_PCT} %: ${f.latePct < LATE_TARGET_PCT ? 'met' : 'MISSED'}` : '-';
    w(t3([`${f.rttMs} ms`, `${fmt(f.measuredRttMs)} ms`, String(f.pilotChanges), String(f.sent), String(f.taken), String(f.late), `${fmt(f.latePct, 2)} %`, target, String(f.refused), leads]));
  }
  w('');
  w(`4. sync: client frames compared with the server's (mismatches must be 0), corrections; the fight (server events)`);
  const t4 = table([10, 9, 11, 12, 12, 6, 5]);
  w(t4(['round trip', 'compared', 'mismatches', 'first at', 'corrections', 'shots', 'kills']));
  for (const f of all) w(t4([`${f.rttMs} ms`, String(f.compared), `${f.mismatches}${f.mismatches > 0 ? ' DIFFER' : ''}`, f.firstMismatch === null ? '-' : `frame ${f.firstMismatch}`, String(f.corrections), String(f.shots), String(f.kills)]));
}

function main(): void {
  program.parse();
  const o = program.opts<Opts>();
  const all: Figures[] = [];
  for (const rtt of o.rtts) {
    const f = run(o, rtt);
    all.push(f);
    if (o.json) process.stdout.write(`${JSON.stringify({ t: 'rtt', ...f })}\n`);
  }
  if (!o.json) print(o, all);
  const bad = all.reduce((n, f) => n + f.mismatches, 0);
  if (bad > 0) {
    process.stderr.write(`bench-netgame: ${bad} client frame(s) differed from the server's\n`);
    process.exitCode = 1;
  }
}

main();
