/**
 * NetgameServer: the server of Purple Martians' input sync (the seed
 * `purple-martians-netgame.txt`), pure: time comes in as arguments, events go
 * out through `send`. It holds the master game-moves array and the master
 * state, steps it every frame (40 a second) on its own clock, and every
 * frame sends each client the moves it has not acknowledged with the
 * server's frame (`gameMoves`, which the client's timer chases); every
 * `diffEvery` frames it sends each client its state as a difference from
 * the last one that client acknowledged (`stateDiff`), which corrects any
 * drift.
 *
 * Control changes (`controlChange`) come tagged with a future frame: the
 * client's frame plus its control lead, which the server adapts to each
 * client's round trip (at least `baseLead`, the seed's 3; at most
 * MAX_CONTROL_LEAD), so they arrive before their frame. A late one is
 * dropped, counted and reported to its client (`lateControl`). The server's
 * own pilot (a player hosting the game) goes through the same lead.
 *
 * The sync gate (syncGate.ts, the seed's `server_sync`): a joining client's
 * ship enters only once the client holds the server's state and runs at its
 * frame (it is then *active*; until then its control changes are refused),
 * and an active client that falls more than `maxBehindFrames` behind — by
 * the frame it last reported, so one that stops reporting falls further
 * behind every frame — is dropped: `tick` returns it, its ship leaves.
 */
import type { WorldEvent } from '../game/events';
import type { MatchLimits } from '../game/match';
import { createWorld } from '../game/world';
import { PLAIN_PACKER, type StatePacker } from '../lockstep/stateTransfer';
import { MAX_MOVES, NO_FRAME, NO_SLOT, type FrameInput, type NetgameEvent } from '../wire/types';
import type { NetgameServerMessage } from '../wire/channels';
import { NEUTRAL_FRAME_INPUT } from '../lockstep/input';
import { GameMoves, MoveKind } from './gameMoves';
import { encodeNetState, stepNetState, type NetState } from './netState';
import { diffChunks } from './stateDiff';
import type { SteppedFrame } from '../game/frameSync';
import { controlLeadFor, JOIN_DELAY_FRAMES, MAX_CHANGES_PER_S, MAX_FRAMES_AHEAD, SENT_STATES_KEPT } from './config';
import { activationLimit, DEFAULT_MAX_BEHIND_FRAMES, droppedBehind, framesBehind, mayActivate } from './syncGate';

export interface NetgameServerOptions {
  seed: number;
  matchLimits?: Partial<MatchLimits>;
  /** Sends the server's netgame messages to the client in `slot` (one datagram each call). */
  send(slot: number, events: NetgameServerMessage[]): void;
  packer?: StatePacker;
  /** Frames clients run behind the server (the seed's server_lead_frames, default 1). */
  serverLead?: number;
  /** The smallest control lead (the seed's control_lead_frames, default 3). */
  baseLead?: number;
  /** Frames between two state differences to each client (default 20: twice a second). */
  diffEvery?: number;
  /** An active client further behind than this is dropped (the seed's 100, the default). */
  maxBehindFrames?: number;
  /** Each frame stepped, with how it replays (a recording shows them: SteppedFrame.replay). */
  stepped?(frame: SteppedFrame): void;
}

/** A client the sync gate dropped in a tick: how far behind it was, and the limit. */
export interface NetgameDrop {
  /** Its slot, or a spectator's key. */
  slot: number;
  behind: number;
  limit: number;
  /** A spectator fell behind (nothing left the game). */
  watcher?: true;
}

/** Spectators' keys among the clients start here (slots are 0..7): spectator n is SPECTATOR_KEYS + n. */
export const SPECTATOR_KEYS = 256;

/** What the server knows of one client. */
export interface NetClient {
  /** Its slot; a spectator's key (at or above SPECTATOR_KEYS: it has no slot). */
  slot: number;
  /** A spectator: it holds the state and steps the moves like any client, but never enters the game and steers nothing. */
  watcher: boolean;
  /** The next entry of the moves array the client needs. */
  next: number;
  /** The client's frame (its last acknowledgement). */
  frame: number | null;
  /** The frame of the first state the client acknowledged (it holds the server's state from then), or null. */
  heldFrom: number | null;
  /** Activated: its ship is in the game (or about to enter), its control changes count. */
  active: boolean;
  /** Smoothed round trip in ms, and its mean deviation. */
  rttMs: number | null;
  rttDevMs: number;
  /** Its control lead in frames. */
  lead: number;
  /** Control changes taken, dropped as late, refused (too far ahead or too many). */
  changes: number;
  late: number;
  refused: number;
  /** The state the client acknowledged last: the base of its next difference. */
  base: { frame: number; bytes: Uint8Array } | null;
  /** Bytes of the last difference sent (packed) and its datagrams. */
  lastDiff: { raw: number; packed: number; chunks: number } | null;
  /** When the welcome last went (it goes again until the client acknowledges). */
  welcomedAt: number;
  /** Rate budget of control changes (tokens). */
  budget: number;
  budgetAt: number;
}

export class NetgameServer {
  private stateNow: NetState;
  readonly moves = new GameMoves();
  readonly clients = new Map<number, NetClient>();
  private readonly sentStates = new Map<number, Uint8Array>();
  private readonly packer: StatePacker;
  readonly serverLead: number;
  readonly baseLead: number;
  private readonly diffEvery: number;
  readonly maxBehindFrames: number;
  /** Slots in the game (clients and a hosting player): a leave counts once. */
  private readonly members = new Set<number>();
  /** What the last frame did (for a hosting player's view). */
  lastEvents: WorldEvent[] = [];

  constructor(private readonly options: NetgameServerOptions) {
    const fresh = createWorld(options.seed, { ships: 1, match: options.matchLimits ?? {} });
    this.stateNow = { world: { ...fresh, ships: [], scores: [] }, controls: new Map() };
    this.packer = options.packer ?? PLAIN_PACKER;
    this.serverLead = options.serverLead ?? 1;
    this.baseLead = options.baseLead ?? 3;
    this.diffEvery = options.diffEvery ?? 20;
    this.maxBehindFrames = options.maxBehindFrames ?? DEFAULT_MAX_BEHIND_FRAMES;
  }

  get state(): NetState {
    return this.stateNow;
  }

  /** The frame the server steps next. */
  get frame(): number {
    return this.stateNow.world.tick;
  }

  /**
   * A player joins. The hosting player (`remote` false) is in the game at
   * once: its ship enters JOIN_DELAY_FRAMES from now. A client is sent its
   * welcome and the whole state; its ship enters JOIN_DELAY_FRAMES after the
   * sync gate activates it (`tick`).
   */
  join(slot: number, now: number, remote = true): void {
    this.members.add(slot);
    if (!remote) {
      this.enter(slot);
      return;
    }
    this.welcomeClient(slot, now, false);
  }

  /**
   * A spectator (`key`: at or above SPECTATOR_KEYS, it has no slot) is sent
   * the welcome (its slot NO_SLOT) and the whole state, then every move and
   * state difference as a client is; the sync gate never activates it, and
   * drops it, as it would a player, once it falls more than
   * `maxBehindFrames` behind (the moves it still needs are kept for it).
   */
  watch(key: number, now: number): void {
    this.welcomeClient(key, now, true);
  }

  private welcomeClient(slot: number, now: number, watcher: boolean): void {
    const start = this.firstEntryFrom(this.frame);
    const client: NetClient = { slot, watcher, next: start, frame: null, heldFrom: null, active: false, rttMs: null, rttDevMs: 0, lead: controlLeadFor(UNMEASURED_RTT_MS, this.serverLead, this.baseLead), welcomedAt: now, changes: 0, late: 0, refused: 0, base: null, lastDiff: null, budget: MAX_CHANGES_PER_S, budgetAt: now };
    this.clients.set(slot, client);
    this.welcome(client, now);
  }

  /** The player's ship enters JOIN_DELAY_FRAMES from now (the seed's "player becomes active in 4 frames"). */
  private enter(slot: number): void {
    this.moves.add({ frame: this.frame + JOIN_DELAY_FRAMES, kind: MoveKind.Join, slot, input: NEUTRAL_FRAME_INPUT });
  }

  /** Frames client `c` runs behind the server, by the frame it last reported (null before its first report). */
  behind(c: NetClient): number | null {
    return c.frame === null ? null : framesBehind(this.frame, c.frame);
  }

  /** The welcome and the whole state: sent at the join, and again while the client has acknowledged nothing (either may be lost). */
  private welcome(client: NetClient, now: number): void {
    client.welcomedAt = now;
    client.next = this.firstEntryFrom(this.frame);
    this.options.send(client.slot, [{ type: 'netgameWelcome', slot: client.watcher ? NO_SLOT : client.slot, serverFrame: this.frame, start: client.next, controlLead: client.lead, serverLead: this.serverLead }]);
    this.sendDiff(client, this.stateBytes());
  }

  /** A player leaves: its ship goes JOIN_DELAY_FRAMES from now (once, however often it is said). */
  leave(slot: number): void {
    this.clients.delete(slot);
    if (!this.members.delete(slot)) return;
    this.moves.add({ frame: this.frame + JOIN_DELAY_FRAMES, kind: MoveKind.Leave, slot, input: NEUTRAL_FRAME_INPUT });
  }

  /** The hosting player's own controls changed: entered like a client's, with the same lead (so it is fair). */
  localControl(slot: number, input: FrameInput): void {
    this.moves.add({ frame: this.frame + this.baseLead, kind: MoveKind.Input, slot, input });
  }

  /**
   * One server frame (every 25 ms): the moves of the frame applied, the world
   * stepped, the sync gate applied (clients activated, or dropped: returned,
   * already out of the game), the clients told.
   */
  tick(now: number): NetgameDrop[] {
    const frame = this.frame;
    const events: WorldEvent[] = [];
    const before = this.stateNow;
    let replay: SteppedFrame['replay'];
    this.stateNow = stepNetState(before, this.moves.forFrame(frame), events, this.options.stepped ? (from, inputs) => (replay = { from, inputs }) : undefined);
    if (this.options.stepped) this.options.stepped(replay ? { before: before.world, world: this.stateNow.world, events, replay } : { before: before.world, world: this.stateNow.world, events });
    this.lastEvents = events;
    const drops = this.gate();
    const bytes = this.frame % this.diffEvery === 0 ? this.stateBytes() : null;
    for (const client of this.clients.values()) {
      if (client.frame === null && now - client.welcomedAt >= WELCOME_AGAIN_MS) this.welcome(client, now);
      this.sendMoves(client, now);
      if (bytes) this.sendDiff(client, bytes);
    }
    this.prune();
    return drops;
  }

  /**
   * The sync gate: a client that holds the server's state and reported a
   * frame within its activation limit is activated (its ship enters); an
   * active one more than `maxBehindFrames` behind leaves the game.
   */
  private gate(): NetgameDrop[] {
    const drops: NetgameDrop[] = [];
    for (const c of this.clients.values()) {
      const behind = this.behind(c);
      if (behind === null) continue;
      if (c.watcher) {
        if (droppedBehind(behind, this.maxBehindFrames)) drops.push({ slot: c.slot, behind, limit: this.maxBehindFrames, watcher: true });
      } else if (c.active) {
        if (droppedBehind(behind, this.maxBehindFrames)) drops.push({ slot: c.slot, behind, limit: this.maxBehindFrames });
      } else if (c.heldFrom !== null && (c.frame as number) >= c.heldFrom && mayActivate(behind, activationLimit(this.serverLead, c.rttMs, c.rttDevMs))) {
        c.active = true;
        this.enter(c.slot);
      }
    }
    for (const d of drops) this.leave(d.slot);
    return drops;
  }

  /** A netgame event from the client in `slot`. */
  receive(slot: number, ev: NetgameEvent, now: number): void {
    const client = this.clients.get(slot);
    if (!client) return;
    if (ev.type === 'controlChange') this.onControl(client, ev.frame, ev.input, now);
    else if (ev.type === 'movesAck') this.onAck(client, ev.clientFrame, ev.next, ev.stamp, now);
    else if (ev.type === 'stateAck') {
      const bytes = this.sentStates.get(ev.frame);
      if (!bytes) return;
      if (!client.base || ev.frame > client.base.frame) client.base = { frame: ev.frame, bytes };
      client.heldFrom ??= ev.frame;
    }
  }

  /**
   * The moves the client has not acknowledged, from the oldest (a lost
   * datagram is repaired by the next), with the array's end, so the client
   * steps no frame before it holds every move of it: up to
   * MAX_MOVES_DATAGRAMS datagrams a frame.
   */
  private sendMoves(client: NetClient, now: number): void {
    let from = client.next;
    for (let n = 0; n < MAX_MOVES_DATAGRAMS; n++) {
      const moves = this.moves.from(from, MAX_MOVES);
      this.options.send(client.slot, [{ type: 'gameMoves', serverFrame: this.frame, controlLead: client.lead, stamp: now >>> 0, end: this.moves.end, start: from, moves }]);
      from += moves.length;
      if (from >= this.moves.end) return;
    }
  }

  private onControl(client: NetClient, frame: number, input: FrameInput, now: number): void {
    // A plausible rate: MAX_CHANGES_PER_S a second, in a bucket of as many.
    client.budget = Math.min(MAX_CHANGES_PER_S, client.budget + ((now - client.budgetAt) / 1000) * MAX_CHANGES_PER_S);
    client.budgetAt = now;
    // Not active yet (or a spectator, never): its ship is not in the game, so it has nothing to steer.
    if (client.budget < 1 || frame > this.frame + MAX_FRAMES_AHEAD || !client.active) {
      client.refused++;
      return;
    }
    client.budget -= 1;
    if (frame < this.frame) {
      client.late++;
      this.options.send(client.slot, [{ type: 'lateControl', serverFrame: this.frame, late: Math.min(0xffff, this.frame - frame), errors: client.late }]);
      return;
    }
    client.changes++;
    this.moves.add({ frame, kind: MoveKind.Input, slot: client.slot, input });
  }

  private onAck(client: NetClient, clientFrame: number, next: number, stamp: number, now: number): void {
    client.next = Math.max(client.next, Math.min(next, this.moves.end));
    client.frame = clientFrame;
    const rtt = now - stamp;
    if (rtt >= 0 && rtt < 10_000) {
      if (client.rttMs === null) client.rttMs = rtt;
      else {
        client.rttDevMs += (Math.abs(rtt - client.rttMs) - client.rttDevMs) / 8;
        client.rttMs += (rtt - client.rttMs) / 8;
      }
      client.lead = controlLeadFor(client.rttMs + 2 * client.rttDevMs, this.serverLead, this.baseLead);
    }
  }

  private stateBytes(): Uint8Array {
    const bytes = encodeNetState(this.stateNow);
    this.sentStates.set(this.frame, bytes);
    return bytes;
  }

  private sendDiff(client: NetClient, bytes: Uint8Array): void {
    const base = client.base;
    const parts = diffChunks(base?.bytes ?? null, bytes, this.packer);
    if (!parts) return;
    client.lastDiff = { raw: parts.raw, packed: parts.packed, chunks: parts.chunks.length };
    const frame = this.frame;
    parts.chunks.forEach((data, index) => this.options.send(client.slot, [{ type: 'stateDiff', base: base ? base.frame : NO_FRAME, frame, index, count: parts.chunks.length, data }]));
  }

  /** The first entry a client starting at `frame` needs (later entries for earlier frames it ignores). */
  private firstEntryFrom(frame: number): number {
    const held = this.moves.from(this.moves.start, this.moves.end - this.moves.start);
    const i = held.findIndex((m) => m.frame >= frame);
    return i < 0 ? this.moves.end : this.moves.start + i;
  }

  private prune(): void {
    let keep = this.firstEntryFrom(this.frame);
    for (const c of this.clients.values()) keep = Math.min(keep, c.next);
    this.moves.forgetBefore(keep);
    const bases = new Set([...this.clients.values()].flatMap((c) => (c.base ? [c.base.frame] : [])));
    for (const f of this.sentStates.keys()) if (f < this.frame - SENT_STATES_KEPT * this.diffEvery && !bases.has(f)) this.sentStates.delete(f);
  }
}

/** The round trip assumed until a client's is measured: its first control changes then come early rather than late. */
const UNMEASURED_RTT_MS = 250;
/** A welcome not acknowledged goes again after this long. */
const WELCOME_AGAIN_MS = 250;
/** Most gameMoves datagrams to one client a frame (128 moves: eight pilots changing controls every frame, for 400 ms of round trip). */
const MAX_MOVES_DATAGRAMS = 4;

