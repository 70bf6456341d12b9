/**
 * NetgameClient: a client of Purple Martians' input sync, pure (time as
 * arguments, events out through `send`). It keeps a copy of the server's
 * game-moves array and steps the same state with it, `serverLead` frames
 * behind the server: its frame timer chases the server's frame (each
 * `gameMoves` carries it), stepping up to MAX_CHASE frames a tick when
 * behind, none when ahead — and never a frame whose moves it does not all
 * hold (the server has stepped past it, and we hold its array up to the
 * end it had then). It sends only control changes, tagged its frame plus the
 * control lead the server gives it, and sends one again when the server's
 * array does not show it a round trip later. State differences from the
 * server are applied when complete: a state for a frame the client has
 * stepped is compared with its own, and a differing one replaces it (the
 * frames since are stepped again); one for a frame ahead waits for it.
 *
 * The sync gate (syncGate.ts): the server activates a client once it holds
 * the state and runs at the server's frame; its ship then enters through the
 * moves array like any join. The client is *active* while its ship is in its
 * state, and sends control changes only then.
 */
import { quantiseInput, sameFrameInput } from '../lockstep/input';
import { MAX_TRANSFER_BYTES, PLAIN_PACKER, TransferAssembly, type StatePacker } from '../lockstep/stateTransfer';
import type { SteppedFrame } from '../game/frameSync';
import type { WorldEvent } from '../game/events';
import type { ShipInput } from '../sim/types';
import { STEP_MS } from '../sim/types';
import { NO_FRAME, type FrameInput, type NetgameEvent } from '../wire/types';
import type { NetgameClientMessage } from '../wire/channels';
import { CLIENT_HISTORY, MAX_CHASE } from './config';
import { GameMoves, MoveKind } from './gameMoves';
import { decodeNetState, encodeNetState, stepNetState, type NetState } from './netState';
import { applyDiff } from './stateDiff';

export interface NetgameClientOptions {
  /** Sends our netgame messages to the server (one datagram each call). */
  send(events: NetgameClientMessage[]): void;
  notify?(n: NetgameClientNotice): void;
  packer?: StatePacker;
  /** Our round trip to the server in ms, or null before it is measured (a change not shown back within twice it goes again). */
  rttMs?(): number | null;
}

export type NetgameClientNotice =
  | { kind: 'joined'; slot: number; frame: number }
  /** Our ship entered the game at `frame`: the server activated us. */
  | { kind: 'activated'; slot: number; frame: number }
  | { kind: 'corrected'; frame: number; framesStepped: number }
  | { kind: 'late'; late: number; errors: number };

/** What `players` and `netgraph` show. */
export interface NetgameClientStats {
  frame: number | null;
  /** Our ship is in the game (the server activated us). */
  active: boolean;
  /** Frames the server is ahead of us (its newest frame heard minus ours). */
  serverAhead: number | null;
  controlLead: number;
  controlChanges: number;
  /** Control changes the server reported late. */
  lateChanges: number;
  corrections: number;
  /** The last state difference: packed bytes and datagrams. */
  lastDiff: { bytes: number; chunks: number } | null;
}

export class NetgameClient {
  private stateNow: NetState | null = null;
  private slotNow: number | null = null;
  private readonly moves = new GameMoves();
  private serverFrame = 0;
  private serverFrameAt = 0;
  /** Frames before this have all their moves here: the server was past them and we hold its array up to its end then. */
  private completeBefore = 0;
  private controlLead = 3;
  private serverLead = 1;
  private readonly history = new Map<number, NetState>();
  private readonly bases = new Map<number, Uint8Array>();
  private readonly assembly = new TransferAssembly();
  private pending: { frame: number; state: NetState } | null = null;
  private sent: { input: FrameInput; frame: number; at: number } | null = null;
  private readonly counters = { controlChanges: 0, lateChanges: 0, corrections: 0 };
  private lastDiff: { bytes: number; chunks: number } | null = null;
  private readonly packer: StatePacker;
  /** Whether our ship was in the state last time we looked (the `activated` notice is said once per entry). */
  private wasActive = false;

  constructor(private readonly options: NetgameClientOptions) {
    this.packer = options.packer ?? PLAIN_PACKER;
  }

  get state(): NetState | null {
    return this.stateNow;
  }

  get slot(): number | null {
    return this.slotNow;
  }

  /** Our ship is in the game: the server activated us (the sync gate), and our control changes count. */
  get active(): boolean {
    const slot = this.slotNow;
    return slot !== null && (this.stateNow?.world.ships.some((s) => s.slot === slot) ?? false);
  }

  stats(): NetgameClientStats {
    const frame = this.stateNow?.world.tick ?? null;
    return { frame, active: this.active, serverAhead: frame === null ? null : this.serverFrame - frame, controlLead: this.controlLead, ...this.counters, lastDiff: this.lastDiff };
  }

  /** For tests: changes our state behind the server's back (the next state difference must correct it). */
  corrupt(change: (s: NetState) => NetState): void {
    if (this.stateNow) this.stateNow = change(this.stateNow);
  }

  /** An event from the server. */
  receive(ev: NetgameEvent, now: number): void {
    switch (ev.type) {
      case 'netgameWelcome':
        this.slotNow = ev.slot;
        this.moves.startAt(ev.start);
        this.heardFrame(ev.serverFrame, now);
        this.controlLead = ev.controlLead;
        this.serverLead = ev.serverLead;
        return;
      case 'gameMoves':
        if (this.slotNow === null) return;
        this.moves.merge(ev.start, ev.moves.map((m) => ({ frame: m.frame, kind: m.kind as MoveKind, slot: m.slot, input: m.input })));
        if (this.moves.end >= ev.end) this.completeBefore = Math.max(this.completeBefore, ev.serverFrame);
        this.heardFrame(ev.serverFrame, now);
        this.controlLead = ev.controlLead;
        this.options.send([{ type: 'movesAck', clientFrame: (this.stateNow?.world.tick ?? 0) >>> 0, next: this.moves.end, stamp: ev.stamp }]);
        return;
      case 'stateDiff':
        return this.onDiffChunk(ev);
      case 'lateControl':
        this.counters.lateChanges = ev.errors;
        // The change was dropped: send it again (with a new frame) at the next tick.
        this.sent = null;
        this.options.notify?.({ kind: 'late', late: ev.late, errors: ev.errors });
        return;
      default:
        return;
    }
  }

  /**
   * One host tick with our pilot's input: a control change goes to the
   * server; the state steps towards the server's frame less the server lead.
   */
  tick(input: ShipInput, now: number): SteppedFrame[] {
    const state = this.stateNow;
    if (!state || this.slotNow === null) return [];
    // Before the server activates us our ship is not in the game: nothing to steer yet.
    if (this.active) this.control(quantiseInput(input), state.world.tick, now);
    const estimate = this.serverFrame + Math.floor((now - this.serverFrameAt) / STEP_MS);
    const target = estimate - this.serverLead;
    const out: SteppedFrame[] = [];
    while (out.length < MAX_CHASE && this.stateNow && this.stateNow.world.tick < target && this.stateNow.world.tick < this.completeBefore) {
      out.push(this.stepOnce());
    }
    this.noticeActive();
    return out;
  }

  /** Says `activated` when our ship has just entered our state. */
  private noticeActive(): void {
    const active = this.active;
    if (active && !this.wasActive && this.slotNow !== null) this.options.notify?.({ kind: 'activated', slot: this.slotNow, frame: this.stateNow?.world.tick ?? 0 });
    this.wasActive = active;
  }

  private heardFrame(frame: number, now: number): void {
    if (frame >= this.serverFrame) {
      this.serverFrame = frame;
      this.serverFrameAt = now;
    }
  }

  /** Sends our controls when they changed, or again when the server's array does not show them a round trip (at least 100 ms) later. */
  private control(q: FrameInput, frame: number, now: number): void {
    const sent = this.sent;
    const confirmed = sent !== null && this.serverHas(sent);
    const stale = sent !== null && !confirmed && now - sent.at > Math.max(100, 2 * (this.options.rttMs?.() ?? 100));
    if (sent && sameFrameInput(sent.input, q) && !stale) return;
    const tagged = frame + this.controlLead;
    this.sent = { input: q, frame: tagged, at: now };
    this.counters.controlChanges++;
    this.options.send([{ type: 'controlChange', frame: tagged >>> 0, input: q }]);
  }

  private serverHas(sent: { input: FrameInput; frame: number }): boolean {
    const slot = this.slotNow;
    return this.moves.forFrame(sent.frame).some((m) => m.kind === MoveKind.Input && m.slot === slot && sameFrameInput(m.input, sent.input));
  }

  private stepOnce(): SteppedFrame {
    const before = this.stateNow as NetState;
    const events: WorldEvent[] = [];
    let replay: SteppedFrame['replay'];
    const next = stepNetState(before, this.moves.forFrame(before.world.tick), events, (from, inputs) => (replay = { from, inputs }));
    this.stateNow = next;
    const frame = next.world.tick;
    this.history.set(frame, next);
    this.history.delete(frame - CLIENT_HISTORY);
    const pending = this.pending;
    // A correction inside the frame: the world shown is the server's, which no inputs replay.
    if (pending && pending.frame === frame) {
      this.pending = null;
      if (this.correctAt(pending.state, frame)) replay = undefined;
    }
    const world = (this.stateNow as NetState).world;
    return replay ? { before: before.world, world, events, replay } : { before: before.world, world, events };
  }

  private onDiffChunk(ev: Extract<NetgameEvent, { type: 'stateDiff' }>): void {
    // Nothing before the welcome: the server sends the whole state again with it.
    if (this.slotNow === null) return;
    const done = this.assembly.add({ key: ev.base, frame: ev.frame, index: ev.index, count: ev.count, data: ev.data });
    if (!done) return;
    const base = ev.base === NO_FRAME ? null : (this.bases.get(ev.base) ?? undefined);
    if (base === undefined) return;
    const diff = this.packer.unpack(done.packed, MAX_TRANSFER_BYTES + 4);
    const bytes = diff && applyDiff(base, diff);
    const decoded = bytes ? decodeNetState(bytes) : null;
    if (!bytes || !decoded?.ok || decoded.state.world.tick !== ev.frame) return;
    this.lastDiff = { bytes: done.packed.length, chunks: ev.count };
    this.bases.set(ev.frame, bytes);
    for (const f of this.bases.keys()) if (f < ev.frame - 8 * 40) this.bases.delete(f);
    const server = decoded.state;
    const ours = this.stateNow;
    let corrected = false;
    if (!ours) {
      this.stateNow = server;
      this.history.set(ev.frame, server);
      this.options.notify?.({ kind: 'joined', slot: this.slotNow, frame: ev.frame });
    } else if (ours.world.tick >= ev.frame) {
      corrected = this.correctAt(server, ev.frame, bytes);
    } else this.pending = { frame: ev.frame, state: server };
    this.options.send([{ type: 'stateAck', frame: ev.frame >>> 0, corrected }]);
  }

  /** The server's state at `frame` against ours there: a differing one replaces it, and the frames since are stepped again. Returns whether it did. */
  private correctAt(server: NetState, frame: number, serverBytes?: Uint8Array): boolean {
    const mine = this.history.get(frame);
    const bytes = serverBytes ?? encodeNetState(server);
    if (mine && equalBytes(encodeNetState(mine), bytes)) return false;
    const upTo = this.stateNow?.world.tick ?? frame;
    this.stateNow = server;
    this.history.set(frame, server);
    while ((this.stateNow as NetState).world.tick < upTo) this.stepOnce();
    this.counters.corrections++;
    this.options.notify?.({ kind: 'corrected', frame, framesStepped: upTo - frame });
    return true;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
