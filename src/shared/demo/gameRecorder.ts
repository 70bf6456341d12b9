/**
 * Records a client's game (docs/DEMO.md): a snapshot of the ClientGame as
 * it is when recording starts, then its journal (game/journal.ts) — every
 * tick's input, every delivery, every bot and cvar change — and, for a
 * shared world (lockstep, netgame), each frame's inputs or moves as the
 * inputs they became, with the world itself only where no input replays it
 * (the first frame, a state transfer, a correction). Every DIGEST_EVERY
 * ticks a digest of the world goes in, which playback checks. Chunks go to
 * a sink (the DemoWriter in Node); a failure to record detaches the
 * recorder and says why, never throwing into the game.
 */
import type { SteppedFrame } from '../game/frameSync';
import type { GamePlayer } from '../game/clientTypes';
import type { ClientGame } from '../game/clientGame';
import { hashWorld } from '../game/hash';
import type { GameJournal } from '../game/journal';
import type { MatchLimits } from '../game/match';
import type { World } from '../game/types';
import { NO_INPUT, type ShipInput } from '../sim/types';
import type { RemoteEvent, ShipState } from '../wire/types';
import { digestBody, DemoKind } from './demoFormat';
import { GAME_CLASSES } from './gameClasses';
import { encodeEntry, partsOf, type JournalEntry } from './journalCodec';
import { encodeSnapshot, SnapshotError } from './snapshot';
import { DIGEST_EVERY, gameDigest } from './worldDigest';

/** Where the chunks go, in order. */
export interface ChunkSink {
  add(kind: DemoKind, body: Uint8Array): void;
}

export interface GameRecorderHooks {
  /** A digest went in (the recording client prints it): a tick's digest, or a shared world's frame hash. */
  digest?(d: { tick: number; hash: string; frame: boolean }): void;
  /** Recording stopped on its own: why. */
  failed?(reason: string): void;
}

/** The snapshot chunk's part code (DemoKind.Snapshot bodies). */
export const SNAPSHOT_CODE = 1;

export class GameRecorder implements GameJournal {
  /** The shared world the last frame left (a frame stepping from it needs no world in the file). */
  private last: World | null = null;
  private stopped = false;

  private constructor(
    private readonly game: ClientGame,
    private readonly sink: ChunkSink,
    private readonly hooks: GameRecorderHooks,
  ) {}

  /**
   * Starts recording `game`: its snapshot goes to `sink` at once, then the
   * recorder journals it. A game that cannot be snapshotted (a class the
   * snapshot does not know) is refused with the reason.
   */
  static start(game: ClientGame, sink: ChunkSink, hooks: GameRecorderHooks = {}): { ok: true; recorder: GameRecorder } | { ok: false; reason: string } {
    if (game.journal) return { ok: false, reason: 'this game is being recorded already' };
    let bytes: Uint8Array;
    try {
      bytes = encodeSnapshot(game, GAME_CLASSES);
    } catch (err) {
      if (err instanceof SnapshotError) return { ok: false, reason: `the game cannot be snapshotted: ${err.message}` };
      throw err;
    }
    for (const part of partsOf(DemoKind.Snapshot, SNAPSHOT_CODE, bytes)) sink.add(part.kind, part.body);
    const recorder = new GameRecorder(game, sink, hooks);
    game.journal = recorder;
    return { ok: true, recorder };
  }

  /** Stops journaling (the file is the caller's to close). */
  stop(): void {
    this.stopped = true;
    if (this.game.journal === this) this.game.journal = null;
  }

  private put(entry: JournalEntry): void {
    if (this.stopped) return;
    try {
      for (const c of encodeEntry(entry)) this.sink.add(c.kind, c.body);
    } catch (err) {
      this.stop();
      this.hooks.failed?.(`could not record a ${entry.op}: ${(err as Error).message}`);
    }
  }

  private digest(tick: number, hash: string, frame: boolean): void {
    if (this.stopped) return;
    this.sink.add(DemoKind.Digest, digestBody(tick, hash));
    this.hooks.digest?.({ tick, hash, frame });
  }

  step(game: ClientGame, input: ShipInput, nowMs: number, botInputs: ReadonlyMap<number, ShipInput> | undefined): void {
    this.last = null;
    const bots = game.bots.length > 0 ? game.bots.map((slot): [number, ShipInput] => [slot, botInputs?.get(slot) ?? NO_INPUT]) : null;
    this.put({ op: 'step', input, nowMs, bots: botInputs === undefined ? null : bots });
    const tick = game.curr.tick;
    if (tick % DIGEST_EVERY === 0) this.digest(tick, gameDigest(game), false);
  }

  showSynced(_game: ClientGame, frames: readonly SteppedFrame[], slot: number): void {
    for (const f of frames) {
      if (f.before !== this.last) this.put({ op: 'world', world: f.before });
      const replay = f.replay;
      if (replay) {
        if (replay.from !== f.before) this.put({ op: 'from', world: replay.from });
        this.put({ op: 'frame', inputs: [...replay.inputs] });
      } else this.put({ op: 'result', world: f.world });
      this.last = f.world;
      if (f.world.tick % DIGEST_EVERY === 0) this.digest(f.world.tick, hashWorld(f.world), true);
    }
    this.put({ op: 'show', slot });
  }

  applyPlayers(_game: ClientGame, players: readonly GamePlayer[], localSlot: number | null): void {
    this.put({ op: 'players', players: [...players], localSlot });
  }

  applyState(_game: ClientGame, slot: number, state: ShipState, nowMs: number, ageMs: number): void {
    this.put({ op: 'state', slot, state, nowMs, ageMs });
  }

  applyEvent(_game: ClientGame, slot: number, event: RemoteEvent, nowMs: number, ageMs: number): void {
    this.put({ op: 'event', slot, event, nowMs, ageMs });
  }

  addBot(): void {
    this.put({ op: 'addBot' });
  }

  removeBot(_game: ClientGame, slot: number | undefined): void {
    this.put({ op: 'removeBot', slot });
  }

  setMatchLimits(_game: ClientGame, limits: Partial<MatchLimits>): void {
    this.put({ op: 'limits', limits });
  }

  convergeMs(_game: ClientGame, ms: number): void {
    this.put({ op: 'converge', ms });
  }
}
