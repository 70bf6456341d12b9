/**
 * Client sessions on a memory LAN and a virtual clock: each node is the real
 * SessionPipeline with a real P2pPeer (or a server-run ManagedPeer), a
 * scripted game that records what the session delivers, and a 10 ms tick on
 * the virtual clock — what the Node adapter does, minus sockets, console
 * text and real time. A node's host clock may be offset from the others', as
 * on separate machines.
 */
import { GameCodeInterface } from '../../src/shared/net/gameCode';
import type { NetDelivery } from '../../src/shared/net/gameLink';
import { ManagedPeer, type ManagedNotice } from '../../src/shared/session/managedPeer';
import type { PacketApi } from '../../src/shared/net/packetApi';
import type { ProtocolGame } from '../../src/shared/protocol/protocol';
import { P2pPeer, type P2pConfig, type P2pNotice } from '../../src/shared/p2p';
import type { DatagramCodec } from '../../src/shared/session/datagram';
import type { Membership } from '../../src/shared/session/membership';
import type { SessionNotice } from '../../src/shared/session/notices';
import { SessionPipeline } from '../../src/shared/session/pipeline';
import type { SessionSender } from '../../src/shared/session/sender';
import { nextFloat, seedRng } from '../../src/shared/sim/prng';
import type { ShipState } from '../../src/shared/wire/types';
import type { MemoryNet } from './memoryNet';
import type { VirtualClock } from './virtualClock';
import { sessionCookies } from '../../src/node/protocol/cookies';

/** The game side of a test node: a ship flying along −Z and a record of every delivery. */
export class ScriptedGame implements ProtocolGame {
  readonly events = new GameCodeInterface();
  readonly deliveries: NetDelivery[] = [];
  ship: ShipState | null = null;
  autoJoinOn = true;

  constructor(
    public name: string,
    private readonly clock: { now(): number },
  ) {}

  localShip(): ShipState | null {
    return this.ship;
  }
  deliver(delivery: NetDelivery): void {
    this.deliveries.push(delivery);
  }
  playerName(): string {
    return this.name;
  }
  sendFrequency(): number {
    return 20;
  }
  autoJoin(): boolean {
    return this.autoJoinOn;
  }
  now(): number {
    return this.clock.now();
  }

  /** Deliveries of one kind. */
  of<K extends NetDelivery['kind']>(kind: K): Extract<NetDelivery, { kind: K }>[] {
    return this.deliveries.filter((d): d is Extract<NetDelivery, { kind: K }> => d.kind === kind);
  }
}

export interface TestNode<M extends Membership, G extends ProtocolGame = ScriptedGame> {
  api: PacketApi;
  game: G;
  session: SessionPipeline<M>;
  notices: SessionNotice[];
  /** Membership notices (p2p or managed), in order. */
  memberNotices: (P2pNotice | ManagedNotice)[];
  /** Stops the node's tick. */
  stop(): void;
}

export interface NodeOptions {
  /** This machine's host clock minus the virtual clock, ms. */
  clockOffset?: number;
  /** Wraps the end's packet API (a link conditioner). */
  wrap?: (api: PacketApi) => PacketApi;
  codec?: DatagramCodec;
  seed?: number;
  /** Prove addresses (addressProof.ts): on unless false, as in the p2p and slotserver adapters. */
  proveAddresses?: boolean;
  /** A lockstep game's session (flagged datagrams, no ship states), as the lockstep adapter builds it. */
  lockstep?: boolean;
  /** False: no ship states (a netgame client's session). */
  shipStates?: boolean;
}

function seeded(seed: number): () => number {
  let state = seedRng(seed);
  return () => {
    const [v, next] = nextFloat(state);
    state = next;
    return v;
  };
}

/** A session's cookies in tests: the Node adapter's HMAC. */
export { sessionCookies } from '../../src/node/protocol/cookies';

/** A node's game: made on the node's host clock (a ScriptedGame unless a test brings a real one). */
export type GameMaker<G extends ProtocolGame> = (hostClock: { now(): number }) => G;

type MemberMaker<M> = (api: PacketApi, t: SessionSender, notice: (n: P2pNotice | ManagedNotice) => void) => M;

function nodeWith<M extends Membership, G extends ProtocolGame>(net: MemoryNet, clock: VirtualClock, makeGame: GameMaker<G>, opts: NodeOptions, member: MemberMaker<M>): TestNode<M, G> {
  const api = (opts.wrap ?? ((a) => a))(net.add());
  const offset = opts.clockOffset ?? 0;
  const hostClock = { now: () => clock.now() + offset };
  const game = makeGame(hostClock);
  const notices: SessionNotice[] = [];
  const memberNotices: (P2pNotice | ManagedNotice)[] = [];
  let session: SessionPipeline<M> | null = null;
  // What the protocol adapters (p2p.ts, serverClient.ts) do with membership notices.
  const onMember = (n: P2pNotice | ManagedNotice) => {
    memberNotices.push(n);
    if (!session) return;
    session.deliverPlayers();
    if (n.kind === 'connected' && game.autoJoin()) session.requestJoin();
  };
  session = new SessionPipeline<M>({
    packetApi: api,
    self: api.localNode(),
    game,
    clock: hostClock,
    random: seeded(opts.seed ?? game.playerName().length * 7919 + offset),
    member: (t) => member(api, t, onMember),
    notify: (n) => notices.push(n),
    status: () => 'test',
    ...(opts.codec ? { codec: opts.codec } : {}),
    ...(opts.proveAddresses ? { proveAddresses: sessionCookies() } : {}),
    ...(opts.lockstep ? { lockstep: true } : {}),
    ...(opts.shipStates === false ? { shipStates: false } : {}),
  });
  const pipeline = session;
  api.onPacket(({ from, data }) => pipeline.receive(from, data));
  const timer = clock.setInterval(() => pipeline.tick(), 10);
  return { api, game, session: pipeline, notices, memberNotices, stop: () => clock.clearInterval(timer) };
}

const scripted = (name: string): GameMaker<ScriptedGame> => (hostClock) => new ScriptedGame(name, hostClock);

/** A p2p node (not yet connected: call `session.member.connect(now)`). */
export function p2pNode(net: MemoryNet, clock: VirtualClock, name: string, opts: NodeOptions & { config?: Partial<P2pConfig> } = {}): TestNode<P2pPeer> {
  return p2pNodeWith(net, clock, name, scripted(name), opts);
}

/** A p2p node playing `makeGame`'s game (a real GameDriver, say). */
export function p2pNodeWith<G extends ProtocolGame>(net: MemoryNet, clock: VirtualClock, name: string, makeGame: GameMaker<G>, opts: NodeOptions & { config?: Partial<P2pConfig> } = {}): TestNode<P2pPeer, G> {
  return nodeWith(net, clock, makeGame, { ...opts, proveAddresses: opts.proveAddresses ?? true }, (api, t, notice) =>
    new P2pPeer(
      api.encodeNode(api.localNode()),
      name,
      { send: (to, p) => t.send(to, p), broadcast: (p) => t.broadcast(p, (bytes) => api.broadcast(0, bytes)), keyOf: (a) => t.keyOf(a), proven: (a) => t.proven(a) },
      notice,
      opts.config,
    ),
  );
}

/** A node whose table a server runs (a slotserver game): call `session.member.adopt(slot)` and `add` the others. */
export function managedNode(net: MemoryNet, clock: VirtualClock, name: string, opts: NodeOptions = {}): TestNode<ManagedPeer> {
  return managedNodeWith(net, clock, name, scripted(name), opts);
}

/** A server-run node playing `makeGame`'s game. */
export function managedNodeWith<G extends ProtocolGame>(net: MemoryNet, clock: VirtualClock, name: string, makeGame: GameMaker<G>, opts: NodeOptions = {}): TestNode<ManagedPeer, G> {
  return nodeWith(net, clock, makeGame, { ...opts, proveAddresses: opts.proveAddresses ?? true }, (api, t, notice) => new ManagedPeer(api.encodeNode(api.localNode()), name, (to, p) => t.send(to, p), notice, undefined, (a) => t.keyOf(a)));
}

/** Seats server-run nodes as a slotserver would: node i in slot i, every other node added to its table under its name. */
export function seatAll(nodes: readonly TestNode<ManagedPeer, ProtocolGame>[]): void {
  nodes.forEach((n, i) => {
    n.session.member.adopt(i);
    nodes.forEach((o, j) => j !== i && n.session.member.add(j, o.api.encodeNode(o.api.localNode()), o.game.playerName()));
  });
}

/** Advances the clock in 5 ms steps until `cond` holds; throws after `maxMs` of virtual time. */
export function runUntil(clock: VirtualClock, what: string, cond: () => boolean, maxMs = 30_000): number {
  const start = clock.now();
  while (!cond()) {
    if (clock.now() - start > maxMs) throw new Error(`not within ${maxMs} ms of virtual time: ${what}`);
    clock.advance(5);
  }
  return clock.now() - start;
}

/** A ship at `x`, flying along −Z at 40 units/s at virtual time `t` ms. */
export function flyingShip(x: number, t: number): ShipState {
  return { pos: { x, y: 0, z: -0.04 * t }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: 0, y: 0, z: -40 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 };
}
