/**
 * Per-sender message-id filter (the 1998 paper's "drop packets older than one
 * already received") over the one sequence window (net/replayWindow.ts): a
 * ReplayWindow per sender address key, read as fresh, late or duplicate.
 */
import { ReplayWindow } from '../net/replayWindow';

export { idMax, idNewer } from '../net/replayWindow';

/**
 * How a packet's id relates to what came before from the same sender:
 * `fresh` newer than everything accepted so far (or the first), `late`
 * older than the newest but not seen before (overtaken on the way),
 * `duplicate` an id already seen (ids older than the window, REPLAY_WINDOW,
 * are late: nothing says they were seen).
 */
export type IdVerdict = 'fresh' | 'late' | 'duplicate';

interface SenderRecord {
  window: ReplayWindow;
  lastAcceptedAt: number;
}

/**
 * Remembers, per sender address key, the newest message id and which of the
 * REPLAY_WINDOW ids below it were seen. Deterministic and clock-free: `now` only stamps records for
 * pruning. The peer drops every packet that is not `fresh` when it carries
 * state that a newer packet supersedes (GameState, NodeAlive, Disconnect),
 * and only duplicates of control packets, whose effects are idempotent and
 * which a burst may deliver in any order (a ConnectReply and the GameFull
 * sent right after it, say).
 */
export class MessageFilter {
  private readonly senders = new Map<string, SenderRecord>();

  /** Classifies `id` from `key` and records it (fresh ids also become the sender's newest). */
  check(key: string, id: number, now: number): IdVerdict {
    let rec = this.senders.get(key);
    if (!rec) {
      rec = { window: new ReplayWindow(), lastAcceptedAt: now };
      this.senders.set(key, rec);
    }
    const seq = rec.window.admit(id);
    // Older than the window is late, not a duplicate: nothing says it was seen (a restarted sender's ConnectRequest counts from below).
    if (seq.verdict === 'late' || seq.verdict === 'too-old') return 'late';
    if (seq.verdict === 'replayed') return 'duplicate';
    rec.lastAcceptedAt = now;
    return 'fresh';
  }

  /**
   * Makes `id` the sender's newest id even if it is older: the sender has
   * started a new session (a ConnectRequest arrived). A restarted program's
   * counter (for example from a per-process clock) may start below its
   * previous session's, and refusing its packets would lock it out.
   */
  restart(key: string, id: number, now: number): void {
    const rec = this.senders.get(key);
    if (!rec) return;
    rec.window.restart(id);
    rec.lastAcceptedAt = now;
  }

  /** Newest accepted id from `key`, or undefined when nothing is on record. */
  lastId(key: string): number | undefined {
    return this.senders.get(key)?.window.newestTaken ?? undefined;
  }

  /**
   * Drops records of senders that have sent nothing fresh for `idleMs` and
   * are not in `keep`. Records of departed peers are kept that long on
   * purpose: a packet they sent before their Disconnect may still be in
   * flight and must not be taken for a fresh one.
   */
  prune(now: number, idleMs: number, keep: (key: string) => boolean): void {
    for (const [key, rec] of this.senders) {
      if (now - rec.lastAcceptedAt > idleMs && !keep(key)) this.senders.delete(key);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.senders.clear();
  }
}
