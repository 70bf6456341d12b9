/**
 * Plays a client demo (docs/DEMO.md): the ClientGame the recording started
 * from, read back from its snapshot, with every journaled call made again in
 * order — ticks, deliveries, bot and cvar changes; for a shared world each
 * frame stepped again from its inputs. The game is deterministic, so it is
 * the recorded game tick for tick, and each digest in the file is checked
 * against the one the replayed game gives. Pure: time is the demo's own
 * (each chunk's ms since the recording started); the caller paces it
 * (playdemo at any speed, timedemo as fast as it can).
 *
 * A demo is untrusted: a chunk that cannot be read or applied stops the
 * playback with the reason, and the game shown so far stays.
 */
import { ClientGame } from '../game/clientGame';
import type { GameNotice } from '../game/clientTypes';
import type { WorldEvent } from '../game/events';
import type { SteppedFrame } from '../game/frameSync';
import { hashWorld } from '../game/hash';
import { GOLDEN_8_SHIPS_10000_TICKS } from '../game/goldenRun';
import { stepWorld } from '../game/step';
import type { ShipInput, World } from '../game/types';
import { frameInputToShip } from '../lockstep/input';
import { DemoKind, bodyText, readDigest, type DemoChunk, type DemoHeader, type DemoRead } from './demoFormat';
import { GAME_CLASSES } from './gameClasses';
import { decodeEntry, isLarge, PartAssembly, type JournalEntry } from './journalCodec';
import { decodeSnapshot } from './snapshot';
import { gameDigest } from './worldDigest';

/** A digest of the file checked against the replayed game. */
export interface PlaybackDigest {
  tick: number;
  /** The replayed game's. */
  hash: string;
  /** The file's. */
  recorded: string;
  /** A shared world's frame hash (else a tick's digest of ships and objects). */
  frame: boolean;
}

export interface PlaybackHooks {
  digest?(d: PlaybackDigest): void;
  /** A text chunk (chat, console lines the recorder kept). */
  text?(line: string): void;
  /** The slot table of the recorded game changed. */
  players?(entry: Extract<JournalEntry, { op: 'players' }>): void;
}

/** What playing a stretch of the demo did. */
export interface PlayedStretch {
  /** Ticks the game moved (steps and shared-world shows). */
  ticks: number;
  notices: GameNotice[];
  /** The last tick's events (what the view shows of it). */
  events: readonly WorldEvent[];
}

type Opened = { ok: true; playback: GamePlayback } | { ok: false; reason: string };

export class GamePlayback {
  game!: ClientGame;
  /** Index of the next chunk to apply. */
  private next = 0;
  private readonly parts = new PartAssembly();
  /** The shared world the last frame left, the world the next steps from (when not that one), the frames not shown yet. */
  private last: World | null = null;
  private from: World | null = null;
  private frames: SteppedFrame[] = [];
  /** Whether the last chunk applied was a shared world's frame (its digest is the frame hash). */
  private lastWasFrame = false;
  /** Why playback stopped before the end of the file, or null. */
  failure: string | null = null;
  /** Demo time of the last chunk applied (ms since the recording started). */
  timeMs = 0;
  readonly digests = { checked: 0, matched: 0, differed: [] as PlaybackDigest[] };
  hooks: PlaybackHooks = {};

  private constructor(
    readonly header: DemoHeader,
    private readonly chunks: readonly DemoChunk[],
    private readonly snapshot: Uint8Array,
    private readonly firstChunk: number,
    /** How the file ended (readDemo's stop), for the end-of-demo line. */
    readonly ending: DemoRead & { ok: true },
  ) {}

  /**
   * A playback of `read`, or why not: a demo of another simulation, or (its
   * snapshot being memory) of another Starlane version, is refused naming both.
   */
  static open(read: DemoRead & { ok: true }, starlane: string): Opened {
    const h = read.header;
    if (h.sim !== GOLDEN_8_SHIPS_10000_TICKS) return { ok: false, reason: `it was made by another simulation (golden hash ${h.sim}; this Starlane's is ${GOLDEN_8_SHIPS_10000_TICKS}), so it would not replay as recorded` };
    if (h.starlane !== starlane) return { ok: false, reason: `it was recorded by Starlane ${h.starlane} and this is Starlane ${starlane}: a client demo starts from a snapshot of the game's memory, which only the same version reads` };
    const chunks = read.chunks.filter((c) => c.kind !== DemoKind.Header);
    const parts = new PartAssembly();
    let i = 0;
    let snapshot: Uint8Array | null = null;
    while (snapshot === null) {
      const c = chunks[i];
      if (!c || c.kind !== DemoKind.Snapshot) return { ok: false, reason: c ? 'it does not start with a snapshot of the game' : 'the file ends before its snapshot is whole' };
      const got = parts.add(c.body);
      if (!got.ok) return { ok: false, reason: `its snapshot: ${got.reason}` };
      snapshot = got.bytes;
      i++;
    }
    const p = new GamePlayback(h, chunks, snapshot, i, read);
    const fresh = p.restart();
    return fresh === null ? { ok: true, playback: p } : { ok: false, reason: fresh };
  }

  /** Length of the demo (ms): the time of its last chunk. */
  get durationMs(): number {
    return this.chunks[this.chunks.length - 1]?.timeMs ?? 0;
  }

  /** Every chunk applied (or playback stopped on a bad one). */
  get ended(): boolean {
    return this.failure !== null || this.next >= this.chunks.length;
  }

  /** Back to the start: the game as the snapshot has it. Returns why not, or null. */
  restart(): string | null {
    const read = decodeSnapshot(this.snapshot, GAME_CLASSES);
    if (!read.ok) return `its snapshot is damaged: ${read.reason}`;
    if (!(read.value instanceof ClientGame)) return 'its snapshot holds no game';
    this.game = read.value;
    this.next = this.firstChunk;
    this.last = null;
    this.from = null;
    this.frames = [];
    this.timeMs = 0;
    this.failure = null;
    this.lastWasFrame = false;
    this.digests.checked = 0;
    this.digests.matched = 0;
    this.digests.differed = [];
    return null;
  }

  /** Applies every chunk up to demo time `ms`. */
  playTo(ms: number): PlayedStretch {
    const out: PlayedStretch = { ticks: 0, notices: [], events: [] };
    while (!this.ended && (this.chunks[this.next] as DemoChunk).timeMs <= ms) this.apply(out);
    if (!this.ended) this.timeMs = Math.max(this.timeMs, Math.min(ms, this.durationMs));
    return out;
  }

  /** Applies chunks up to and including the next tick (timedemo's pace). */
  nextTick(): PlayedStretch {
    const out: PlayedStretch = { ticks: 0, notices: [], events: [] };
    while (!this.ended && out.ticks === 0) this.apply(out);
    // The digest written just after the tick belongs to it.
    while (!this.ended && (this.chunks[this.next] as DemoChunk).kind === DemoKind.Digest) this.apply(out);
    return out;
  }

  private apply(out: PlayedStretch): void {
    const c = this.chunks[this.next++] as DemoChunk;
    this.timeMs = c.timeMs;
    try {
      const problem = this.applyChunk(c, out);
      if (problem) this.failure = `chunk ${this.next} (${c.timeMs} ms): ${problem}`;
    } catch (err) {
      this.failure = `chunk ${this.next} (${c.timeMs} ms) could not be played: ${(err as Error).message}`;
    }
  }

  private applyChunk(c: DemoChunk, out: PlayedStretch): string | null {
    switch (c.kind) {
      case DemoKind.Digest:
        return this.check(c.body);
      case DemoKind.Text: {
        const line = bodyText(c.body);
        if (line === null) return 'a text that is not UTF-8';
        this.hooks.text?.(line);
        return null;
      }
      case DemoKind.Local:
      case DemoKind.Delivery:
      case DemoKind.Frame: {
        let whole: Uint8Array | undefined;
        if (isLarge(c.kind, c.body[0])) {
          const got = this.parts.add(c.body);
          if (!got.ok) return got.reason;
          if (got.bytes === null) return null;
          whole = got.bytes;
        }
        const read = decodeEntry(c.kind, c.body, whole);
        if (!read.ok) return read.reason;
        return this.run(read.entry, out);
      }
      default:
        return `a ${c.kind === DemoKind.Snapshot ? 'snapshot' : `kind ${c.kind}`} chunk in the middle of the game`;
    }
  }

  private run(e: JournalEntry, out: PlayedStretch): string | null {
    const g = this.game;
    this.lastWasFrame = false;
    switch (e.op) {
      case 'step': {
        this.last = null;
        g.step(e.input, e.nowMs, e.bots === null ? undefined : new Map<number, ShipInput>(e.bots));
        this.ticked(out);
        return null;
      }
      case 'converge':
        g.convergeMs = e.ms;
        return null;
      case 'addBot':
        g.addBot();
        return null;
      case 'removeBot':
        g.removeBot(e.slot);
        return null;
      case 'limits':
        g.setMatchLimits(e.limits);
        return null;
      case 'players':
        g.applyPlayers(e.players, e.localSlot);
        this.hooks.players?.(e);
        return null;
      case 'state':
        g.applyState(e.slot, e.state, e.nowMs, e.ageMs);
        return null;
      case 'event':
        g.applyEvent(e.slot, e.event, e.nowMs, e.ageMs);
        return null;
      case 'world':
        this.last = e.world;
        this.from = null;
        return null;
      case 'from':
        this.from = e.world;
        return null;
      case 'frame': {
        const before = this.last;
        const from = this.from ?? before;
        if (!before || !from) return 'a frame with no world to step';
        const inputs = new Map<number, ShipInput>();
        for (const [slot, q] of e.inputs) inputs.set(slot, frameInputToShip(q));
        const events: WorldEvent[] = [];
        const world = stepWorld(from, inputs, { events });
        this.frames.push({ before, world, events });
        this.last = world;
        this.from = null;
        this.lastWasFrame = true;
        return null;
      }
      case 'result': {
        const before = this.last ?? e.world;
        this.frames.push({ before, world: e.world, events: [] });
        this.last = e.world;
        this.from = null;
        this.lastWasFrame = true;
        return null;
      }
      case 'show': {
        if (this.frames.length === 0) return 'a shared world shown with no frames';
        g.showSynced(this.frames, e.slot);
        this.frames = [];
        this.ticked(out);
        return null;
      }
    }
  }

  private ticked(out: PlayedStretch): void {
    out.ticks++;
    out.notices.push(...this.game.takeNotices());
    out.events = this.game.events;
  }

  private check(body: Uint8Array): string | null {
    const d = readDigest(body);
    if (!d) return 'a digest of the wrong size';
    const frame = this.lastWasFrame;
    const world = frame ? this.last : null;
    const hash = world ? hashWorld(world) : gameDigest(this.game);
    const tick = world ? world.tick : this.game.curr.tick;
    const result: PlaybackDigest = { tick, hash, recorded: d.hash, frame };
    this.digests.checked++;
    if (hash === d.hash && tick === d.tick) this.digests.matched++;
    else this.digests.differed.push(result);
    this.hooks.digest?.(result);
    this.lastWasFrame = frame;
    return null;
  }
}
