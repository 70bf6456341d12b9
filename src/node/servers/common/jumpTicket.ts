/**
 * Jump tickets (issue 29): what lets a ship leave one gameserver of a
 * universe and arrive at another with what it carried, and nothing else.
 *
 * - The **ticket** is what the player presents when it joins the
 *   destination: a one-time id, the destination server (its registered name
 *   and join port), the solar system, the player's name and an expiry (wall
 *   clock, ms), MACed (HMAC-SHA256, the first 128 bits) with the universe's
 *   key: about 70 characters of base64url, one token of a join line. The destination refuses a ticket that is forged (the MAC),
 *   another player's (the name), misdirected (another server, a system it
 *   does not host), expired, or replayed (an id it took already: TicketBook).
 * - The **carried state** travels server to server through the
 *   masterserver, apart from the player: what the server knows of the ship —
 *   its energy, hull, ammunition and speed — and the player's career totals, under
 *   a MAC of its own bound to the ticket's id, so neither the player nor
 *   anyone on the way can change what it arrives with.
 *
 * Everything read is untrusted: every decoder returns null or a reason,
 * never throws. Needs node:crypto: the servers' side only.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a ticket is good for by default (ms): a jump takes well under a second; a slow link a few. */
export const TICKET_LIFETIME_MS = 10_000;
/** Longest ticket or carried-state text read (characters). */
const MAX_TEXT = 400;
/** Bytes of MAC kept (128 bits). */
const MAC_BYTES = 16;

export interface TicketFields {
  /** One-time id: 16 hex digits. */
  id: string;
  /** The destination server as `name:port` (its registered name and join port). */
  server: string;
  /** The destination solar system. */
  system: string;
  /** The player it is for. */
  name: string;
  /** Wall-clock ms after which it is refused. */
  expiry: number;
}

/** What a ship carries from one server to another. */
export interface CarriedShip {
  /** The system it left, for the arrival beyond the gate back. */
  from: string;
  energy: number;
  damage: number;
  missiles: number;
  mines: number;
  /** Its speed as it went through the gate (units/s). */
  speed: number;
  /** The player's totals over every system it played in. */
  career: { kills: number; deaths: number; jumps: number };
}

export type TicketRefusal = 'malformed' | 'forged' | 'not-yours' | 'misdirected' | 'expired' | 'replayed';

const mac = (key: Buffer, what: string): Buffer => createHmac('sha256', key).update(what).digest().subarray(0, MAC_BYTES);
const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64url');
/** Decodes canonical base64url only (the unused low bits of a last digit changed would decode to the same bytes). */
const unb64 = (s: string): Buffer | null => {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  const bytes = Buffer.from(s, 'base64url');
  return bytes.toString('base64url') === s ? bytes : null;
};
const sameMac = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);
const SYSTEM = /^[A-Za-z0-9._-]{1,31}$/;

/** A fresh one-time id. */
export function ticketId(random: (n: number) => Buffer = randomBytes): string {
  return random(8).toString('hex');
}

/** The first 4 bytes of SHA-256 of `s`: enough to tell a ticket for another server or player from a forged one. */
const tag = (s: string): Buffer => createHash('sha256').update(s).digest().subarray(0, 4);
const TICKET_VERSION = 1;

/**
 * The ticket text for `t`, MACed with `key`: base64url of [version u8][id 8][server tag 4][name tag 4]
 * [expiry u48][system length u8][system][MAC 16], the MAC over the bytes before it and the whole server
 * and player names (their tags only say, on a refusal, which one was wrong). About 70 characters.
 */
export function issueTicket(key: Buffer, t: TicketFields): string {
  const system = Buffer.from(t.system, 'latin1');
  const head = Buffer.alloc(1 + 8 + 4 + 4 + 6 + 1);
  head.writeUInt8(TICKET_VERSION, 0);
  Buffer.from(t.id, 'hex').copy(head, 1);
  tag(t.server).copy(head, 9);
  tag(t.name).copy(head, 13);
  head.writeUIntBE(Math.max(0, Math.min(2 ** 48 - 1, Math.floor(t.expiry))), 17, 6);
  head.writeUInt8(system.length, 23);
  const body = Buffer.concat([head, system]);
  return Buffer.concat([body, ticketMac(key, body, t.server, t.name)]).toString('base64url');
}

const ticketMac = (key: Buffer, body: Buffer, server: string, name: string): Buffer =>
  createHmac('sha256', key).update('starlane jump ticket 1|').update(body).update(`|${server}|${name}`).digest().subarray(0, MAC_BYTES);

/**
 * The fields of a ticket presented at server `at.server` by player `at.name`, if it is well formed, for them,
 * and its MAC is the key's; else why not (misdirected: for another server; not-yours: another player's).
 */
export function openTicket(key: Buffer, text: string, at: { server: string; name: string }): { ok: true; ticket: TicketFields } | { ok: false; reason: 'malformed' | 'forged' | 'misdirected' | 'not-yours' } {
  if (typeof text !== 'string' || text.length > MAX_TEXT) return { ok: false, reason: 'malformed' };
  const raw = unb64(text);
  if (!raw || raw.length < 24 + MAC_BYTES || raw.readUInt8(0) !== TICKET_VERSION) return { ok: false, reason: 'malformed' };
  const n = raw.readUInt8(23);
  if (raw.length !== 24 + n + MAC_BYTES) return { ok: false, reason: 'malformed' };
  const system = raw.subarray(24, 24 + n).toString('latin1');
  if (!SYSTEM.test(system)) return { ok: false, reason: 'malformed' };
  if (!raw.subarray(9, 13).equals(tag(at.server))) return { ok: false, reason: 'misdirected' };
  if (!raw.subarray(13, 17).equals(tag(at.name))) return { ok: false, reason: 'not-yours' };
  const body = raw.subarray(0, 24 + n);
  if (!sameMac(raw.subarray(24 + n), ticketMac(key, body, at.server, at.name))) return { ok: false, reason: 'forged' };
  return { ok: true, ticket: { id: raw.subarray(1, 9).toString('hex'), server: at.server, system, name: at.name, expiry: raw.readUIntBE(17, 6) } };
}

/** Whether an opened ticket may be used at a server that hosts the systems `hosts` says, at wall-clock `now` (before the replay check: TicketBook). */
export function checkTicket(t: TicketFields, at: { hosts: (system: string) => boolean; now: number }): TicketRefusal | null {
  if (!at.hosts(t.system)) return 'misdirected';
  if (at.now > t.expiry) return 'expired';
  return null;
}

/** What a refused ticket's player and the log read. */
export function refusalText(r: TicketRefusal): string {
  switch (r) {
    case 'malformed':
      return 'the jump ticket is not one (malformed)';
    case 'forged':
      return 'the jump ticket was not issued by this universe (forged)';
    case 'not-yours':
      return "the jump ticket is another player's";
    case 'misdirected':
      return 'the jump ticket is for another server or solar system';
    case 'expired':
      return 'the jump ticket has expired';
    case 'replayed':
      return 'the jump ticket was used already';
  }
}

/** The ids of the tickets a server took, each until its expiry (a replay is refused), at most `max` of them (the oldest go first). */
export class TicketBook {
  private readonly used = new Map<string, number>();
  constructor(private readonly max = 4096) {}

  /** Whether ticket `id` was taken already (and is remembered). */
  seen(id: string): boolean {
    return this.used.has(id);
  }

  /** Takes ticket `id` (good until `expiry`) at `now`: false if it was taken already. */
  take(id: string, expiry: number, now: number): boolean {
    for (const [k, until] of this.used) {
      if (until >= now) break;
      this.used.delete(k);
    }
    if (this.used.has(id)) return false;
    if (this.used.size >= this.max) this.used.delete(this.used.keys().next().value as string);
    this.used.set(id, expiry);
    return true;
  }
}

/** The carried state of the ticket `id` as it travels (`<base64url JSON>.<base64url MAC>`), MACed with `key`. */
export function sealCarried(key: Buffer, id: string, c: CarriedShip): string {
  const body = b64(JSON.stringify([c.from, c.energy, c.damage, c.missiles, c.mines, c.speed, c.career.kills, c.career.deaths, c.career.jumps]));
  return `${body}.${mac(key, `starlane jump carry 1|${id}|${body}`).toString('base64url')}`;
}

const within = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
const whole = (v: unknown, hi: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= hi;

/** The carried state of ticket `id` if `text` is well formed and MACed with `key`; else why not. */
export function openCarried(key: Buffer, id: string, text: string): { ok: true; carried: CarriedShip } | { ok: false; reason: 'malformed' | 'forged' } {
  if (typeof text !== 'string' || text.length > MAX_TEXT) return { ok: false, reason: 'malformed' };
  const [body, sig, ...rest] = text.split('.');
  if (body === undefined || sig === undefined || rest.length > 0) return { ok: false, reason: 'malformed' };
  const given = unb64(sig);
  const raw = unb64(body);
  if (!given || !raw) return { ok: false, reason: 'malformed' };
  if (!sameMac(given, mac(key, `starlane jump carry 1|${id}|${body}`))) return { ok: false, reason: 'forged' };
  let v: unknown;
  try {
    v = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!Array.isArray(v) || v.length !== 9) return { ok: false, reason: 'malformed' };
  const [from, energy, damage, missiles, mines, speed, kills, deaths, jumps] = v as unknown[];
  if (typeof from !== 'string' || !SYSTEM.test(from)) return { ok: false, reason: 'malformed' };
  if (!within(energy, 0, 100) || !within(damage, 0, 100) || !within(speed, 0, 10_000)) return { ok: false, reason: 'malformed' };
  if (!whole(missiles, 255) || !whole(mines, 255) || !whole(kills, 1e9) || !whole(deaths, 1e9) || !whole(jumps, 1e9)) return { ok: false, reason: 'malformed' };
  return { ok: true, carried: { from, energy, damage, missiles, mines, speed, career: { kills, deaths, jumps } } };
}
