/**
 * Has the server stopped answering? A client of a gameserver or slotserver
 * hears from its server at least once a second while all is well (the
 * gameserver pings every bound client each second; the time-sync refresh
 * asks the server's clock each second and gets a reply). `SilenceWatch`
 * takes the arrivals from the server and the session's ticks and says, as
 * data for the adapter to word:
 * - `silent`: nothing heard for `silentMs`, once when it reaches
 *   `afterMs`, then once per further whole second (never once per tick);
 * - `back`: heard again after such a silence, and for how long it lasted.
 * Pure: time comes in as `now` (ms, any monotonic clock).
 */

/** Silence longer than this is worth telling the player (twice the 1 s heartbeat). */
export const SERVER_SILENT_AFTER_MS = 2000;

/** A removal (or a lost connection) this soon after the server stopped answering is taken as the stall's doing: the client rejoins. */
export const REJOIN_WITHIN_MS = 5000;

export type SilenceNotice = { kind: 'silent'; silentMs: number } | { kind: 'back'; silentMs: number };

export class SilenceWatch {
  private lastHeard: number | null = null;
  /** Whole seconds of silence last reported (0: nothing reported in this silence). */
  private reported = 0;
  /** When the last silence that was reported ended, and how long it was (for a removal that follows it). */
  lastSilence: { endedAt: number; silentMs: number } | null = null;

  constructor(private readonly afterMs = SERVER_SILENT_AFTER_MS) {}

  /** Starts (or restarts) watching at `now`: a server just joined counts as heard. */
  start(now: number): void {
    this.lastHeard = now;
    this.reported = 0;
  }

  /** Stops watching (not connected). */
  stop(): void {
    this.lastHeard = null;
    this.reported = 0;
  }

  get watching(): boolean {
    return this.lastHeard !== null;
  }

  /** Whether a silence is going on and has been reported. */
  get silent(): boolean {
    return this.reported > 0;
  }

  /** How long the reported silence going on at `now` has lasted, else the last one (ms); null: none. */
  recentSilenceMs(now: number): number | null {
    if (this.reported > 0 && this.lastHeard !== null) return now - this.lastHeard;
    return this.lastSilence?.silentMs ?? null;
  }

  /** Whether the server is not answering at `now`, or stopped answering for a while just before (a stall, not a verdict on us). */
  excuses(now: number): boolean {
    if (this.silent) return true;
    const last = this.lastSilence;
    return last !== null && now - last.endedAt <= REJOIN_WITHIN_MS;
  }

  /** One rejoin per stall: a silence that led to one does not excuse the next removal. */
  forget(): void {
    this.lastSilence = null;
  }

  /** A datagram from the server arrived at `now`; `back` when it ends a reported silence. */
  heard(now: number): SilenceNotice | null {
    if (this.lastHeard === null) return null;
    const silentMs = now - this.lastHeard;
    const wasSilent = this.reported > 0;
    this.lastHeard = now;
    this.reported = 0;
    if (!wasSilent) return null;
    this.lastSilence = { endedAt: now, silentMs };
    return { kind: 'back', silentMs };
  }

  /** The timer: `silent` when a new whole second of reportable silence has begun. */
  tick(now: number): SilenceNotice | null {
    if (this.lastHeard === null) return null;
    const silentMs = now - this.lastHeard;
    if (silentMs < this.afterMs) return null;
    const seconds = Math.floor(silentMs / 1000);
    if (seconds <= this.reported) return null;
    this.reported = seconds;
    return { kind: 'silent', silentMs };
  }
}
