/**
 * bench:gameserver's load generator, a process of its own (the bench spawns
 * it with `node --import tsx`, pinned to the core the server does not run
 * on, and drives it over its IPC channel; gameserverLayout.ts has the
 * messages). It joins N headless clients (test/support/gameClient.ts: TCP
 * join, then real UDP with the session token) and has each send a GameState
 * at 20 Hz (a laser in every tenth), as real players do:
 *  - each binds its TCP and UDP sockets to a loopback address of its own
 *    group, 127.0.0.2, .3, ... with at most 8 clients per address (the
 *    server's default seats per host; loopbackHosts.ts);
 *  - each says hello (its first datagram, a NodeAlive) right after its own join;
 *  - each acknowledges the server's reliable messages (match state, arena
 *    events) through the real client's link layer (test/support/serverLink.ts).
 * Senders and receivers live in this one process, so a state's forward
 * latency is its receipt minus its send on one clock (performance.now()).
 * It keeps per pair of clients a bitmap of the measured states received
 * (not a set of ids: 256 clients make 65,280 pairs) and the latencies in
 * 10 µs bins, and reconciles the lost states with the server's counters
 * (gameserverLoss.ts) once the bench hands it the status JSON.
 */
import { GameClient } from '../test/support/gameClient';
import { RelayedStates } from '../src/shared/net/relayedStates';
import { decodePacket, fixedHeaderSize, FLAG_TIME, FLAG_JOINED, messageIdOf, RELAYED_EVENT_CODE } from '../src/shared/wire/codec';
import { objectId, PacketType, type LinkSection, type ShipState } from '../src/shared/wire/types';
import type { Vec3 } from '../src/shared/sim/types';
import { reconcile, type ClientTally, type LostState, type ServerTally } from './gameserverLoss';
import { gridPosition, serverOf, visible, type FromLoad, type Layout, type LoadResult, type ToLoad } from './gameserverLayout';
import { loopbackHost } from './loopbackHosts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (m: FromLoad) => process.send?.(m);

/** Forward latencies in 10 µs bins up to 10 s (and the exact maximum). */
class Histogram {
  private readonly bins = new Uint32Array(1_000_000);
  count = 0;
  max = 0;
  add(ms: number): void {
    const bin = Math.min(this.bins.length - 1, Math.max(0, Math.floor(ms * 100)));
    this.bins[bin] = (this.bins[bin] as number) + 1;
    this.count += 1;
    if (ms > this.max) this.max = ms;
  }
  /** The bin's upper edge below which `p` % of the samples fall. */
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const want = Math.min(this.count, Math.floor((p / 100) * this.count) + 1);
    let seen = 0;
    for (let i = 0; i < this.bins.length; i++) {
      seen += this.bins[i] as number;
      if (seen >= want) return Math.min(this.max, (i + 1) / 100);
    }
    return this.max;
  }
}

/** What one client has received, counted as it arrives. */
class Inbox {
  relays = 0;
  bytes = 0;
  others = 0;
  states = 0;
  /** Decoded in full now and then (1 in 64) to check the scan; failures counted. */
  checked = 0;
  bad = 0;
  /** Over the whole run (never reset): datagrams and relayed states read, gaps in the server's message ids. */
  readonly ever = { datagrams: 0, states: 0, idGaps: 0 };
  private lastId: number | null = null;
  /** The Relays taken, for the acknowledgement a real client sends (no states kept: the load only scans). */
  readonly relaysTaken = new RelayedStates();
  /** Sampled relays holding a partial state, which the load (keeping no bases) cannot decode. */
  partialUnchecked = 0;

  /**
   * Scans a datagram without decoding it into objects (the load must stay
   * light): for each relayed GameState that carries a state (joined), calls
   * `state(slot, messageId, at)`.
   */
  take(b: Uint8Array, at: number, state: (slot: number, id: number, at: number) => void, sent: (serverMs: number, at: number) => void): void {
    this.bytes += b.length;
    this.ever.datagrams += 1;
    if (b.length >= 10) {
      // The server numbers its datagrams to each client 1, 2, 3...: a gap is a datagram lost on the way (a late one fills it).
      const id = messageIdOf(b);
      if (this.lastId === null || id > this.lastId) {
        if (this.lastId !== null) this.ever.idGaps += id - this.lastId - 1;
        this.lastId = id;
      } else if (id < this.lastId) this.ever.idGaps -= 1;
    }
    if (b[3] !== PacketType.Relay) {
      this.others += 1;
      return;
    }
    this.relays += 1;
    if (b.length >= 10) this.relaysTaken.took(messageIdOf(b), []);
    if ((this.relays & 63) === 0) {
      this.checked += 1;
      const r = decodePacket(b);
      if (!r.ok && r.reason === 'unknown-base') this.partialUnchecked += 1;
      else if (!r.ok) this.bad += 1;
    }
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    // A server's Relay header: its game time (when it was sent, on the server's clock) and the token (wire v10), no ship.
    if (((b[5] as number) & FLAG_TIME) !== 0 && b.length >= 14) sent(v.getUint32(10), at);
    let at0 = fixedHeaderSize(b);
    if (at0 < 0) return;
    while (at0 + 3 <= b.length && b[at0] !== 0) {
      const length = v.getUint16(at0 + 1);
      if (b[at0] === RELAYED_EVENT_CODE) {
        const slot = b[at0 + 3] as number;
        const inner = at0 + 6;
        if (((b[inner + 5] as number) & FLAG_JOINED) !== 0) {
          this.ever.states += 1;
          this.states += 1;
          state(slot, v.getUint32(inner + 6), at);
        }
      }
      at0 += 3 + length;
    }
  }

  reset(): void {
    this.relays = this.bytes = this.others = this.states = 0;
  }
}

/**
 * A weaving, fighting ship at `pos` on its `k`-th send: it turns and its
 * velocity changes every state, its spin every 10th and its energy every 5th
 * (so a partial state carries position, orientation and velocity, about 21
 * bytes against 30 full: near bench:codec's fighting ship, 24.9).
 */
function weaving(pos: Vec3, k: number): ShipState {
  const yaw = 0.3 * Math.sin(k / 15);
  return {
    pos,
    rot: { x: 0, y: Math.sin(yaw / 2), z: 0, w: Math.cos(yaw / 2) },
    vel: { x: 2 * Math.cos(k / 10), y: 0, z: -20 },
    angVel: { x: 0, y: 0.4 * Math.cos(Math.floor(k / 10)), z: 0 },
    energy: 60 + (Math.floor(k / 5) % 40),
    damage: 0,
  };
}

/** The link section acknowledging the Relays `inbox` took (none before the first). */
function ackOf(inbox: Inbox): { link?: LinkSection } {
  const relayAck = inbox.relaysTaken.ack();
  return relayAck === undefined ? {} : { link: { relayAck } };
}

/** The load: N clients, what they sent in the measured window and what they got of it. */
class Load {
  readonly clients: GameClient[] = [];
  readonly inboxes: Inbox[] = [];
  private driver: NodeJS.Timeout | undefined;
  private sending = false;
  /** How late the send loop ran at worst in the measured window (ms): its timer's lateness, or a stall of the process. */
  private lateness = 0;
  private readonly bySlot = new Map<number, number>();
  private measuring = false;
  private t0 = 0;
  private elapsed = 0;
  /** Per sender: the message ids of its measured states in order, their send times, and id → index. */
  private readonly ids: number[][];
  private readonly sentAt: number[][];
  private readonly index: Map<number, number>[];
  private readonly bytesUp: number[];
  private readonly sent: number[];
  /** Per pair (receiver × N + sender): a bitmap of the sender's measured states received, and the newest id received. */
  private readonly pairBytes: number;
  private readonly got: Uint8Array;
  private readonly newest: Float64Array;
  private readonly latency = new Histogram();
  /**
   * Per relay datagram received in the window: its receipt on this clock minus the server's time in its header
   * (the moment it was sent, on the server's clock), and the least of those over the whole run. The two clocks
   * tick alike, so each minus the least is how long the datagram took after the server sent it (the least is
   * taken as the quickest delivery, with the header's whole milliseconds: ±1 ms).
   */
  private readonly afterSend: number[] = [];
  private afterSendLeast = Infinity;
  private duplicates = 0;

  constructor(
    readonly layout: Layout,
    private readonly sendHz: number,
    seconds: number,
    /** Acknowledge the server's Relays as a real client does (then it sends the others' states partial). */
    private readonly relayAcks: boolean,
  ) {
    const n = layout.bots;
    this.ids = Array.from({ length: n }, () => []);
    this.sentAt = Array.from({ length: n }, () => []);
    this.index = Array.from({ length: n }, () => new Map());
    this.bytesUp = new Array<number>(n).fill(0);
    this.sent = new Array<number>(n).fill(0);
    this.pairBytes = Math.ceil((Math.ceil(seconds * sendHz * 1.5) + 32) / 8);
    this.got = new Uint8Array(n * n * this.pairBytes);
    this.newest = new Float64Array(n * n);
  }

  private onState(r: number, slot: number, id: number, at: number): void {
    // The sender plays on the receiver's server.
    const s = this.bySlot.get(this.key(r, slot));
    if (s === undefined || !this.measuring) return;
    const pair = r * this.layout.bots + s;
    if (id > (this.newest[pair] as number)) this.newest[pair] = id;
    const k = this.index[s]?.get(id);
    if (k === undefined || k >= this.pairBytes * 8) return;
    const at0 = pair * this.pairBytes + (k >> 3);
    const bit = 1 << (k & 7);
    if (((this.got[at0] as number) & bit) !== 0) {
      this.duplicates += 1;
      return;
    }
    this.got[at0] = (this.got[at0] as number) | bit;
    this.latency.add(at - (this.sentAt[s]?.[k] as number));
  }

  private onSent(serverMs: number, at: number): void {
    const d = at - serverMs;
    if (d < this.afterSendLeast) this.afterSendLeast = d;
    if (this.measuring) this.afterSend.push(d);
  }

  /** Joins every client (8 at a time, one loopback address each batch); the server's refusal line if it refused one. */
  /** A client's key in bySlot and the tallies: its server and its slot there (slots repeat across servers). */
  private key(i: number, slot: number): number {
    return serverOf(this.layout, i) * 256 + slot;
  }

  async join(tcp: number[], http: number[]): Promise<string | null> {
    const n = this.layout.bots;
    for (let first = 0; first < n; first += 8) {
      const batch = Array.from({ length: Math.min(8, n - first) }, (_, j) => first + j);
      const joined = await Promise.allSettled(
        batch.map((i) => {
          const inbox = new Inbox();
          this.inboxes[i] = inbox;
          const onState = (slot: number, id: number, at: number) => this.onState(i, slot, id, at);
          const onSent = (serverMs: number, at: number) => this.onSent(serverMs, at);
          return GameClient.join({ tcpPort: tcp[serverOf(this.layout, i)] as number, name: `bot${i}`, localAddress: loopbackHost(i), link: true, raw: (bytes, at) => inbox.take(bytes, at, onState, onSent) });
        }),
      );
      let refused: string | null = null;
      for (const [k, j] of joined.entries()) {
        const i = batch[k] as number;
        if (j.status === 'rejected') {
          const line = /^join refused: (.*)$/s.exec((j.reason as Error).message)?.[1];
          if (line === undefined) throw j.reason;
          refused ??= `the gameserver refused bot${i} (join ${i + 1}, from ${loopbackHost(i)}): "${line}"`;
          continue;
        }
        const c = j.value;
        this.clients[i] = c;
        this.bySlot.set(this.key(i, c.slot), i);
        // Counts the bytes each client sends (every datagram goes through its socket's send).
        const send = c.udp.send.bind(c.udp) as (msg: Uint8Array, ...rest: unknown[]) => void;
        (c.udp as unknown as { send: typeof send }).send = (msg, ...rest) => {
          this.bytesUp[i] = (this.bytesUp[i] as number) + msg.length;
          send(msg, ...rest);
        };
        c.hello();
      }
      if (refused !== null) {
        const status = (await (await fetch(`http://127.0.0.1:${http[serverOf(this.layout, first)] as number}/status.json`)).json()) as ServerTally;
        return `${refused} (its max players: ${status.maxPlayers}; seated: ${status.players.length})`;
      }
    }
    return null;
  }

  /**
   * Every client sends a GameState at `sendHz`, staggered like real players,
   * whose clocks are not in step. One timer drives them all on a fixed
   * schedule (each send due a period after the last was due, not after it
   * ran, so a busy loop does not drift the rate down); a client more than a
   * period behind skips ahead, and its achieved rate shows it.
   */
  start(): void {
    const n = this.layout.bots;
    const period = 1000 / this.sendHz;
    const t = performance.now();
    const due = this.clients.map((_, i) => t + (i * period) / n);
    const sends = new Array<number>(n).fill(0);
    const grids = this.clients.map((_, i) => gridPosition(this.layout, i));
    const tick = (i: number) => {
      const c = this.clients[i] as GameClient;
      const k = sends[i] as number;
      const grid = grids[i] as { x: number; y: number };
      // Flying along −Z; each laser leaves its own ship straight ahead, so it starts where the server's rules guard
      // expects it and passes no other ship (no hit a ship could be said to ignore).
      const pos = { x: grid.x + Math.sin(k / 10), y: grid.y, z: -k };
      const events = k % 10 === 0 ? [{ type: 'createLaser' as const, id: objectId(c.slot, k & 0xffff), pos, vel: { x: 0, y: 0, z: -500 }, ttl: 40 }] : [];
      const packet = c.packet({ state: weaving(pos, k), events, ...(this.relayAcks ? ackOf(this.inboxes[i] as Inbox) : {}) });
      c.sendRaw(packet);
      const id = packet.header.messageId;
      sends[i] = k + 1;
      if (!this.measuring) return;
      const ids = this.ids[i] as number[];
      this.index[i]?.set(id, ids.length);
      ids.push(id);
      this.sentAt[i]?.push(performance.now());
      this.sent[i] = (this.sent[i] as number) + 1;
    };
    const drive = () => {
      if (!this.sending) return;
      const now = performance.now();
      if (this.measuring) this.lateness = Math.max(this.lateness, now - planned);
      let soonest = Infinity;
      for (let i = 0; i < n; i++) {
        let at = due[i] as number;
        if (at <= now) {
          tick(i);
          at += period;
          if (at <= now) at = now + period;
          due[i] = at;
        }
        soonest = Math.min(soonest, at);
      }
      planned = soonest;
      this.driver = setTimeout(drive, Math.max(0, soonest - performance.now()));
    };
    let planned = t;
    this.sending = true;
    drive();
  }

  /** From now on sends and receipts count (the warm-up's do not). */
  measure(): void {
    for (const inbox of this.inboxes) inbox.reset();
    this.bytesUp.fill(0);
    this.t0 = performance.now();
    this.measuring = true;
  }

  /** Stops sending; receipts of measured states still count until the result is taken. */
  stop(): void {
    this.sending = false;
    clearTimeout(this.driver);
    this.elapsed = (performance.now() - this.t0) / 1000;
  }

  /** Quiet clients (no pongs, no acknowledgements): every datagram is then read or lost, so the counters compare exactly. */
  mute(): void {
    for (const c of this.clients) c.muted = true;
  }

  /** The window's figures; `status` is every server's status JSON in one, each player's slot keyed as `key` keys it (server × 256 + slot). */
  result(status: ServerTally): LoadResult {
    this.measuring = false;
    const n = this.layout.bots;
    const e = this.elapsed;
    let expected = 0;
    let received = 0;
    let superseded = 0;
    let pairs = 0;
    let minStateHz = Infinity;
    const lost: LostState[] = [];
    /** Per sender: a bitmap of its measured states some client received. */
    const any = new Uint8Array(n * this.pairBytes);
    for (let r = 0; r < n; r++) {
      for (let s = 0; s < n; s++) {
        if (r === s || !visible(this.layout, r, s)) continue;
        pairs += 1;
        const base = (r * n + s) * this.pairBytes;
        const ids = this.ids[s] as number[];
        const newest = this.newest[r * n + s] as number;
        let got = 0;
        ids.forEach((id, k) => {
          expected += 1;
          const bit = 1 << (k & 7);
          if (k < this.pairBytes * 8 && ((this.got[base + (k >> 3)] as number) & bit) !== 0) {
            got += 1;
            any[s * this.pairBytes + (k >> 3)] = (any[s * this.pairBytes + (k >> 3)] as number) | bit;
          } else if (id < newest) superseded += 1;
          else lost.push({ receiver: this.key(r, (this.clients[r] as GameClient).slot), sender: this.key(s, (this.clients[s] as GameClient).slot), id });
        });
        received += got;
        minStateHz = Math.min(minStateHz, got / e);
      }
    }
    const relayedToAnyone = (slot: number, id: number) => {
      const s = this.bySlot.get(slot);
      const k = s === undefined ? undefined : this.index[s]?.get(id);
      return s !== undefined && k !== undefined && k < this.pairBytes * 8 && ((any[s * this.pairBytes + (k >> 3)] as number) & (1 << (k & 7))) !== 0;
    };
    const tallies: ClientTally[] = this.clients.map((c, i) => {
      const inbox = this.inboxes[i] as Inbox;
      const removed = c.tcp.lines.find((l) => l.startsWith('removed')) ?? (c.tcp.ended ? 'connection closed' : null);
      return { slot: this.key(i, c.slot), name: c.accepted.name, datagramsSent: c.datagramsSent, datagramsReceived: inbox.ever.datagrams, statesReceived: inbox.ever.states, idGaps: inbox.ever.idGaps, removed };
    });
    const loss = reconcile(lost, expected, relayedToAnyone, tallies, status);
    const per = (f: (inbox: Inbox, i: number) => number) => this.inboxes.map((x, i) => f(x, i) / e);
    return {
      bots: n,
      elapsed: e,
      sendHz: this.sent.map((s) => s / e),
      recvRelaysHz: per((x) => x.relays),
      bytesDownPerS: per((x) => x.bytes),
      bytesUpPerS: this.bytesUp.map((b) => b / e),
      pings: this.inboxes.map((x) => x.others),
      statesHz: per((x) => x.states),
      minStateHz: pairs === 0 ? NaN : minStateHz,
      pairs,
      expected,
      received,
      superseded,
      latency: { p50: this.latency.percentile(50), p99: this.latency.percentile(99), max: this.latency.max, count: this.latency.count },
      afterSend: this.afterSendPercentiles(),
      duplicates: this.duplicates,
      latenessMs: this.lateness,
      checked: this.inboxes.reduce((k, x) => k + x.checked, 0),
      partialUnchecked: this.inboxes.reduce((k, x) => k + x.partialUnchecked, 0),
      bad: this.inboxes.reduce((k, x) => k + x.bad, 0),
      acked: this.clients.reduce((k, c) => k + (c.link?.counters().delivered ?? 0), 0),
      names: this.clients.map((c) => c.accepted.name),
      loss: { lines: loss.lines, unexplained: loss.unexplained },
      heapUsed: process.memoryUsage().heapUsed,
    };
  }

  /** How long relay datagrams took after the server sent them (ms, p50 and p99): the loopback and this process's own delays. */
  private afterSendPercentiles(): { p50: number; p99: number } {
    const d = Float64Array.from(this.afterSend).sort();
    const at = (p: number) => (d.length === 0 ? NaN : (d[Math.min(d.length - 1, Math.floor((p / 100) * d.length))] as number) - this.afterSendLeast);
    return { p50: at(50), p99: at(99) };
  }

  close(): void {
    this.sending = false;
    clearTimeout(this.driver);
    for (const c of this.clients) c?.close();
  }
}

let load: Load | null = null;
process.on('message', (m: ToLoad) => {
  void (async () => {
    switch (m.type) {
      case 'join': {
        load = new Load(m.layout, m.sendHz, m.seconds, m.relayAcks);
        const refused = await load.join(m.tcp, m.http);
        if (refused !== null) return say({ type: 'refused', message: refused });
        await sleep(500);
        load.start();
        return say({ type: 'joined', first: loopbackHost(0), last: loopbackHost(m.layout.bots - 1) });
      }
      case 'measure':
        load?.measure();
        return say({ type: 'measuring' });
      case 'stop':
        load?.stop();
        return say({ type: 'stopped' });
      case 'mute':
        load?.mute();
        return say({ type: 'muted' });
      case 'result':
        if (load) say({ type: 'result', result: load.result(m.status) });
        return;
      case 'close':
        load?.close();
        process.disconnect();
        return;
    }
  })().catch((err: unknown) => say({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
});
