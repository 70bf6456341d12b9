/**
 * The `lockstep` protocol: Maelstrom's frame-locked peer-to-peer game on the
 * LAN (2–4 players as in the seed). Membership is the p2p one — LAN
 * start-up, slot table, proof of address, alive timeouts — on the same
 * session pipeline, with every datagram flagged as a lockstep game's; the
 * game is the pure LockstepEngine (src/shared/lockstep), which steps one
 * shared world with every pilot's input and runs the game shown in place of
 * the client's own (a FrameSync on the GameDriver). This adapter wires the
 * two, packs state transfers with zlib and turns the engine's notices into
 * console lines.
 */
import type { MatchLimits } from '../../shared/game/match';
import type { SteppedFrame } from '../../shared/game/frameSync';
import { WORLD_SEED } from '../../shared/game/clientGame';
import { LockstepEngine, type LockstepNotice, type LockstepStats } from '../../shared/lockstep/engine';
import type { LinkStats, ProtocolContext } from '../../shared/protocol/protocol';
import type { P2pConfig } from '../../shared/p2p';
import type { ShipInput } from '../../shared/sim/types';
import { NO_SLOT, type Packet } from '../../shared/wire/types';
import { isLockstepMessage } from '../../shared/wire/channels';
import { zlibPacker } from '../lockstep/zlibPacker';
import { P2pProtocol } from './p2p';

export const LOCKSTEP_PROTOCOL = 'lockstep';

/** What the host or the bot sets for lockstep games. */
export interface LockstepSettings {
  /** The `input_lead` cvar: frames, 0 for automatic. */
  lead: number;
  /** Limits of a match this node starts. */
  matchLimits?: Partial<MatchLimits>;
}

export class LockstepProtocol extends P2pProtocol {
  override readonly name = LOCKSTEP_PROTOCOL;
  private engine: LockstepEngine | null = null;
  /** Whom we wait for, while a stall is shown (the HUD's status line shows it too). */
  private waitLine: string | null = null;

  constructor(
    ctx: ProtocolContext,
    config: () => Partial<P2pConfig> = () => ({}),
    private readonly settings: () => LockstepSettings = () => ({ lead: 0 }),
  ) {
    super(ctx, config);
  }

  override status(): string {
    const base = super.status();
    return this.waitLine ? `${base} — ${this.waitLine}` : base;
  }

  /** The engine's figures (null before init). */
  syncStats(): LockstepStats | null {
    return this.engine?.stats() ?? null;
  }

  protected override sessionKind(): ReturnType<P2pProtocol['sessionKind']> {
    // Every game state of a lockstep game is the engine's: its frame inputs, status and state chunks.
    return { lockstep: true, extraPlayerLines: () => this.statLines(), takeGameState: (slot, packet) => this.toEngine(slot, packet), p2p: { keepOvertakenGameStates: true } };
  }

  protected override started(): void {
    const ctx = this.ctx;
    this.engine = new LockstepEngine({
      seed: WORLD_SEED,
      matchLimits: () => this.settings().matchLimits ?? {},
      rttMs: () => this.largestRoundTrip(),
      lead: () => this.settings().lead,
      // A lockstep datagram carries its frame inputs instead of a ship state, and no game time: the frame is its clock (wire v10).
      send: (slot, d) => this.peer?.sendGameStateTo(slot, d.inputs ? { inputs: d.inputs } : {}, d.events),
      notify: (n) => this.onLockstep(n),
      packer: zlibPacker(),
    });
    ctx.game.attachSync?.({ tick: (input, at) => this.syncTick(input, at) });
  }

  protected override stopping(): void {
    this.waitLine = null;
    this.ctx.game.attachSync?.(null);
    this.engine?.reset();
    this.engine = null;
  }

  /** A game state of a peer: its frame inputs, status and state chunks to the engine (taken, whether or not an engine runs). */
  private toEngine(slot: number, packet: Packet): boolean {
    const engine = this.engine;
    if (!engine) return true;
    const now = this.ctx.game.now();
    const events = packet.events.filter(isLockstepMessage);
    const { inputs } = packet.header;
    if (inputs || events.length > 0) engine.receive(slot, { ...(inputs ? { inputs } : {}), events }, now);
    return true;
  }

  protected override tableChanged(): void {
    const peer = this.peer;
    if (!peer || !this.engine) return;
    const joined = peer.players().filter((p) => p.joined).map((p) => p.slot);
    this.engine.setMembers(peer.slot(), joined, this.ctx.game.now());
  }

  override linkStats(): LinkStats {
    const s = this.engine?.stats();
    return { ...super.linkStats(), ...(s && s.frame !== null ? { sync: `lockstep ${syncSummary(s)}` } : {}) };
  }

  /** The GameDriver's tick: the engine runs the game once we are in one (its world shown; frozen while we wait for it). */
  private syncTick(input: ShipInput, at: number): { frames: SteppedFrame[]; slot: number } | null {
    const engine = this.engine;
    const slot = this.peer?.slot() ?? null;
    if (!engine || slot === null || !this.peer?.players().some((p) => p.slot === slot && p.joined)) return null;
    const frames = engine.tick(input, at);
    for (const f of frames) for (const e of f.events) if (e.type === 'destroyed') this.killLine(e.slot, e.killer);
    return { frames, slot };
  }

  /** The kill feed, as Parsec games print it (a frame stepped again after a state transfer may repeat a line). */
  private killLine(victim: number, killer: number): void {
    this.ctx.print(killer < 0 || killer === NO_SLOT || killer === victim ? `${this.nameOf(victim)} was destroyed` : `${this.nameOf(victim)} was shot down by ${this.nameOf(killer)}`);
  }

  /** The largest round trip to the other players (the lead and the resend timeout follow it), null before any is measured. */
  private largestRoundTrip(): number | null {
    const mine = this.peer?.slot();
    const pings = this.playerPings().filter((p) => p.slot !== mine);
    return pings.length === 0 ? null : Math.max(...pings.map((p) => p.ms));
  }

  /** The stall on the HUD's status line (with the slot table), or no longer. */
  private showWait(line: string | null): void {
    this.waitLine = line;
    this.session?.pipeline.deliverPlayers();
  }

  private statLines(): string[] {
    const s = this.engine?.stats();
    if (!s) return [];
    const lines = [`lockstep: ${syncSummary(s)}`];
    if (s.waitingOn.length > 0) lines.push(`waiting for ${s.waitingOn.map((slot) => this.nameOf(slot)).join(', ')}`);
    return lines;
  }

  private nameOf(slot: number): string {
    return this.session?.pipeline.nameOf(slot) ?? `slot ${slot}`;
  }

  private onLockstep(n: LockstepNotice): void {
    const print = (line: string) => this.ctx.print(line);
    switch (n.kind) {
      case 'started':
        return print('no lockstep game running here: started one (you are its lowest slot)');
      case 'adopted':
        if (n.cause === 'join') return print(`joined the lockstep game at frame ${n.frame}: its state came from ${this.nameOf(n.from)} (${n.bytes} bytes in ${n.chunks} datagrams)`);
        if (n.cause === 'resync') {
          const first = n.firstDiff === null ? 'before the frames compared' : `from frame ${n.firstDiff}`;
          return print(`desync corrected: took ${this.nameOf(n.from)}'s state at frame ${n.frame} (${n.bytes} bytes in ${n.chunks} datagrams); our worlds differed ${first}`);
        }
        return;
      case 'transfer-sent':
        if (n.cause === 'resync') print(`sent our state at frame ${n.frame} to correct a desync (${n.bytes} bytes in ${n.chunks} datagrams)`);
        return;
      case 'waiting': {
        const who = n.slots.map((slot) => this.nameOf(slot)).join(', ');
        const line = n.forState ? `waiting for ${who}'s state (${n.seconds} s)` : `waiting for ${who} (${n.seconds} s)`;
        this.showWait(line);
        return print(line);
      }
      case 'resumed':
        return this.showWait(null);
      case 'desync':
        return print(`desync: our world differs from ${this.nameOf(n.slot)}'s at frame ${n.frame}`);
      case 'frame-hash':
        return this.ctx.frameHash?.({ frame: n.frame, hash: n.hash, epoch: n.epoch });
      case 'refused-state':
        return print(`refused a state transfer from ${this.nameOf(n.from)}: ${n.reason}`);
    }
  }
}

/** One line of lockstep figures (`players`, `netgraph`). */
export function syncSummary(s: LockstepStats): string {
  return `frame ${s.frame ?? '-'} (epoch ${s.epoch}), input lead ${s.lead}, frames waited ${s.framesWaited}, resends ${s.resends}, desyncs ${s.desyncs} (${s.corrected} corrected)`;
}
