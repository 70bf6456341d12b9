/**
 * A gameserver's door to its universe (issue 29): jumps to solar systems on
 * other servers, out and in.
 *
 * Out: a ship went through a gate to a system this server lacks. The door
 * asks the masterserver where it is (`route`); refused, the player hears
 * why. Routed, it issues a one-time ticket for the destination server, the
 * system and the player (jumpTicket.ts), hands the ship's carried state —
 * what this server knows of it: energy, hull, ammunition, speed, and the
 * player's career — to the destination through the masterserver (`carry`),
 * and once that is forwarded gives the player the ticket, the destination's
 * address and the shift between the two servers' clocks (the servers of a
 * universe share a time reference: their wall clocks, which each one's game
 * clock counts from — its `epoch` — so the client's clock is good on the
 * destination at once, without a fresh sync).
 *
 * In: a carried state arrives (`carried`), checked and kept a while by its
 * ticket id; a join with a ticket (`admit`) is let in only for a ticket of
 * this universe, for this server, one of its systems, that player, not
 * expired, never used, whose carried state is here: the arrival (`take`)
 * then seats it in that system with what it carried. Every refusal is
 * logged and counted by reason.
 */
import type { Logger } from '../../log';
import { checkTicket, issueTicket, openCarried, openTicket, refusalText, sealCarried, TICKET_LIFETIME_MS, TicketBook, ticketId, type CarriedShip, type TicketRefusal } from '../common/jumpTicket';

/** The masterserver as the door sees it (masterClient.ts MasterRegistration). */
export interface UniverseLink {
  route(system: string): Promise<{ ok: true; host: string; port: number; server: string; epoch: number } | { ok: false; why: string }>;
  carry(id: string, to: string, state: string): Promise<string | null>;
}

/** What a player is told to jump to another server (wire v15 `jumpTicket`). */
export interface JumpOrder {
  host: string;
  port: number;
  system: string;
  ticket: string;
  /** Add to this server's game time to get the destination's (ms). */
  clockShift: number;
}

/** How long a carried state waits for its player (ms): longer than a ticket lives. */
const CARRIED_KEPT_MS = 30_000;
/** Most carried states waiting at once. */
const MAX_WAITING = 256;

export interface UniverseDoorOptions {
  key: Buffer;
  /** The masterserver, once registered (null: none; every jump out is refused). */
  link: () => UniverseLink | null;
  /** This server as tickets name it (`name:port`). */
  self: () => string;
  /** The wall-clock ms this server's game clock counts from. */
  epoch: number;
  /** Whether this server hosts `system` (any case). */
  hosts: (system: string) => boolean;
  log: Logger;
  /** Wall-clock ms (tickets expire by it). */
  wallClock?: () => number;
}

export class UniverseDoor {
  private readonly waiting = new Map<string, { carried: CarriedShip; at: number }>();
  private readonly admitted = new Map<string, { system: string; carried: CarriedShip }>();
  private readonly book = new TicketBook();
  readonly counters = { jumpsOut: 0, refusedOut: 0, arrivals: 0, ticketsRefused: {} as Partial<Record<TicketRefusal | 'not-arrived', number>>, carriesRefused: 0 };
  private readonly now: () => number;

  constructor(private readonly o: UniverseDoorOptions) {
    this.now = o.wallClock ?? Date.now;
  }

  /** A ship's way out to `system` (from this server's `from`), carrying `carried`: the player's order, or why there is none. */
  async depart(name: string, system: string, carried: CarriedShip): Promise<{ ok: true; order: JumpOrder } | { ok: false; why: string }> {
    const link = this.o.link();
    if (!link) return this.refusedOut('this server is in no universe with a masterserver');
    const route = await link.route(system);
    if (!route.ok) return this.refusedOut(route.why);
    const id = ticketId();
    const ticket = issueTicket(this.o.key, { id, server: route.server, system, name, expiry: this.now() + TICKET_LIFETIME_MS });
    const why = await link.carry(id, route.server, sealCarried(this.o.key, id, carried));
    if (why !== null) return this.refusedOut(`its state could not be carried (${why})`);
    this.counters.jumpsOut += 1;
    return { ok: true, order: { host: route.host, port: route.port, system, ticket, clockShift: this.o.epoch - route.epoch } };
  }

  private refusedOut(why: string): { ok: false; why: string } {
    this.counters.refusedOut += 1;
    return { ok: false, why };
  }

  /** A carried state for this server arrived through the masterserver. */
  carried(id: string, state: string): void {
    const r = openCarried(this.o.key, id, state);
    if (!r.ok) {
      this.counters.carriesRefused += 1;
      this.o.log.warn({ ticket: id, reason: r.reason }, 'carried state refused');
      return;
    }
    const now = this.now();
    for (const [k, v] of this.waiting) if (now - v.at > CARRIED_KEPT_MS || this.waiting.size >= MAX_WAITING) this.waiting.delete(k);
    this.waiting.set(id, { carried: r.carried, at: now });
  }

  /** A join by `name` from `address` with ticket `text`: null lets it in (its arrival is then `take(name)`), else why not. */
  admit(text: string, name: string, address: string): string | null {
    const refuse = (reason: TicketRefusal | 'not-arrived'): string => {
      this.counters.ticketsRefused[reason] = (this.counters.ticketsRefused[reason] ?? 0) + 1;
      const why = reason === 'not-arrived' ? "the ship's carried state never reached this server" : refusalText(reason);
      this.o.log.warn({ player: name, address, reason }, `jump ticket refused: ${why}`);
      return why;
    };
    const opened = openTicket(this.o.key, text, { server: this.o.self(), name });
    if (!opened.ok) return refuse(opened.reason);
    const t = opened.ticket;
    const now = this.now();
    const bad = checkTicket(t, { hosts: this.o.hosts, now });
    if (bad) return refuse(bad);
    if (this.book.seen(t.id)) return refuse('replayed');
    const waiting = this.waiting.get(t.id);
    if (!waiting) return refuse('not-arrived');
    this.book.take(t.id, t.expiry, now);
    this.waiting.delete(t.id);
    this.admitted.set(name.toLowerCase(), { system: t.system, carried: waiting.carried });
    return null;
  }

  /** The arrival `admit` let in for `name` (taken once), or null. */
  take(name: string): { system: string; carried: CarriedShip } | null {
    const a = this.admitted.get(name.toLowerCase()) ?? null;
    this.admitted.delete(name.toLowerCase());
    if (a) this.counters.arrivals += 1;
    return a;
  }
}
