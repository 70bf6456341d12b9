/**
 * A gameserver's spectators (`version: 1.2 spectate: <name>` at the join
 * port): seats apart from the players', up to `--max-spectators`. A
 * spectator sends no state and decides nothing. It gets every player's
 * newest state, every event and every reliable message whatever the
 * distance: no filter radius and no level of detail, since its camera may
 * be anywhere and jump to any player. Optionally all of it comes
 * `--spectator-delay` seconds late, so a spectator cannot call out positions
 * to a player.
 *
 * Spectators are fed from shadows of the players: a seat per player that
 * takes the player's states (and carries its events) when the delay has
 * passed, at once with none. The players' own flush (seatFlush.ts) then
 * packs a spectator's Relays over the shadows, always in range: each state
 * is encoded once for every spectator, partial against what each one
 * acknowledged. Spectators are flushed on the tick only (watching is no
 * race). Nothing here takes from the players: their seats, queues and
 * budgets are untouched, and a spectator's full queue is counted as its
 * own overflow.
 *
 * A player who leaves is gone for the spectators at once (its leaving line
 * has reached them over TCP anyway); what it did in its last delay seconds
 * is dropped with it.
 */
import { NO_SLOT, type ReliableGameEvent } from '../../../shared/wire/types';
import type { WorldMessage } from '../../../shared/wire/channels';
import type { PacketHeader } from '../../../shared/wire/types';
import type { Tier } from './interest';
import type { PendingEvent } from './relay';
import { ClientSeat } from './seat';
import { SeatFlush } from './seatFlush';

export interface SpectatorStandConfig {
  /** How late spectators see the game (ms; 0: as it happens). */
  delayMs: number;
  /** Events queued per spectator and tier. */
  queueCap: number;
  /** Relay datagrams per spectator per tick. */
  budget: number;
  /** Lasers and missiles older than this (since they were released to the spectators) are dropped. */
  outdatedMs: number;
}

/** Dropped for spectators' sake, never a player's: events past a spectator's full queue, lasers too old when its turn came. */
export interface SpectatorDrops {
  overflow: number;
  outdated: number;
}

/** Something the spectators are shown once the delay has passed. */
interface Delayed {
  at: number;
  show: (now: number) => void;
}

export class SpectatorStand {
  /** Spectators by their number (the join server's). */
  readonly seats = new Map<number, ClientSeat>();
  readonly drops: SpectatorDrops = { overflow: 0, outdated: 0 };
  /** The players as spectators see them, by slot: each shadow stands for the player seat of `of` (its id). */
  private readonly shadows = new Map<number, { of: number; seat: ClientSeat }>();
  private readonly shadowSeats = new Map<number, ClientSeat>();
  /** What waits for the delay to pass, oldest first (from `head` on). */
  private line: Delayed[] = [];
  private head = 0;
  private readonly flusher: SeatFlush;
  private nextId = 1;

  constructor(
    private readonly cfg: SpectatorStandConfig,
    /** The players' seats by slot: what a delayed state or event of a player who has left since must not bring back. */
    private readonly players: ReadonlyMap<number, ClientSeat>,
  ) {
    this.flusher = new SeatFlush({ inRange: () => true }, this.shadowSeats, this.drops, cfg.outdatedMs);
  }

  /** A new spectator seat for spectator `n` at `address`, with `token`; it gets every player's newest state (as spectators see it) at its first flush. */
  add(n: number, address: string, token: number, now: number, firstLinkId: number): ClientSeat {
    const s = new ClientSeat(this.nextId++, NO_SLOT, address, token, now, this.cfg.queueCap, this.cfg.budget, firstLinkId, n);
    for (const shadow of this.shadowSeats.values()) if (shadow.header !== null) s.due.add(shadow);
    this.seats.set(n, s);
    return s;
  }

  /** Spectator `n` left; returns its seat. */
  remove(n: number): ClientSeat | undefined {
    const s = this.seats.get(n);
    this.seats.delete(n);
    if (this.seats.size === 0) this.forgetLine();
    return s;
  }

  /** `player` took a newer state: shown to the spectators when the delay has passed. */
  state(player: ClientSeat, now: number): void {
    const header = player.header;
    if (header === null || this.seats.size === 0) return;
    this.later(now, () => {
      if (!this.present(player)) return;
      const shadow = this.shadowOf(player);
      shadow.setState(header);
      for (const c of this.seats.values()) c.due.add(shadow);
    });
  }

  /** An event of `tier` relayed from a player: queued for every spectator when the delay has passed. */
  event(tier: Tier, pending: PendingEvent, now: number): void {
    if (this.seats.size === 0) return;
    const player = this.players.get(pending.from);
    this.later(now, (at) => {
      if (!player || !this.present(player)) return;
      this.shadowOf(player);
      const p = at === pending.at ? pending : { ...pending, at };
      for (const c of this.seats.values()) this.drops.overflow += c.outbox.push(tier, p);
    });
  }

  /** A reliable message from a player (`from`) or the server (NO_SLOT): queued on every spectator's link when the delay has passed. */
  reliable(from: number, event: ReliableGameEvent | WorldMessage, now: number, supersede?: string): void {
    if (this.seats.size === 0) return;
    const player = from === NO_SLOT ? undefined : this.players.get(from);
    this.later(now, (at) => {
      if (player) {
        if (!this.present(player)) return;
        this.shadowOf(player);
      } else if (from !== NO_SLOT) return;
      for (const c of this.seats.values()) c.link.queue({ from, event: event as ReliableGameEvent }, at, supersede);
    });
  }

  /** `player` left: gone for the spectators at once, with what they were still to be shown of it. */
  playerLeft(player: ClientSeat): void {
    const shadow = this.shadows.get(player.slot);
    if (!shadow || shadow.of !== player.id) return;
    this.dropShadow(player.slot, shadow.seat);
  }

  /** The tick: what has waited out the delay is shown (queued for the next flush). */
  release(now: number): void {
    const line = this.line;
    while (this.head < line.length && (line[this.head] as Delayed).at <= now) {
      const d = line[this.head] as Delayed;
      this.head += 1;
      d.show(d.at);
    }
    if (this.head > 1024 && this.head * 2 > line.length) {
      this.line = line.slice(this.head);
      this.head = 0;
    }
  }

  /** Everything due for spectator `c` as encoded Relay datagrams under `header()` (seatFlush.ts). */
  flush(c: ClientSeat, now: number, header: () => PacketHeader): Uint8Array[] {
    return this.flusher.flush(c, now, header);
  }

  /** Held back for the delay right now (states, events and messages). */
  get held(): number {
    return this.line.length - this.head;
  }

  /** Shows `show` to the spectators now (no delay) or once the delay has passed; a player's word is dropped if it has left by then. */
  private later(now: number, show: (at: number) => void): void {
    if (this.cfg.delayMs <= 0) return show(now);
    this.line.push({ at: now + this.cfg.delayMs, show });
  }

  /** Whether `player` still holds its seat (what it did before it left is not shown after). */
  private present(player: ClientSeat): boolean {
    return this.players.get(player.slot) === player;
  }

  private forgetLine(): void {
    this.line = [];
    this.head = 0;
  }

  /** The shadow of `player` (a new one for a new player in its slot; the old one is forgotten by every spectator). */
  private shadowOf(player: ClientSeat): ClientSeat {
    const had = this.shadows.get(player.slot);
    if (had && had.of === player.id) return had.seat;
    if (had) this.dropShadow(player.slot, had.seat);
    const seat = new ClientSeat(this.nextId++, player.slot, player.address, 0, 0, 1, 0);
    this.shadows.set(player.slot, { of: player.id, seat });
    this.shadowSeats.set(player.slot, seat);
    return seat;
  }

  private dropShadow(slot: number, shadow: ClientSeat): void {
    this.shadows.delete(slot);
    this.shadowSeats.delete(slot);
    for (const c of this.seats.values()) {
      c.outbox.remove((p) => p.from === slot);
      c.forgetStates(shadow);
      c.due.delete(shadow);
    }
  }
}
