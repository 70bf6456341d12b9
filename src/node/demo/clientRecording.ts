/**
 * A client's recording (docs/DEMO.md): a demo file in the user-data demos/
 * folder written by a DemoWriter (append-only, synced every 500 ms) from a
 * GameRecorder on the client's ClientGame, with chat as text chunks. The
 * host's `record` and the headless bot's `--record` use it; it ends with
 * an end chunk naming why (stop, a protocol switch, quitting), or stops by
 * itself on a failed write and says so.
 */
import type { ClientGame } from '../../shared/game/clientGame';
import { DEMO_FORMAT, DemoKind, textBody, type DemoHeader, type DemoProtocol } from '../../shared/demo/demoFormat';
import { GameRecorder, type GameRecorderHooks } from '../../shared/demo/gameRecorder';
import { GOLDEN_8_SHIPS_10000_TICKS } from '../../shared/game/goldenRun';
import { WIRE_VERSION } from '../../shared/wire/types';
import { APP_VERSION } from '../version';
import { DemoWriter } from './demoWriter';

export interface ClientRecordingOptions {
  game: ClientGame;
  path: string;
  protocol: DemoProtocol;
  server: string | null;
  recorder: { slot: number | null; name: string };
  players: { slot: number; name: string }[];
  seed: number | null;
  hooks?: GameRecorderHooks;
}

export class ClientRecording {
  private stopped = false;

  private constructor(
    private readonly writer: DemoWriter,
    private readonly recorder: GameRecorder,
    readonly protocol: DemoProtocol,
  ) {}

  static async start(o: ClientRecordingOptions): Promise<{ ok: true; recording: ClientRecording } | { ok: false; reason: string }> {
    const header: DemoHeader = { demo: DEMO_FORMAT, starlane: APP_VERSION, wire: WIRE_VERSION, sim: GOLDEN_8_SHIPS_10000_TICKS, protocol: o.protocol, seed: o.seed, server: o.server, recorder: o.recorder, players: o.players.slice(0, 256), startedAt: new Date().toISOString() };
    let recording: ClientRecording | null = null;
    let writer: DemoWriter;
    try {
      writer = await DemoWriter.create(o.path, header, { onFailed: (reason) => recording?.failed(reason) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return { ok: false, reason: code === 'EEXIST' ? `${o.path} exists already: choose another name` : `cannot create ${o.path}: ${code ?? (err as Error).message}` };
    }
    const started = GameRecorder.start(o.game, writer, { ...o.hooks, failed: (reason) => recording?.failed(reason) });
    if (!started.ok) {
      await writer.close(started.reason);
      return { ok: false, reason: started.reason };
    }
    recording = new ClientRecording(writer, started.recorder, o.protocol);
    recording.onFailed = o.hooks?.failed ?? null;
    return { ok: true, recording };
  }

  private onFailed: ((reason: string) => void) | null = null;

  get path(): string {
    return this.writer.path;
  }

  get active(): boolean {
    return !this.stopped;
  }

  /** A chat or console line into the demo. */
  text(line: string): void {
    if (!this.stopped) this.writer.add(DemoKind.Text, textBody(line));
  }

  /** Ends the recording with `reason`; resolves once it is on the disk, with its figures. */
  async stop(reason: string): Promise<{ chunks: number; bytes: number; seconds: number }> {
    if (!this.stopped) {
      this.stopped = true;
      this.recorder.stop();
      await this.writer.close(reason);
    }
    const s = this.writer.stats;
    return { chunks: s.chunksWritten, bytes: s.bytes, seconds: s.writtenUpToMs / 1000 };
  }

  private failed(reason: string): void {
    if (this.stopped) return;
    void this.stop(`stopped: ${reason}`);
    this.onFailed?.(reason);
  }
}
