/**
 * Per-sender message-id filter (the 1998 paper's "drop packets older than one
 * already received"). Ids are u32 counters that wrap, so "newer" is decided
 * by serial-number arithmetic (RFC 1982): a is newer than b when a − b mod
 * 2^32 is in 1..2^31−1.
 */

/** True when message id `a` is newer than `b` (u32 serial-number order; equal ids are not newer). */
export function idNewer(a: number, b: number): boolean {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x8000_0000;
}

/** The newer of two message ids (serial order). */
export function idMax(a: number, b: number): number {
  return idNewer(a, b) ? a >>> 0 : b >>> 0;
}

/** Ids remembered per sender to recognise duplicates among packets that are not the newest. */
const REMEMBERED_IDS = 16;

/**
 * How a packet's id relates to what came before from the same sender:
 * `fresh` newer than everything accepted so far (or the first), `late`
 * older than the newest but not seen before (overtaken on the way),
 * `duplicate` an id already seen.
 */
export type IdVerdict = 'fresh' | 'late' | 'duplicate';

interface SenderRecord {
  lastId: number;
  lastAcceptedAt: number;
  recent: number[];
}

/**
 * Remembers, per sender address key, the newest message id and the last few
 * ids seen. Deterministic and clock-free: `now` only stamps records for
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
    const u = id >>> 0;
    const rec = this.senders.get(key);
    if (!rec) {
      this.senders.set(key, { lastId: u, lastAcceptedAt: now, recent: [u] });
      return 'fresh';
    }
    if (u === rec.lastId || rec.recent.includes(u)) return 'duplicate';
    rec.recent.push(u);
    if (rec.recent.length > REMEMBERED_IDS) rec.recent.shift();
    if (!idNewer(u, rec.lastId)) return 'late';
    rec.lastId = u;
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
    rec.lastId = id >>> 0;
    rec.lastAcceptedAt = now;
  }

  /** Newest accepted id from `key`, or undefined when nothing is on record. */
  lastId(key: string): number | undefined {
    return this.senders.get(key)?.lastId;
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
