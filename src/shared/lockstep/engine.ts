/**
 * LockstepEngine: one peer of Maelstrom's frame-locked game (the seed
 * `maelstrom-networking.txt`), pure and deterministic: time comes in as
 * arguments, packets go out through `send`, what a player should read
 * through `notify`. Every peer steps the same world with every pilot's
 * quantised input for each frame, and steps frame F only when it has all of
 * them. A pilot's input is sent `lead` frames ahead of the frame it applies
 * to, in a frame packet per frame to every peer.
 *
 * The seed's run-wait scheme, generalised to an input lead: each frame
 * packet says which peers' input its sender is waiting for. A peer that is
 * stalled and hears a packet from a peer already past its frame (the seed's
 * "packet for the next frame") resends its own at once, naming what it
 * waits for; the named peer answers at once with its inputs from that frame
 * (the seed's cached packet) — so one lost packet costs a round trip, not a
 * timeout. Frame packets also repeat the inputs peers may still lack, and
 * are sent again after a timeout when nothing moves.
 *
 * Membership (who is in the world) follows the p2p slot table; the lowest
 * slot of the world (the leader) adds newcomers and removes leavers, and
 * answers a desync, by a state transfer to everyone (stateTransfer.ts).
 */
import type { WorldEvent } from '../game/events';
import type { SteppedFrame } from '../game/frameSync';
import { stepWorld } from '../game/step';
import type { ShipInput, World } from '../game/types';
import { createWorld } from '../game/world';
import { withoutPilot, withSpawnedShip } from '../game/spawnPoint';
import { STEP_MS } from '../sim/types';
import { NO_FRAME, type FrameInput, type FrameInputs, type LockstepStateEvent, type LockstepStatusEvent } from '../wire/types';
import { autoLead, MAX_CATCH_UP, MAX_LEAD, MIN_TRANSFER_RESEND_MS, resendTimeout, START_ALONE_MS } from './config';
import { FrameChecks, type Mismatch } from './frameChecks';
import { frameInputToShip, NEUTRAL_FRAME_INPUT, quantiseInput } from './input';
import { InputLog } from './inputLog';
import { PLAIN_PACKER } from './stateTransfer';
import { Transfers } from './transfers';
import { StallWatch } from './stallWatch';
import { PeerReports } from './peerReports';
import { StatusSchedule } from './statusSchedule';
import { leaderOf, mayAdopt, sameRoster } from './leadership';
import { answerFrom, neededFrom, ownInputs, ownStatus, type OwnSide } from './frameTalk';
import type { LockstepDatagram, LockstepOptions, LockstepStats, PeerView } from './engineTypes';

export type { LockstepDatagram, LockstepNotice, LockstepOptions, LockstepStats } from './engineTypes';
export type { SteppedFrame } from '../game/frameSync';

/** Frames of inputs kept below the current frame (a state transfer may take the game back this far). */
const KEEP_BELOW = 128;
export class LockstepEngine {
  private self: number | null = null;
  /** Joined slots of the slot table, ourselves included, ascending. */
  private joined: number[] = [];
  private worldNow: World | null = null;
  private epoch = 0;
  /** Our world differs from the leader's: we step no further until its state arrives. */
  private frozen = false;
  private readonly log = new InputLog();
  /** When each of our inputs first went out, by frame (the recent ones). */
  private readonly firstSent = new Map<number, number>();
  private ownNewest = -1;
  private readonly peers = new PeerReports();
  private readonly schedule = new StatusSchedule();
  private readonly checks = new FrameChecks();
  private readonly transfers: Transfers;
  private resyncWanted = false;
  private readonly stall: StallWatch;
  private lastSentAt = -Infinity;
  private noWorldSince: number | null = null;
  private readonly counters = { framesWaited: 0, resends: 0, desyncs: 0, corrected: 0, framesStepped: 0 };

  constructor(private readonly options: LockstepOptions) {
    this.transfers = new Transfers(options.packer ?? PLAIN_PACKER, (slot, chunk) => options.send(slot, { events: [chunk] }));
    this.stall = new StallWatch((n) => options.notify(n));
  }

  /** The shared world, or null before we have one. */
  get world(): World | null {
    return this.worldNow;
  }

  /** The input lead in use: the setting, or the automatic one. */
  get lead(): number {
    const set = this.options.lead();
    return set > 0 ? Math.min(MAX_LEAD, Math.floor(set)) : autoLead(this.options.rttMs(), STEP_MS);
  }

  stats(): LockstepStats {
    return { frame: this.worldNow?.tick ?? null, epoch: this.epoch, lead: this.lead, ...this.counters, waitingOn: this.stalledOn() };
  }

  /**
   * The slot table changed: our slot (null: not in a game) and the joined
   * slots. A new slot is a new game: everything of the old one goes.
   */
  setMembers(self: number | null, joined: readonly number[], now: number): void {
    if (self !== this.self) this.reset();
    this.self = self;
    this.joined = [...joined].sort((a, b) => a - b);
    for (const slot of this.peers.slots()) {
      if (!this.joined.includes(slot)) {
        this.peers.forget(slot);
        this.schedule.forget(slot);
        this.transfers.forget(slot);
        this.checks.forget(slot);
      }
    }
    if (self !== null && this.worldNow === null && this.noWorldSince === null) this.noWorldSince = now;
  }

  /** Leaves the game: the world and everything heard go. */
  reset(): void {
    this.worldNow = null;
    this.epoch = 0;
    this.frozen = false;
    this.log.clear();
    this.firstSent.clear();
    this.ownNewest = -1;
    this.peers.clear();
    this.schedule.clear();
    this.checks.clear();
    this.transfers.clear();
    this.resyncWanted = false;
    this.stall.reset();
    this.noWorldSince = null;
    this.joined = [];
  }

  /** For tests: changes our world without the others (a corrupted state the hash check must find). */
  corrupt(change: (w: World) => World): void {
    if (this.worldNow) this.worldNow = change(this.worldNow);
  }

  /** One host tick (every 25 ms) with our pilot's input: queues it, steps every frame it can, sends. */
  tick(input: ShipInput, now: number): SteppedFrame[] {
    const self = this.self;
    if (self === null || !this.joined.includes(self)) return [];
    if (!this.worldNow) this.startAloneIfDue(self, now);
    const world = this.worldNow;
    if (!world) {
      if (now - this.lastSentAt >= resendTimeout(this.options.rttMs())) this.sendAll(now, this.neededFrom());
      return [];
    }
    if (this.leader() === self) this.lead_(world, now);
    const produced = this.produce(quantiseInput(input));
    const stepped = this.stepDue();
    if (stepped.length > 0) this.stall.ended(now);
    else {
      this.counters.framesWaited++;
      // Frozen (our world differs from the leader's), we wait for its state; else for the missing inputs.
      this.stall.stalled(now, () => {
        const leader = this.leader();
        return this.frozen ? { slots: leader === null ? [] : [leader], forState: true } : { slots: this.stalledOn(), forState: false };
      });
    }
    if (stepped.length > 0 || produced) this.sendAll(now, this.plain ? this.ownNewest : this.neededFrom());
    else if (now - this.lastSentAt >= resendTimeout(this.options.rttMs())) {
      this.counters.resends++;
      this.sendAll(now, this.neededFrom());
    }
    const keepFrom = (this.worldNow?.tick ?? 0) - KEEP_BELOW;
    this.log.forgetBelow(keepFrom);
    for (const f of this.firstSent.keys()) if (f < keepFrom) this.firstSent.delete(f);
    return stepped;
  }

  /** A lockstep datagram from the member in `slot`: its status first, then its inputs, then any state chunk. */
  receive(slot: number, d: LockstepDatagram, now: number): void {
    if (slot === this.self || this.self === null || !this.joined.includes(slot)) return;
    const peer = this.peers.view(slot);
    const status = d.events.find((ev) => ev.type === 'lockstepStatus');
    if (status) this.onStatus(slot, peer, status);
    if (d.inputs) this.onInputs(slot, peer, d.inputs);
    if (status || d.inputs) this.answerIfAsked(slot, peer, now);
    for (const ev of d.events) if (ev.type === 'lockstepState') this.onChunk(slot, ev, now);
  }

  private get plain(): boolean {
    return this.options.plainStopAndWait === true;
  }

  /** The lowest slot of the world that is still in the table: it decides who is in the world (leadership.ts). */
  private leader(): number | null {
    return leaderOf(this.worldNow, this.joined);
  }

  /** Without a world: the lowest joined slot that hears of no world starts one (at once when alone). */
  private startAloneIfDue(self: number, now: number): void {
    if (this.joined[0] !== self) return;
    if (this.peers.anyWorld()) return;
    const alone = this.joined.length === 1;
    if (!alone && (this.noWorldSince === null || now - this.noWorldSince < START_ALONE_MS)) return;
    const fresh = createWorld(this.options.seed, { ships: 1, match: this.options.matchLimits?.() ?? {} });
    this.worldNow = withSpawnedShip({ ...fresh, ships: [], scores: [] }, self);
    this.epoch = 1;
    this.options.notify({ kind: 'started', frame: 0 });
  }

  /** The leader's duties: the world's roster follows the table; a desync or a peer's request brings a new transfer; transfers not taken go again. */
  private lead_(world: World, now: number): void {
    const roster = world.ships.map((s) => s.slot);
    const gone = roster.filter((s) => !this.joined.includes(s));
    const come = this.joined.filter((s) => !roster.includes(s));
    if (gone.length > 0 || come.length > 0) {
      let w = world;
      for (const s of gone) {
        w = withoutPilot(w, s);
        this.log.forgetSlot(s);
      }
      for (const s of come) w = withSpawnedShip(w, s);
      this.transfer(w, 'roster', now);
      return;
    }
    const asked = this.peers.asksForState(this.epoch);
    if ((this.resyncWanted || asked) && !this.recentlySent(now)) {
      this.transfer(world, 'resync', now);
      return;
    }
    const sending = this.transfers.sending;
    if (sending === null) return;
    const behind = this.joined.filter((slot) => slot !== this.self && this.peers.get(slot)?.epoch !== sending);
    this.transfers.resend(behind, this.transferEvery(), now);
  }

  /** How often a transfer goes again to a member that has not taken it. */
  private transferEvery(): number {
    return Math.max(MIN_TRANSFER_RESEND_MS, resendTimeout(this.options.rttMs()));
  }

  private recentlySent(now: number): boolean {
    return this.transfers.sentWithin(this.epoch, this.transferEvery(), now);
  }

  /** As the leader: `world` becomes everyone's, as a new epoch, at our frame. */
  private transfer(world: World, cause: 'roster' | 'resync', now: number): void {
    const epoch = (this.epoch + 1) & 0xffff;
    this.resyncWanted = false;
    const sent = this.transfers.start(world, this.checks.recent(), epoch, this.joined.filter((s) => s !== this.self), now);
    if (!sent) {
      this.options.notify({ kind: 'refused-state', from: this.self ?? 0, reason: 'the world is too large to transfer' });
      return;
    }
    this.epoch = epoch;
    this.worldNow = world;
    this.frozen = false;
    this.checks.clear();
    this.options.notify({ kind: 'transfer-sent', frame: world.tick, epoch, ...sent, cause });
  }

  /** Queues our input for every frame up to our frame + lead not yet given one. Returns whether any was queued. */
  private produce(input: ReturnType<typeof quantiseInput>): boolean {
    const world = this.worldNow;
    const self = this.self;
    if (!world || self === null) return false;
    const upTo = world.tick + this.lead;
    let produced = false;
    while (this.ownNewest < upTo) {
      this.ownNewest++;
      if (this.log.set(self, this.ownNewest, input, world.tick)) produced = true;
    }
    return produced;
  }

  /** Steps every frame whose inputs are all here: one per tick, up to MAX_CATCH_UP while peers are ahead of us. */
  private stepDue(): SteppedFrame[] {
    const out: SteppedFrame[] = [];
    let world = this.worldNow;
    if (!world || this.frozen) return out;
    const ahead = this.peers.furthestAhead(this.epoch, world.tick);
    const max = ahead > 1 ? MAX_CATCH_UP : 1;
    while (out.length < max && !this.frozen) {
      const roster = world.ships.map((s) => s.slot);
      if (this.log.missing(world.tick, roster).length > 0) break;
      const inputs = new Map<number, ShipInput>();
      const given = new Map<number, FrameInput>();
      for (const slot of roster) {
        const q = this.log.get(slot, world.tick) ?? NEUTRAL_FRAME_INPUT;
        given.set(slot, q);
        inputs.set(slot, frameInputToShip(q));
      }
      const events: WorldEvent[] = [];
      const before = world;
      world = stepWorld(world, inputs, { events });
      this.worldNow = world;
      this.counters.framesStepped++;
      out.push({ before, world, events, replay: { from: before, inputs: given } });
      const check = this.checks.record(world);
      if (check) this.options.notify({ kind: 'frame-hash', frame: check.frame, hash: check.hash, epoch: this.epoch });
      // The peers' checks for the frame we have just reached.
      for (const m of this.checks.settle()) this.mismatch(m);
    }
    return out;
  }

  /** The slots whose input for our frame we lack. */
  private stalledOn(): number[] {
    const world = this.worldNow;
    if (!world) return [];
    return this.log.missing(world.tick, world.ships.map((s) => s.slot)).filter((s) => s !== this.self);
  }

  /** Our side as the frame talk reads it (frameTalk.ts); whom we wait for is worked out only when read, once. */
  private side(): OwnSide {
    const check = this.checks.latest;
    let waiting: number[] | undefined;
    const stalledOn = () => (waiting ??= this.stalledOn());
    return { world: this.worldNow, self: this.self, ownNewest: this.ownNewest, epoch: this.epoch, lead: this.lead, frozen: this.frozen, get waitingOn() { return stalledOn(); }, check: check ?? null, log: this.log };
  }

  /** The lowest frame a peer may still need our inputs from. */
  private neededFrom(): number {
    return neededFrom(this.side(), this.joined.filter((s) => s !== this.self).map((s) => this.peers.get(s)));
  }

  /** Whether our status goes to `slot` with this datagram (statusSchedule.ts); `answer`: we answer it at once. */
  private statusDue(slot: number, status: LockstepStatusEvent, answer: boolean): boolean {
    const urgent = answer || !this.worldNow || this.frozen || status.waitingOn !== 0;
    return this.schedule.due(slot, status, this.worldNow?.tick ?? 0, urgent);
  }

  private sendAll(now: number, from: number): void {
    this.lastSentAt = now;
    const side = this.side();
    const { inputs, first } = ownInputs(side, from);
    for (let i = 0; i < inputs.inputs.length; i++) if (!this.firstSent.has(first + i)) this.firstSent.set(first + i, now);
    const status = ownStatus(side);
    for (const slot of this.joined) if (slot !== this.self) this.options.send(slot, { inputs, events: this.statusDue(slot, status, false) ? [status] : [] });
  }

  /** A peer's status: its frame, epoch, whom it waits for, whether it needs the state; its check against ours. */
  private onStatus(slot: number, peer: PeerView, ev: LockstepStatusEvent): void {
    this.peers.heardStatus(peer, ev);
    if (ev.checkFrame !== NO_FRAME && ev.epoch === this.epoch && peer.frame !== null) {
      const m = this.checks.heard(slot, { frame: ev.checkFrame, hash: ev.checkHash });
      if (m) this.mismatch(m);
    }
  }

  /** A peer's inputs, each into the log at the frame its section places it. */
  private onInputs(slot: number, peer: PeerView, s: FrameInputs): void {
    const first = this.peers.heardInputs(peer, s, this.worldNow?.tick ?? null);
    if (first === null) return;
    const current = this.worldNow?.tick ?? first;
    s.inputs.forEach((input, i) => this.log.set(slot, first + i, input, current));
  }

  /** The run-wait answers (frameTalk.ts answerFrom), at most one per half resend timeout per peer. */
  private answerIfAsked(slot: number, peer: PeerView, now: number): void {
    if (this.plain || now - peer.answeredAt < resendTimeout(this.options.rttMs()) / 2) return;
    const side = this.side();
    const sentAt = peer.frame === null ? undefined : this.firstSent.get(peer.frame);
    const from = answerFrom(side, slot, peer, sentAt, now, this.options.rttMs(), this.neededFrom());
    if (from === null) return;
    peer.answeredAt = now;
    this.counters.resends++;
    const status = ownStatus(side);
    this.options.send(slot, { inputs: ownInputs(side, from).inputs, events: this.statusDue(slot, status, true) ? [status] : [] });
  }

  private mismatch(m: Mismatch): void {
    this.counters.desyncs++;
    this.options.notify({ kind: 'desync', slot: m.slot, frame: m.frame });
    const leader = this.leader();
    if (leader === this.self) this.resyncWanted = true;
    // The leader's world is the reference: differing from it, we stop and ask for its state.
    else if (m.slot === leader) this.frozen = true;
  }

  private onChunk(slot: number, c: LockstepStateEvent, now: number): void {
    const done = this.transfers.receive(slot, c, (epoch) => mayAdopt(this.worldNow, this.leader(), this.epoch, slot, epoch));
    if (!done) return;
    const read = done.read;
    if (!read.ok) {
      this.options.notify({ kind: 'refused-state', from: slot, reason: read.reason });
      return;
    }
    const before = this.worldNow;
    const firstDiff = before ? this.checks.firstDifference(read.content.hashesFrom, read.content.hashes) : null;
    const world = read.content.world;
    const cause = !before ? 'join' : sameRoster(before, world) ? 'resync' : 'roster';
    if (before) for (const s of before.ships) if (!world.ships.some((x) => x.slot === s.slot)) this.log.forgetSlot(s.slot);
    if (cause === 'resync' || this.frozen) this.counters.corrected++;
    this.worldNow = world;
    this.epoch = done.epoch;
    this.frozen = false;
    this.resyncWanted = false;
    this.transfers.stopSending();
    this.checks.clear();
    this.log.reopenFrom(world.tick);
    this.ownNewest = Math.max(this.ownNewest, world.tick - 1);
    this.noWorldSince = null;
    this.stall.ended(now);
    this.options.notify({ kind: 'adopted', from: slot, frame: world.tick, epoch: done.epoch, bytes: read.bytes, chunks: done.chunks, cause, firstDiff });
    this.sendAll(now, this.neededFrom());
  }

}
