/**
 * Whether a slotserver seat is still used. A slotserver carries no game
 * packets, so all it can see of a player is its TCP line and the datagrams
 * that reach its UDP port. The rule: a joined player keeps its seat while
 * its TCP connection is open AND time-sync requests (which Starlane clients
 * send about once a second from their game socket for as long as they are
 * joined) arrive from its host (its IPv4 address or IPv6 /64, addressKey.ts)
 * at least once per `silenceMs`. A seat with neither for `silenceMs` after
 * its join or its host's last request is freed and its player told why.
 *
 * A new seat must prove its player's UDP endpoint sooner: a first time-sync
 * request from its host within `proveMs` of the join (Starlane clients send one
 * at once), else it is freed unproved and its host struck (JoinServer.unproved).
 *
 * By host, not by endpoint: a NAT may move the source port, and players
 * behind one public address then keep each other's seats, which the per-host
 * seat limit already bounds.
 */
import type { Clock } from '../../../shared/time/clock';
import { addressKey } from '../common/addressKey';

interface Watched {
  key: string;
  lastHeard: number;
  /** A time-sync request from its host arrived since the join. */
  proved: boolean;
}

export class SlotLiveness {
  private readonly seats = new Map<number, Watched>();
  private readonly timer: unknown;

  constructor(
    private readonly clock: Clock,
    /** Silence after which a seat is freed (0 = never). */
    readonly silenceMs: number,
    /** Time a new seat has for its first request (0 = no such rule). */
    readonly proveMs: number,
    /** Frees the seat in `slot`; `why` is told to its player; `unproved` when it never proved its endpoint. */
    private readonly expire: (slot: number, why: string, silentMs: number, unproved: boolean) => void,
  ) {
    const shortest = Math.min(...[silenceMs, proveMs].filter((ms) => ms > 0));
    this.timer = clock.setInterval(() => this.sweep(), Math.min(1000, Math.max(25, shortest / 4)));
  }

  /** A player took `slot` from `address`: its silence counts from now. */
  joined(slot: number, address: string): void {
    this.seats.set(slot, { key: addressKey(address), lastHeard: this.clock.now(), proved: false });
  }

  left(slot: number): void {
    this.seats.delete(slot);
  }

  /** A time-sync request (or other sign of life) arrived from `address`: every seat of its host is alive. */
  heard(address: string): void {
    if (this.seats.size === 0) return;
    const key = addressKey(address);
    const now = this.clock.now();
    for (const w of this.seats.values()) if (w.key === key) {
      w.lastHeard = now;
      w.proved = true;
    }
  }

  close(): void {
    this.clock.clearInterval(this.timer);
    this.seats.clear();
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [slot, w] of [...this.seats]) {
      const silent = now - w.lastHeard;
      if (!w.proved && this.proveMs > 0 && silent > this.proveMs) {
        this.seats.delete(slot);
        this.expire(slot, `no time-sync datagram from your address within ${Math.round(this.proveMs / 1000)} s of joining`, silent, true);
        continue;
      }
      if (this.silenceMs === 0 || silent <= this.silenceMs) continue;
      this.seats.delete(slot);
      this.expire(slot, `no time-sync datagram from your address for ${Math.round(silent / 1000)} s`, silent, false);
    }
  }
}
