/**
 * A ship's way through a stargate to another server of a universe, as the
 * server client (serverClient.ts) goes it: the gameserver orders the jump
 * (its `jumpTicket`), the client leaves with `jumped to <system>`, and once
 * that link is closed joins the far side with the ticket on its join line,
 * the clock carried over. The far side may refuse the ticket
 * (`jump refused: <why>`): the client then joins the server it came from
 * again. This keeps where the journey stands; the client does the leaving
 * and the joining.
 */
import { JUMP_REFUSED } from '../../shared/servers/joinProtocol';
import type { SessionNotice } from '../../shared/session/notices';

export type JumpOrder = Extract<SessionNotice, { kind: 'jump' }>;

/** What follows the closing of the link a jump left by: join the far side, go back, or nothing of the jump's. */
export type AfterJump = { kind: 'arrive'; order: JumpOrder } | { kind: 'back'; target: string } | null;

/** `host:port` as `connect` takes it (`[v6]:port`). */
const addressOf = (order: JumpOrder): string => `${order.host.includes(':') ? `[${order.host}]` : order.host}:${order.port}`;

export class ServerJump {
  /** Ordered, the link to the old server still closing: where to, once it is closed. */
  private ordered: JumpOrder | null = null;
  /** The ticket the next join line carries (an arrival), and the server to go back to if the far side refuses it. */
  private ticket: { text: string; system: string; back: string | null } | null = null;
  /** A refused arrival: the server the ship came from, joined again once this link is closed. */
  private returnTo: string | null = null;

  constructor(
    /** The protocol's name, for the lines (`gameserver`). */
    private readonly kind: string,
    private readonly print: (line: string) => void,
  ) {}

  /** A jump has been ordered and the old link is not yet closed. */
  get underWay(): boolean {
    return this.ordered !== null;
  }

  /** The gameserver sends the ship to `order`'s server: says so; the caller leaves (`jumped to <system>`). */
  take(order: JumpOrder): void {
    this.ordered = order;
    this.print(`through the stargate to ${order.system} on the ${this.kind} at ${addressOf(order)}…`);
  }

  /** The old link is closed: what to do next (`from`: the server it was, to go back to if the far side refuses the ship). */
  closed(from: string | null): AfterJump {
    const order = this.ordered;
    if (order) {
      this.ordered = null;
      this.ticket = { text: order.ticket, system: order.system, back: from };
      return { kind: 'arrive', order };
    }
    const back = this.returnTo;
    if (back === null) return null;
    this.returnTo = null;
    this.print(`back to the ${this.kind} at ${back}`);
    return { kind: 'back', target: back };
  }

  /** Where the far side is, as `connect` takes it. */
  static address(order: JumpOrder): string {
    return addressOf(order);
  }

  /** The join line's ticket field while arriving (none otherwise). */
  joinField(): { ticket: string } | Record<string, never> {
    return this.ticket ? { ticket: this.ticket.text } : {};
  }

  /** A line while joining: true when it is the far side refusing our ticket (said; the caller closes the link, and the ship goes back). */
  refused(line: string): boolean {
    if (!this.ticket || !line.startsWith(JUMP_REFUSED)) return false;
    this.print(`the ${this.kind} at the far side of the stargate to ${this.ticket.system} refused the ship: ${line.slice(JUMP_REFUSED.length)}`);
    this.returnTo = this.ticket.back;
    this.ticket = null;
    return true;
  }

  /** The far side took us (or another join did): the ticket is spent. */
  seated(): void {
    this.ticket = null;
  }
}
