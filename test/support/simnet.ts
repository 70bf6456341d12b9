/**
 * A deterministic simulated LAN for protocol tests of the p2p core: nodes
 * with IPv4 WireAddr addresses ([4, 10,0,0,i, port]), a virtual clock that
 * advances in fixed steps, and seeded latency, loss, duplication and
 * reordering. Every packet goes through the real wire codec
 * (encodePacket at send, decodePacket at delivery), so the core can only
 * rely on what survives the wire. No Math.random, no timers.
 *
 * Each node has a session's connection layer below its peer
 * (src/shared/session/connections.ts, as the pipeline keeps it): it numbers
 * every copy that leaves on the link to its target — a broadcast too, copy by
 * copy, as a p2p session's proven nodes take only the tokened copy on their
 * own link — and admits every copy that arrives, so duplicates stop there and
 * the peer gets the rest with its place (newest, late, too old).
 */
import { addrKey } from '../../src/shared/wire/addr';
import { floatStream } from '../../src/shared/sim/prng';
import { decodePacket, encodePacket } from '../../src/shared/wire/codec';
import type { Packet, WireAddr } from '../../src/shared/wire/types';
import type { UnnumberedPacket } from '../../src/shared/net/connection';
import { SessionConnections } from '../../src/shared/session/connections';
import { P2pPeer, type P2pConfig, type P2pNotice } from '../../src/shared/p2p';

/** A game state the peer's receive returned for the game, recorded beside its notices in the order it came. */
export interface GameStateNotice {
  kind: 'game-state';
  slot: number;
  packet: Packet;
}
/** What a test records of a peer: its notices and the game states it handed on. */
export type PeerNotice = P2pNotice | GameStateNotice;

/** `peer` with every game state its receive returns also pushed to `record` (as the session would hand it on). */
export function recordGameStates(peer: P2pPeer, record: (n: GameStateNotice) => void): void {
  const receive = peer.receive.bind(peer);
  peer.receive = (from, packet, now, arrival) => {
    const taken = receive(from, packet, now, arrival);
    for (const g of taken) record({ kind: 'game-state', ...g });
    return taken;
  };
}

/**
 * What a test hands `peer` directly, through a connection layer of its own
 * (session/connections.ts, as a session's pipeline admits each datagram, its
 * numbers started at wall-clock second 0): duplicates stop there, the rest
 * reaches the peer with its place. Returns the game states the peer took.
 */
export function admitting(peer: P2pPeer): (from: WireAddr, packet: Packet, now: number) => GameStateNotice[] {
  const connections = new SessionConnections(() => 0, true);
  return (from, packet, now) => {
    const arrival = connections.admit(addrKey(from), packet.header.type, packet.header.messageId, now, false);
    return arrival === null ? [] : peer.receive(from, packet, now, arrival).map((g) => ({ kind: 'game-state', ...g }));
  };
}

/** mulberry32 as a stream: a small seeded PRNG, uniform in [0, 1). */
export const mulberry32 = floatStream;

/** The p2p client port, as the nodes' addresses carry it. */
export const SIM_PORT = 6526;

/** Address of simulated node i: 10.0.0.i:6526. A higher i is a higher address. */
export function simAddr(i: number): WireAddr {
  return Uint8Array.from([4, 10, 0, 0, i, SIM_PORT >> 8, SIM_PORT & 0xff]);
}

export interface SimNetOptions {
  seed: number;
  /** One-way latency range in ms, inclusive (default [1, 30]). */
  latencyMs?: readonly [number, number];
  /** Probability that a copy is lost (default 0). */
  loss?: number;
  /** Probability that a copy is delivered twice, each with its own latency (default 0). */
  duplicate?: number;
  /** Probability that a copy is held back an extra 0..reorderDelayMs, so later packets overtake it (default 0). */
  reorder?: number;
  /** Largest extra hold-back of a reordered copy (default 30 ms). */
  reorderDelayMs?: number;
  /** Clock step; every live node is ticked once per step (default 5 ms). */
  stepMs?: number;
  /** Keep a log of every send in `sent` (default false). */
  log?: boolean;
}

export interface SimNode {
  readonly index: number;
  readonly addr: WireAddr;
  readonly key: string;
  readonly name: string;
  readonly peer: P2pPeer;
  /** Every notice with the virtual time it was given. */
  readonly notices: { at: number; notice: PeerNotice }[];
  /** A crashed node neither ticks, receives nor sends any more (its program stopped silently). */
  crashed: boolean;
  /** The node's connection layer: numbers what its peer sends, admits what it receives (by sender key). */
  readonly connections: SessionConnections;
  /** Time of the last connect() made through SimNet.connect. */
  connectAt: number | null;
}

/** One send as logged with `log: true` (`to` is null for a broadcast). */
export interface SentRecord {
  at: number;
  from: number;
  to: number | null;
  /** As the peer sent it (each copy is numbered on its link). */
  packet: UnnumberedPacket;
}

/** Decides per copy whether a test drops it on purpose (before random loss). */
export type DropRule = (from: SimNode, to: SimNode, packet: Packet, at: number) => boolean;

/** How often the nodes' connection layers hear who is in the session (the pipeline: every tick). */
const RETAIN_EVERY_MS = 50;

/** A delivery or a scheduled test action, run at `due` in (due, seq) order. */
interface Due {
  due: number;
  seq: number;
  run: () => void;
}

/**
 * The simulated LAN and its clock. Deliveries and scheduled actions run in
 * (time, sequence) order at their exact time; nodes are ticked at the end
 * of every step. The same seed and the same calls give the same run.
 */
export class SimNet {
  /** Virtual time in ms (the exact time of the delivery or action being run, else the end of the last step). */
  now = 0;
  readonly nodes: SimNode[] = [];
  readonly sent: SentRecord[] = [];
  /** Test hook: return true to drop a copy. */
  dropRule: DropRule | null = null;
  readonly stats = { copies: 0, delivered: 0, lost: 0, duplicated: 0, dropped: 0, undecodable: 0 };
  private readonly rand: () => number;
  private readonly latency: readonly [number, number];
  private readonly loss: number;
  private readonly dup: number;
  private readonly reorder: number;
  private readonly reorderDelay: number;
  readonly stepMs: number;
  private readonly log: boolean;
  private readonly byKey = new Map<string, SimNode>();
  private queue: Due[] = [];
  private seq = 0;
  private retainedAt = -Infinity;

  constructor(opts: SimNetOptions) {
    this.rand = mulberry32(opts.seed);
    this.latency = opts.latencyMs ?? [1, 30];
    this.loss = opts.loss ?? 0;
    this.dup = opts.duplicate ?? 0;
    this.reorder = opts.reorder ?? 0;
    this.reorderDelay = opts.reorderDelayMs ?? 30;
    this.stepMs = opts.stepMs ?? 5;
    this.log = opts.log ?? false;
  }

  /** Largest one-way delay a copy can have on this network (latency + reorder hold-back). */
  get maxDelayMs(): number {
    return this.latency[1] + (this.reorder > 0 ? this.reorderDelay : 0);
  }

  /** Adds node 10.0.0.`index` with its own P2pPeer. */
  addNode(index: number, opts: { name?: string; config?: Partial<P2pConfig> } = {}): SimNode {
    const addr = simAddr(index);
    const notices: SimNode['notices'] = [];
    const name = opts.name ?? `node${index}`;
    // The node object is created first so the transport closures can refer to it.
    // A new program's connections number from the wall-clock second it started in (virtual time here).
    const connections = new SessionConnections(() => Math.floor(this.now / 1000), true);
    const node = { index, addr, key: addrKey(addr), name, notices, crashed: false, connectAt: null, connections } as unknown as SimNode & { peer: P2pPeer };
    const peer = new P2pPeer(
      addr,
      name,
      { send: (to, packet) => this.unicast(node, to, packet), broadcast: (packet) => this.broadcast(node, packet) },
      (notice) => notices.push({ at: this.now, notice }),
      opts.config,
    );
    recordGameStates(peer, (notice) => notices.push({ at: this.now, notice }));
    (node as { peer: P2pPeer }).peer = peer;
    this.nodes.push(node);
    this.byKey.set(node.key, node);
    return node;
  }

  /** Calls connect() on `node` now and records the time. */
  connect(node: SimNode): void {
    node.connectAt = this.now;
    node.peer.connect(this.now);
  }

  /** Runs `action` at virtual time `at` (≥ now), between deliveries, with `now` set to `at`. */
  schedule(at: number, action: () => void): void {
    this.enqueue({ due: Math.max(at, this.now), seq: this.seq++, run: action });
  }

  /** Stops `node` silently: no more ticks, deliveries or sends (packets already in flight still arrive). */
  crash(node: SimNode): void {
    node.crashed = true;
  }

  /**
   * Advances the clock one step: runs every delivery and action due by the
   * end of the step in (due, seq) order, each at its exact time, then ticks
   * every live node at the step's end.
   */
  step(): void {
    const end = this.now + this.stepMs;
    // Deliveries can trigger sends that are due within this same step; keep going until none is left.
    for (;;) {
      const head = this.queue[0];
      if (!head || head.due > end) break;
      this.queue.shift();
      this.now = head.due;
      head.run();
    }
    this.now = end;
    // As the pipeline's tick, less often (it costs the tables): the members are the session's nodes; the others' numbers are forgotten once they fall silent.
    const retain = this.now - this.retainedAt >= RETAIN_EVERY_MS;
    if (retain) this.retainedAt = this.now;
    for (const n of this.nodes) {
      if (n.crashed) continue;
      n.peer.tick(this.now);
      if (retain) n.connections.retain(new Set(n.peer.state === 'connected' ? n.peer.players().map((p) => addrKey(p.addr)) : []), this.now);
    }
  }

  /** Steps until `ms` of virtual time have passed. */
  run(ms: number): void {
    const end = this.now + ms;
    while (this.now < end) this.step();
  }

  /** Steps until `done()` holds (checked after each step) or `maxMs` passed; returns whether it held. */
  runUntil(done: () => boolean, maxMs: number): boolean {
    const end = this.now + maxMs;
    while (this.now < end) {
      this.step();
      if (done()) return true;
    }
    return done();
  }

  private deliver(from: SimNode, to: SimNode, bytes: Uint8Array): void {
    if (to.crashed) return;
    const decoded = decodePacket(bytes);
    if (!decoded.ok) {
      this.stats.undecodable++;
      return;
    }
    this.stats.delivered++;
    const { header } = decoded.packet;
    const arrival = to.connections.admit(from.key, header.type, header.messageId, this.now, to.peer.state === 'connected');
    if (arrival === null) return;
    to.peer.receive(from.addr, decoded.packet, this.now, arrival);
  }

  private unicast(from: SimNode, to: WireAddr, packet: UnnumberedPacket): void {
    if (from.crashed) return;
    const target = this.byKey.get(addrKey(to));
    const numbered = from.connections.number(addrKey(to), packet);
    if (this.log) this.sent.push({ at: this.now, from: from.index, to: target?.index ?? -1, packet });
    if (target && target !== from) this.transmit(from, target, numbered);
  }

  private broadcast(from: SimNode, packet: UnnumberedPacket): void {
    if (from.crashed) return;
    if (this.log) this.sent.push({ at: this.now, from: from.index, to: null, packet });
    for (const target of this.nodes) if (target !== from) this.transmit(from, target, from.connections.number(target.key, packet));
  }

  private transmit(from: SimNode, to: SimNode, packet: Packet): void {
    const bytes = encodePacket(packet);
    this.stats.copies++;
    if (this.dropRule?.(from, to, packet, this.now)) {
      this.stats.dropped++;
      return;
    }
    if (this.rand() < this.loss) {
      this.stats.lost++;
      return;
    }
    const copies = this.rand() < this.dup ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    for (let i = 0; i < copies; i++) {
      const [lo, hi] = this.latency;
      let delay = lo + Math.floor(this.rand() * (hi - lo + 1));
      if (this.rand() < this.reorder) delay += Math.floor(this.rand() * (this.reorderDelay + 1));
      this.enqueue({ due: this.now + delay, seq: this.seq++, run: () => this.deliver(from, to, bytes) });
    }
  }

  private enqueue(item: Due): void {
    // Sorted by (due, seq): binary search for the insertion point keeps delivery order deterministic.
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.queue[mid] as Due;
      if (m.due < item.due || (m.due === item.due && m.seq < item.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, item);
  }
}

/** A node's table as "slot:addr" pairs in slot order (for agreement checks); '' unless connected. */
export function tableKey(node: SimNode): string {
  return node.peer
    .players()
    .map((p) => `${p.slot}:${addrKey(p.addr)}`)
    .join(' ');
}

/** Notices of one kind from a node. */
export function noticesOf<K extends PeerNotice['kind']>(node: SimNode, kind: K): { at: number; notice: Extract<PeerNotice, { kind: K }> }[] {
  return node.notices.filter((n): n is { at: number; notice: Extract<PeerNotice, { kind: K }> } => n.notice.kind === kind);
}

/** The table every connected node among `nodes` has, or null if they differ (or none is connected). */
export function agreedTable(nodes: readonly SimNode[]): string | null {
  const connected = nodes.filter((n) => !n.crashed && n.peer.state === 'connected');
  const first = connected[0];
  if (!first) return null;
  const t = tableKey(first);
  return connected.every((n) => tableKey(n) === t) ? t : null;
}

/** Time of a node's last 'connected' or 'failed' notice (when its start-up ended), or null. */
export function settledAt(node: SimNode): number | null {
  for (let i = node.notices.length - 1; i >= 0; i--) {
    const n = node.notices[i];
    if (n && (n.notice.kind === 'connected' || n.notice.kind === 'failed')) return n.at;
  }
  return null;
}

/**
 * Adds nodes 10.0.0.i for each i, connects them all now and runs until every
 * one is connected with the same table (throws after `maxMs`). For tests
 * that need a running game as their starting point.
 */
export function formGame(net: SimNet, indexes: readonly number[], opts: { config?: Partial<P2pConfig>; maxMs?: number } = {}): SimNode[] {
  const nodes = indexes.map((i) => net.addNode(i, opts.config ? { config: opts.config } : {}));
  for (const n of nodes) net.connect(n);
  const ok = net.runUntil(() => nodes.every((n) => n.peer.state === 'connected') && agreedTable(nodes) !== null && nodes.every((n) => n.peer.players().length === nodes.length), opts.maxMs ?? 5000);
  if (!ok) throw new Error(`formGame: no common table after ${opts.maxMs ?? 5000} ms: ${nodes.map((n) => `${n.index}:${n.peer.state}[${tableKey(n)}]`).join(' ')}`);
  return nodes;
}
