/**
 * Who is on whose client list at a join server (joinServer.ts): the `add`,
 * `remove`, `name` and `ship` lines a seat hears. Players hear of the players
 * they play with (a gameserver's solar system: the `together` hook);
 * spectators hear of the players they watch (the `watches` hook) and are on
 * nobody's list. A player moving to another game of the server (a jump
 * between solar systems) is regrouped: removed from the lists of those it
 * left and added to those of the ones it meets, both ways.
 */
import { AUTO_LOOK, sameLook, type ShipLook } from '../../../shared/wire/shipLook';
import { formatShipUpdate, SHIP_LOOK_MINOR } from '../../../shared/servers/shipLines';
import { formatAdd, formatRemove, leaveReason, LEAVE_REASON_MINOR } from '../../../shared/servers/joinProtocol';
import type { LineConnection } from '../common/lineServer';
import type { JoinHooks, SeatedPlayer } from './joinOptions';

/** A seat at the join server: a player's, or a spectator's. */
export interface Seat {
  player: SeatedPlayer;
  conn: LineConnection;
  /** A spectator's seat (`player.slot` its number among the spectators): it hears the client list, it is none of it. */
  spectator?: true;
  /** The minor of the protocol version it joined with: 1.1 clients read why others left, 1.2 clients ship looks. */
  minor: number;
  /** The ship look it chose (`my ship:`; AUTO_LOOK until it says). */
  look: ShipLook;
}

export const endpointOf = (p: SeatedPlayer) => ({ address: p.address, port: p.port });

/** `s`'s line on a client list. */
export const addLine = (s: Seat): string => formatAdd({ endpoint: endpointOf(s.player), name: s.player.name, slot: s.player.slot });

export class ClientLists {
  constructor(
    private readonly hooks: Pick<JoinHooks, 'together' | 'watches'>,
    private readonly joined: () => Seat[],
    private readonly watching: () => Seat[],
    /** Runs a hook, logging (and answering undefined) if it throws. */
    private readonly guarded: <T>(what: string, run: () => T) => T | undefined,
  ) {}

  /** Whether `a` and `b` hear of each other: two players of one game, or a spectator and a player it watches. */
  together(a: Seat, b: Seat): boolean {
    if (a.spectator === true && b.spectator === true) return true;
    if (a.spectator === true || b.spectator === true) {
      const [watcher, player] = a.spectator === true ? [a, b] : [b, a];
      return this.guarded('watches hook', () => this.hooks.watches?.(watcher.player.slot, player.player.slot) ?? true) ?? true;
    }
    return this.guarded('together hook', () => this.hooks.together?.(a.player.slot, b.player.slot) ?? true) ?? true;
  }

  /** Every other seat that hears of `seat` (players and spectators). */
  audienceOf(seat: Seat): Seat[] {
    return [...this.joined(), ...this.watching()].filter((s) => s !== seat && this.together(s, seat));
  }

  /** `line` about `seat` to everyone who hears of it (`minor`: only to clients of at least that minor). */
  toOthers(seat: Seat, line: string, minor = 0): void {
    for (const s of this.audienceOf(seat)) if (s.minor >= minor) s.conn.send(line);
  }

  /** What a newcomer hears first: an `add` line for each player it hears of, then their chosen ship looks (1.2 clients). */
  listFor(seat: Seat): string[] {
    const others = this.joined().filter((s) => s !== seat && this.together(s, seat));
    const looks = seat.minor >= SHIP_LOOK_MINOR ? others.filter((s) => !sameLook(s.look, AUTO_LOOK)).map((s) => formatShipUpdate({ endpoint: endpointOf(s.player), look: s.look })) : [];
    return [...others.map(addLine), ...looks];
  }

  /** `seat` left (`audience`: who heard of it, asked before its game forgot it): its `remove` line, with `told` for 1.1 clients. */
  left(seat: Seat, audience: readonly Seat[], told: string): void {
    const plain = formatRemove(endpointOf(seat.player));
    const reason = leaveReason(told);
    const withReason = reason === null ? plain : formatRemove(endpointOf(seat.player), reason);
    for (const s of audience) s.conn.send(s.minor >= LEAVE_REASON_MINOR ? withReason : plain);
  }

  /**
   * `mover` moved to another game of the server: the players it was with (`before`, slots) and no longer is
   * get its `remove` line (1.1 clients reading `reason`) and it gets theirs (reading `theirReason`); those it
   * is with now and was not get `add` lines (and ship looks) both ways. Spectators who watched it
   * (`watchedBefore`, their numbers) and no longer do get its `remove` line; those who watch it now, its `add`.
   */
  regroup(mover: Seat, before: ReadonlySet<number>, reason: string, theirReason: string, watchedBefore?: ReadonlySet<number>): void {
    const removal = (of: Seat, to: Seat) => {
      const told = leaveReason(of === mover ? reason : theirReason);
      return told !== null && to.minor >= LEAVE_REASON_MINOR ? formatRemove(endpointOf(of.player), told) : formatRemove(endpointOf(of.player));
    };
    const look = (of: Seat, to: Seat) => {
      if (to.minor >= SHIP_LOOK_MINOR && !sameLook(of.look, AUTO_LOOK)) to.conn.send(formatShipUpdate({ endpoint: endpointOf(of.player), look: of.look }));
    };
    for (const s of this.joined()) {
      if (s === mover) continue;
      const was = before.has(s.player.slot);
      const now = this.together(s, mover);
      if (was && !now) {
        s.conn.send(removal(mover, s));
        mover.conn.send(removal(s, mover));
      } else if (!was && now) {
        s.conn.send(addLine(mover));
        mover.conn.send(addLine(s));
        look(mover, s);
        look(s, mover);
      }
    }
    if (!watchedBefore) return;
    for (const s of this.watching()) {
      const was = watchedBefore.has(s.player.slot);
      const now = this.together(s, mover);
      if (was && !now) s.conn.send(removal(mover, s));
      else if (!was && now) {
        s.conn.send(addLine(mover));
        look(mover, s);
      }
    }
  }
}
