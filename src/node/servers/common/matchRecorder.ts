/**
 * A server's demos (`--record <dir>`, docs/DEMO.md): one file per match,
 * recorded as a spectator's game would be. The server keeps a ClientGame
 * that watches (applyPlayers with NO_SLOT: no ship of its own, every joined
 * player shown, deciding nothing). A gameserver feeds it everything it
 * relays — every player's states and events, its own word on the match and
 * the arena — and it steps at 40 Hz on the server's clock; a netgame server
 * shows it each frame of the shared world it steps. Its journal is the demo
 * (ClientRecording). So `playdemo` plays a server demo like any client
 * demo, with any player's view. A file holds one match and its ranking
 * screen: the next match starts the next file; the folder keeps the newest
 * `keep` files.
 */
import { readdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '../../log';
import { ClientGame } from '../../../shared/game/clientGame';
import type { GamePlayer } from '../../../shared/game/clientTypes';
import type { SteppedFrame } from '../../../shared/game/frameSync';
import { NO_INPUT, STEP_MS } from '../../../shared/sim/types';
import type { Clock } from '../../../shared/time/clock';
import { NO_SLOT, type RemoteEvent, type ShipState } from '../../../shared/wire/types';
import { ClientRecording } from '../../demo/clientRecording';
import { DEMO_EXTENSION, ensureDemoDir } from '../../demo/demoLibrary';

/** What a server's status page says of its recording. */
export interface RecordingStatus {
  dir: string;
  /** The file being written now (its name in `dir`), or null between matches or after a failure. */
  file: string | null;
  /** Files started since the server started, and recordings that could not start. */
  files: number;
  failed: number;
  keep: number;
}

/** The status page's line on a recording (null: the server records nothing). */
export function recordingLine(r: RecordingStatus | null): string | null {
  if (!r) return null;
  const now = r.file === null ? 'no file open now' : `writing ${r.file}`;
  const failed = r.failed > 0 ? `, ${r.failed} could not start (see the log)` : '';
  return `Recording every match into ${r.dir}: ${now}; ${r.files} file${r.files === 1 ? '' : 's'} started since the server started${failed}; the newest ${r.keep} are kept.`;
}

/** An age beyond this (ms) is no age: a stamp from before a clock step, or a wrapped one. */
const MAX_AGE_MS = 10_000;

export interface MatchRecorderOptions {
  dir: string;
  /** Files kept in `dir` (the oldest of this server's go first). */
  keep: number;
  /** The server's name: the files' prefix and the recorder's name in their headers. */
  serverName: string;
  /** `host:port` the players join. */
  server: string;
  /** The server's kind: a gameserver's game is stepped here, a netgame server's shown its frames. */
  protocol: 'gameserver' | 'netgame';
  log: Logger;
  /** The server's clock (ms, its common game time) and its timers. */
  clock: () => number;
  timers: Clock;
}

/** What the recording game must hear at the start of a match: the slot table and what a newcomer is told. */
export interface MatchStart {
  round: number;
  players: { slot: number; name: string }[];
  /** The server's word a newcomer hears (the match's pages, the arena's extras and breaks). */
  welcome: RemoteEvent[];
}

export class MatchRecorder {
  private game: ClientGame | null = null;
  private recording: ClientRecording | null = null;
  private readonly stepping: unknown;
  private due = 0;
  private closed = false;
  /** Files written, and recordings that could not start. */
  readonly counters = { files: 0, failed: 0 };
  /** What is being written now: a promise chain, so a match's end and the next start never overlap. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly o: MatchRecorderOptions) {
    this.due = o.clock() + STEP_MS;
    this.stepping = o.protocol === 'gameserver' ? o.timers.setInterval(() => this.stepDue(), STEP_MS) : null;
  }

  /** Resolves once the files asked for so far are open or closed (tests, and a server stopping). */
  settled(): Promise<void> {
    return this.chain;
  }

  status(): RecordingStatus {
    const path = this.path;
    return { dir: this.o.dir, file: path === null ? null : basename(path), files: this.counters.files, failed: this.counters.failed, keep: this.o.keep };
  }

  /** The file being written now, or null. */
  get path(): string | null {
    return this.recording?.path ?? null;
  }

  /** A match starts (the server's first, or the next after the countdown): a new file. */
  startMatch(start: MatchStart): void {
    this.chain = this.chain.then(() => this.open(start));
  }

  /** The match ended (`why`): its file ends. */
  endMatch(why: string): void {
    this.chain = this.chain.then(() => this.finish(why));
  }

  /** The slot table changed. */
  players(players: { slot: number; name: string }[]): void {
    this.game?.applyPlayers(table(players), NO_SLOT);
  }

  /** A player's state the server relays, stamped `gameTime` by its sender (the server's common time). */
  state(slot: number, state: ShipState, gameTime: number | undefined): void {
    const now = this.o.clock();
    this.game?.applyState(slot, state, now, ageOf(now, gameTime));
  }

  /** An event the server relays from `slot`, or says itself (NO_SLOT). */
  event(slot: number, event: RemoteEvent, gameTime?: number): void {
    const now = this.o.clock();
    this.game?.applyEvent(slot, event, now, ageOf(now, gameTime));
  }

  /** A netgame server stepped its shared world: the frames, shown to the recording game. */
  frames(frames: readonly SteppedFrame[]): void {
    if (frames.length > 0) this.game?.showSynced(frames, NO_SLOT);
  }

  /** Stops: the file being written ends with `why`. */
  async close(why: string): Promise<void> {
    if (this.closed) return this.chain;
    this.closed = true;
    if (this.stepping !== null) this.o.timers.clearInterval(this.stepping);
    this.endMatch(why);
    await this.chain;
  }

  /** Steps the recording game to now, a tick per 25 ms, as a client's clock does. */
  private stepDue(): void {
    const now = this.o.clock();
    let ran = 0;
    while (this.due <= now && ran < 40) {
      this.game?.step(NO_INPUT, this.due);
      this.due += STEP_MS;
      ran++;
    }
    if (this.due <= now) this.due = now + STEP_MS;
  }

  private async open(start: MatchStart): Promise<void> {
    if (this.closed) return;
    await this.finish('the next match began');
    await ensureDemoDir(this.o.dir);
    const game = new ClientGame();
    game.applyPlayers(table(start.players), NO_SLOT);
    const now = this.o.clock();
    for (const ev of start.welcome) game.applyEvent(NO_SLOT, ev, now, 0);
    const name = `${safe(this.o.serverName)}_${stamp(new Date())}_match-${String(start.round).padStart(5, '0')}`;
    const started = await ClientRecording.start({
      game,
      path: join(this.o.dir, `${name}${DEMO_EXTENSION}`),
      protocol: this.o.protocol,
      server: this.o.server,
      recorder: { slot: null, name: this.o.serverName.slice(0, 32) },
      players: start.players.map((p) => ({ slot: p.slot, name: p.name.slice(0, 32) })),
      seed: null,
      hooks: { failed: (reason) => this.o.log.warn({ reason }, 'match recording stopped') },
    });
    if (!started.ok) {
      this.counters.failed++;
      this.o.log.warn({ reason: started.reason }, 'could not record the match');
      return;
    }
    this.game = game;
    this.recording = started.recording;
    this.counters.files++;
    this.o.log.info({ file: started.recording.path, round: start.round }, 'recording the match');
    await this.rotate();
  }

  private async finish(why: string): Promise<void> {
    const r = this.recording;
    this.recording = null;
    this.game = null;
    if (!r) return;
    const done = await r.stop(why);
    this.o.log.info({ file: r.path, seconds: done.seconds, bytes: done.bytes, why }, 'match recorded');
  }

  /** Deletes this server's oldest files beyond `keep` (names sort by their time stamp). */
  private async rotate(): Promise<void> {
    const prefix = `${safe(this.o.serverName)}_`;
    let names: string[];
    try {
      names = (await readdir(this.o.dir)).filter((n) => n.startsWith(prefix) && n.endsWith(DEMO_EXTENSION)).sort();
    } catch {
      return;
    }
    for (const n of names.slice(0, Math.max(0, names.length - this.o.keep))) {
      await unlink(join(this.o.dir, n)).catch((err: NodeJS.ErrnoException) => this.o.log.warn({ file: n, error: err.code ?? err.message }, 'could not remove an old match recording'));
    }
  }
}

function table(players: { slot: number; name: string }[]): GamePlayer[] {
  return players.map((p) => ({ slot: p.slot, name: p.name, joined: true, local: false }));
}

function ageOf(now: number, gameTime: number | undefined): number {
  if (gameTime === undefined) return 0;
  const age = (Math.floor(now) - gameTime) >>> 0;
  return age <= MAX_AGE_MS ? age : 0;
}

/** A server name as a file name's part: letters, digits, dash and underscore. */
function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'gameserver';
}

/** 2026-12-02_14-05-09 (UTC: the files of a server sort by time wherever it runs). */
function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}
