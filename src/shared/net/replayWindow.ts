/**
 * The one sequence window of Starlane (netcode.io's replay buffer), inside
 * each Connection (net/connection.ts: a client session's connection layer,
 * session/connections.ts, one per remote node) and each server seat. Every
 * datagram carries its link's sequence number (`messageId`, written by the
 * sender's Connection); the receiver keeps, per sender, the newest number it
 * accepted and which of the REPLAY_WINDOW numbers below it it has seen. A
 * number it has seen is a duplicate or a replay, and one older than the
 * window is so late it is useless: a session's datagrams with either are
 * dropped — whatever their age, so a datagram captured a minute ago is as
 * dead as one captured a millisecond ago. Each number is read once, where it
 * is admitted; what the window made of it goes up with the packet. It never
 * takes an old number for a new one: "newer" is serial-number order on u32
 * (RFC 1982), and a link's numbers start from the sender's wall-clock second
 * (sequenceStart), so a restarted sender starts above everything it sent
 * before.
 */
/** True when sequence number `a` is newer than `b` (u32 serial-number order, RFC 1982; equal numbers are not newer). */
export function idNewer(a: number, b: number): boolean {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x8000_0000;
}

/** The newer of two sequence numbers (serial order). */
export function idMax(a: number, b: number): number {
  return idNewer(a, b) ? a >>> 0 : b >>> 0;
}

/** How many numbers below the newest a late (reordered) datagram may be. */
export const REPLAY_WINDOW = 256;

/** What the window makes of a sequence number. */
export type ReplayVerdict = 'new' | 'replayed' | 'too-old';

/**
 * The same with a new number's place: `newest` (newer than every number
 * taken) or `late` (older, overtaken on the way, never taken), and how many
 * numbers below the newest a late one is (0 for the newest).
 */
export type SequenceVerdict = { verdict: 'newest'; behind: 0 } | { verdict: 'late'; behind: number } | { verdict: 'replayed' | 'too-old' };

export class ReplayWindow {
  private newest: number | null = null;
  /** Bit i: newest − i has been seen (bit 0 is the newest itself). */
  private readonly seen = new Uint32Array(REPLAY_WINDOW / 32);

  /** True when `seq` is newer than every number taken so far (or nothing was taken yet). Records nothing. */
  ahead(seq: number): boolean {
    return this.newest === null || idNewer(seq >>> 0, this.newest);
  }

  /** Classifies `seq` and, when it is new, records it. */
  accept(seq: number): ReplayVerdict {
    const v = this.admit(seq).verdict;
    return v === 'newest' || v === 'late' ? 'new' : v;
  }

  /** Classifies `seq` with its place among the numbers taken and, when it is new, records it. */
  admit(seq: number): SequenceVerdict {
    const u = seq >>> 0;
    if (this.newest === null) {
      this.newest = u;
      this.seen.fill(0);
      this.seen[0] = 1;
      return { verdict: 'newest', behind: 0 };
    }
    if (idNewer(u, this.newest)) {
      this.shift((u - this.newest) >>> 0);
      this.newest = u;
      this.seen[0]! |= 1;
      return { verdict: 'newest', behind: 0 };
    }
    const back = (this.newest - u) >>> 0;
    if (back >= REPLAY_WINDOW) return { verdict: 'too-old' };
    const word = back >>> 5;
    const bit = 1 << (back & 31);
    if ((this.seen[word]! & bit) !== 0) return { verdict: 'replayed' };
    this.seen[word]! |= bit;
    return { verdict: 'late', behind: back };
  }

  /** Takes `seq` as the newest number whatever came before (the sender started a new session below its old numbers). */
  restart(seq: number): void {
    this.newest = seq >>> 0;
    this.seen.fill(0);
    this.seen[0] = 1;
  }

  /** Forgets every number taken (the next one is taken as the first). */
  reset(): void {
    this.newest = null;
    this.seen.fill(0);
  }

  /** The newest number taken, or null before the first. */
  get newestTaken(): number | null {
    return this.newest;
  }

  /** Moves the window up by `n` numbers (older bits slide towards the end; beyond it they are forgotten). */
  private shift(n: number): void {
    const seen = this.seen;
    if (n >= REPLAY_WINDOW) {
      seen.fill(0);
      return;
    }
    const words = n >>> 5;
    const bits = n & 31;
    for (let i = seen.length - 1; i >= 0; i--) {
      const from = i - words;
      const hi = from >= 0 ? seen[from]! : 0;
      const lo = from - 1 >= 0 ? seen[from - 1]! : 0;
      seen[i] = bits === 0 ? hi : ((hi << bits) | (lo >>> (32 - bits))) >>> 0;
    }
  }
}

/**
 * The first sequence number of a link opened in wall-clock second `seconds`
 * (its low 16 bits, times 65,536), then one more per datagram. A link sending
 * fewer than 65,536 datagrams a second (every Starlane link, by far)
 * therefore never reaches the first number of a link opened a second later,
 * so a restarted node is never taken for a replay of itself.
 */
export function sequenceStart(seconds: number): number {
  return ((seconds & 0xffff) * 0x10000) >>> 0;
}
