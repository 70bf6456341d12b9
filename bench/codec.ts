/**
 * Wire codec benchmark (`npm run bench:codec`):
 *  - encode and decode throughput (packets/s, MB/s) for (a) a bare state
 *    packet, (b) a typical packet with 2 laser events and a chat line, and
 *    (c) a full 512-byte packet;
 *  - HEADER_SIZE, and the upstream bandwidth of one client sending at 20 Hz
 *    (with 28 bytes of UDP/IPv4 overhead per datagram) against the 1998
 *    design's 28.8 kbit/s modem budget of 2,880 B/s, bare and with one laser
 *    event in every packet;
 *  - the datagrams of the shared-world models (wire v10): a lockstep frame
 *    in a 4-player game (bench/lockstepDatagrams.ts: sizes, how many carry
 *    the status, B/s per peer; target ≤ 24 bytes of UDP payload per frame),
 *    a netgame control change and a netgame state-difference chunk, each
 *    beside the bytes the v9 layout took for the same content;
 *  - reliable messages and acknowledgements in the header's link section
 *    (wire v11): (g) a game state carrying a chat line reliably and two
 *    acknowledgements (throughput and bytes), (h) a Reliable datagram of one
 *    acknowledgement, each beside the bytes of v10's `reliable` and `ack` events.
 * Exits by itself.
 */
import { MAX_DATAGRAM_BYTES } from '../src/shared/net/packetApi';
import { BASE_HEADER_SIZE, decodePacket, encodePacket, HEADER_SIZE, linkSize, packetSize, PacketType, RELAYED_OVERHEAD, TERMINATOR_SIZE, TIME_SIZE } from '../src/shared/wire';
import type { Packet, PacketHeader, RemoteEvent } from '../src/shared/wire';
import { eventSize } from '../src/shared/wire';
import { ClientGame, kindOf, RULES, type Ship } from '../src/shared/game';
import { GameCodeInterface } from '../src/shared/net/gameCode';
import { NO_INPUT, STEP_MS, TICK_HZ } from '../src/shared/sim/types';
import { NO_SLOT } from '../src/shared/wire/types';
import { lockstepBytes } from './lockstepDatagrams';
import { shipStateBytes } from './shipStateBytes';

const RUN_MS = 1_000;
const WARMUP_MS = 200;
const SEND_HZ = 20;
const UDP_IPV4_OVERHEAD = 28; // 20-byte IPv4 header + 8-byte UDP header
const BUDGET_BYTES_PER_S = 2_880; // 28,800 bit/s over a serial line with start and stop bits: 10 bits per byte

const header: PacketHeader = {
  type: PacketType.GameState,
  senderSlot: 1,
  messageId: 123_456,
  gameTime: 987_654_321,
  joined: true,
  state: {
    pos: { x: 1520.25, y: -88.5, z: 40_210.75 },
    rot: { x: 0.1, y: 0.7, z: -0.1, w: 0.7 },
    vel: { x: 12.5, y: 0, z: -140 },
    angVel: { x: 0.2, y: -1.1, z: 0 },
    energy: 83,
    damage: 12,
  },
};

const laser = (id: number): RemoteEvent => ({
  type: 'createLaser',
  id: (1 << 16) | id,
  pos: { x: 1521, y: -88, z: 40_200 },
  vel: { x: 12.5, y: 0, z: -940 },
  ttl: 80,
});

const bare: Packet = { header, events: [] };
// A game state with a laser, two acknowledgements and a chat line sent reliably (wire v11: the link section).
const reliableState: Packet = { header, events: [laser(1)], link: { acks: [41, 42], messages: [{ id: 7, event: { type: 'sendText', text: 'nice shot! meet at the gate' } }] } };
// A client's Reliable datagram of one acknowledgement to a gameserver: base header, its token, the link section.
const ackOnly: Packet = { header: { type: PacketType.Reliable, senderSlot: 1, messageId: 123_457, joined: true, token: 0x5eed_c0de }, events: [], link: { acks: [41] } };
const typical: Packet = { header, events: [laser(1), laser(2), { type: 'sendText', text: 'nice shot! meet at the gate' }] };
// 55 + 12 × 33 = 451 bytes, then one text event of 3 + 1 + 57 fills the datagram exactly.
const twelveLasers: Packet = { header, events: Array.from({ length: 12 }, (_, i) => laser(i)) };
/** Twelve lasers and a chat line (3 + 1 + n bytes) that fills the datagram to 512 bytes exactly. */
const full: Packet = {
  header,
  events: [...twelveLasers.events, { type: 'sendText', text: 'z'.repeat(MAX_DATAGRAM_BYTES - packetSize(twelveLasers) - 4) }],
};

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Calls `fn` in batches for about `ms`; returns calls per second. */
function rate(fn: () => void, ms: number): number {
  const batch = 1_000;
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
}

let sink = 0; // consumed results, so the engine cannot skip the work

function bench(label: string, packet: Packet): void {
  const bytes = encodePacket(packet);
  const check = decodePacket(bytes);
  if (!check.ok) throw new Error(`${label}: own packet dropped (${check.reason})`);
  const encode = (): void => {
    sink += encodePacket(packet).length;
  };
  const decode = (): void => {
    sink += decodePacket(bytes).ok ? 1 : 0;
  };
  rate(encode, WARMUP_MS);
  rate(decode, WARMUP_MS);
  const enc = rate(encode, RUN_MS);
  const dec = rate(decode, RUN_MS);
  const mb = (perS: number): string => fmt((perS * bytes.length) / 1e6, 1);
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const link = packet.link ? `, link section ${linkSize(packet.link)} bytes (${count(packet.link.acks?.length ?? 0, 'acknowledgement')}, ${count(packet.link.messages?.length ?? 0, 'message')}; as v10 events: ${v10Size(packet)} bytes)` : '';
  console.log(`[bench:codec] ${label}: ${bytes.length} bytes, ${count(packet.events.length, 'event')}${link}`);
  console.log(`[bench:codec]   encode ${fmt(enc)} packets/s, ${mb(enc)} MB/s`);
  console.log(`[bench:codec]   decode ${fmt(dec)} packets/s, ${mb(dec)} MB/s`);
}

/** Bytes `packet` took in wire v10, when its acknowledgements were an `ack` event (3 + 1 + 2 per id) and each reliable message a `reliable` event (3 + id 2 + the inner event). */
function v10Size(packet: Packet): number {
  const link = packet.link;
  if (!link) return packetSize(packet);
  const acks = link.acks ? 4 + 2 * link.acks.length : 0;
  const messages = (link.messages ?? []).reduce((n, m) => n + 5 + eventSize(m.event), 0);
  return packetSize(packet) - linkSize(link) + acks + messages;
}

function bandwidth(label: string, packet: Packet): void {
  const payload = packetSize(packet);
  const perSecond = (payload + UDP_IPV4_OVERHEAD) * SEND_HZ;
  const ratio = perSecond / BUDGET_BYTES_PER_S;
  console.log(
    `[bench:codec] upstream, ${label} at ${SEND_HZ} Hz: (${payload} + ${UDP_IPV4_OVERHEAD}) B × ${SEND_HZ} = ${fmt(perSecond)} B/s; ` +
      `budget ${fmt(BUDGET_BYTES_PER_S)} B/s; ratio ${fmt(ratio, 3)} (${fmt(ratio * 100, 1)}%); within budget: ${ratio <= 1 ? 'yes' : 'NO'}`,
  );
}

if (packetSize(full) !== MAX_DATAGRAM_BYTES) throw new Error(`full packet is ${packetSize(full)} bytes, expected ${MAX_DATAGRAM_BYTES}`);

console.log(`[bench:codec] HEADER_SIZE ${HEADER_SIZE} bytes (header + ship state; +1 terminator = ${packetSize(bare)}-byte bare packet)`);
bench('(a) bare state packet', bare);
bench('(b) typical: 2 lasers + chat line', typical);
bench('(c) full datagram', full);
bandwidth('bare state packets', bare);
bandwidth('state + 1 laser event per packet', { header, events: [laser(1)] });
fightingShip();
stateSections();
sharedWorlds();
bench('(g) game state with a laser, 2 acknowledgements and a reliable chat line', reliableState);
console.log(`[bench:codec] (h) Reliable datagram of 1 acknowledgement (client → gameserver, with token): ${packetSize(ackOnly)} B (v10: ${v10Size(ackOnly)} B)`);
if (sink === 0) console.log('[bench:codec] (nothing measured)');

/**
 * The upstream of a fighting ship, measured: a client game whose ship holds
 * the laser (at level 3: three bolts a shot) and missile triggers down for
 * 10 s from full energy, its creations queued as the game driver queues them
 * and taken into one packet every 50 ms (20 Hz) as the session takes them.
 * Prints the average and the worst second against the budget.
 */
function fightingShip(): void {
  const game = new ClientGame();
  game.applyPlayers([{ slot: 0, joined: true, local: true }, { slot: 1, joined: true, local: false }], 0);
  const ship = game.localShip!;
  // Three bolts a shot and a full rack: the most a ship can put on the wire.
  (game.curr.ships as Ship[])[game.curr.ships.indexOf(ship)] = { ...ship, laserLevel: RULES.laser.maxLevel, missiles: RULES.missile.maxAmmo };
  const events = new GameCodeInterface();
  const perSecond: number[] = [];
  const ticksPerPacket = TICK_HZ / SEND_HZ;
  for (let t = 0; t < 10 * TICK_HZ; t++) {
    const at = t * STEP_MS;
    const out = game.step({ ...NO_INPUT, thrust: 1, fire: true, missile: true, target: 1 }, at);
    for (const o of out.created) kindOf(o).send(o, events, at);
    if (t % ticksPerPacket !== 0) continue;
    const packet: Packet = { header, events: events.takeEvents(0, at, MAX_DATAGRAM_BYTES - HEADER_SIZE - 1, eventSize) };
    const second = Math.floor(t / TICK_HZ);
    perSecond[second] = (perSecond[second] ?? 0) + packetSize(packet) + UDP_IPV4_OVERHEAD;
  }
  const avg = perSecond.reduce((a, b) => a + b, 0) / perSecond.length;
  const worst = Math.max(...perSecond);
  console.log(
    `[bench:codec] upstream, fighting ship (laser level 3 and missiles held down 10 s) at ${SEND_HZ} Hz: average ${fmt(avg)} B/s, worst second ${fmt(worst)} B/s; ` +
      `budget ${fmt(BUDGET_BYTES_PER_S)} B/s; worst ratio ${fmt(worst / BUDGET_BYTES_PER_S, 3)}; within budget: ${worst <= BUDGET_BYTES_PER_S ? 'yes' : 'NO'}`,
  );
}

/** Bytes of one ship state in the header, for a fighting ship and an idle one (shipStateBytes.ts). */
function stateSections(): void {
  for (const r of shipStateBytes(10)) {
    console.log(
      `[bench:codec] (i) ship state of ${r.ship}, ${r.states} states at ${SEND_HZ} Hz: v12 ${r.v12} B each; v13 full ${r.full} B; v13 partial against the state acknowledged ${r.ackLag} sends back: mean ${fmt(r.partialMean, 1)} B, p99 ${r.partialP99} B ` +
        `(${fmt(r.partialMean / r.v12, 2)} of v12); portions sent: ${r.portions}`,
    );
    // In a gameserver's Relay each state is a relayed event around an inner GameState: its code, length, slot and inner length, the 10-byte base, the time, the state, the terminator.
    const around = RELAYED_OVERHEAD + BASE_HEADER_SIZE + TIME_SIZE + TERMINATOR_SIZE;
    console.log(
      `[bench:codec] (i) the same ship relayed by a gameserver, per state in a Relay: v12 ${around + r.v12} B; v13 ${around + r.full} B (every state full); ` +
        `v14 partial against the newest state in a Relay the client acknowledged (${r.ackLag} sends back): mean ${fmt(around + r.partialMean, 1)} B, p99 ${around + r.partialP99} B (${fmt((around + r.partialMean) / (around + r.full), 2)} of v13)`,
    );
  }
}

/**
 * Lockstep and netgame datagrams (wire v10: no ship state, no game time).
 * The v9 figures are the same content in the v9 layout: a 54-byte header
 * with an all-zero ship state, the token, and (lockstep) one 27-byte
 * lockstepFrame event plus 6 bytes per input in every datagram.
 */
function sharedWorlds(): void {
  const TARGET = 24;
  const V9_HEADER = 54 + 4;
  const r = lockstepBytes(4, 60);
  const links = r.peers - 1;
  const at = (q: number): number => r.frameSizes[Math.min(r.frameSizes.length - 1, Math.floor(q * r.frameSizes.length))] as number;
  const median = at(0.5);
  console.log(
    `[bench:codec] (d) lockstep frame, ${r.peers} players, keyboard pilots, ${r.seconds} s on loopback: ${fmt(r.frameSizes.length)} frame datagrams, UDP payload median ${median} B, p95 ${at(0.95)} B, max ${at(1)} B; ` +
      `${fmt((100 * r.withStatus) / r.frameSizes.length, 1)} % also carry the status (25 B); target median ≤ ${TARGET} B: ${median <= TARGET ? 'yes' : 'NO'}`,
  );
  console.log(
    `[bench:codec]     per peer: ${fmt(r.datagramsPerS)} datagrams/s to its ${links} peers, ${fmt(r.bytesPerS)} B/s payload (${fmt(r.bytesPerS / links)} B/s per link), ` +
      `${fmt(r.bytesPerS + r.datagramsPerS * UDP_IPV4_OVERHEAD)} B/s with IPv4+UDP; frames stepped ${r.framesStepped.join('/')}`,
  );
  // v9 put a 54-byte header with a zero ship state and a 27-byte frame event (plus 6 bytes per input) in every frame datagram.
  const v9 = r.v9Sizes[r.v9Sizes.length >> 1] as number;
  const v9PerLink = r.v9Sizes.reduce((n, b) => n + b, 0) / r.seconds / r.peers / links;
  console.log(`[bench:codec]     the same frames in the v9 layout: median ${v9} B, ${fmt(v9PerLink)} B/s per link; ratio now/v9 (median) ${fmt(median / v9, 2)}`);
  const input = { thrust: 127, yaw: -127, pitch: 0, roll: 0, buttons: 1, target: NO_SLOT };
  const control = encodePacket({ header: { type: PacketType.GameState, senderSlot: 2, messageId: 99, joined: true, token: 0x5eed_c0de }, events: [{ type: 'controlChange', frame: 12_345, input }] });
  console.log(`[bench:codec] (e) netgame control change (client → server): ${control.length} B (v9: ${V9_HEADER + 3 + 10 + 1} B)`);
  for (const bytes of [400, 120]) {
    const chunk = encodePacket({
      header: { type: PacketType.Relay, senderSlot: NO_SLOT, messageId: 99, joined: false, token: 0x5eed_c0de },
      events: [{ type: 'stateDiff', base: 12_300, frame: 12_345, index: 0, count: 1, data: new Uint8Array(bytes) }],
    });
    console.log(`[bench:codec] (f) netgame state-difference chunk of ${bytes} B (server → client): ${chunk.length} B (v9: ${V9_HEADER + 3 + 12 + bytes + 1} B)`);
  }
}
