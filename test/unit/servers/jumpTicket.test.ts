/**
 * Jump tickets and the carried state (jumpTicket.ts), and universe key files
 * (universeKey.ts): a ticket the universe's key made opens at the server,
 * system and player it names until it expires, once; anything else is
 * refused with its reason; a carried state cannot be changed on its way;
 * no mutated text makes a reader throw or pass.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTicket, issueTicket, openCarried, openTicket, sealCarried, TicketBook, ticketId, type CarriedShip, type TicketFields } from '../../../src/node/servers/common/jumpTicket';
import { parseUniverseKey } from '../../../src/node/servers/common/universeKey';

const KEY = Buffer.alloc(32, 7);
const OTHER = Buffer.alloc(32, 8);
const NOW = 1_800_000_000_000;
const fields: TicketFields = { id: '0123456789abcdef', server: 'Beta:7001', system: 'Vega', name: 'Red Baron', expiry: NOW + 10_000 };
const at = { name: 'Red Baron', server: 'Beta:7001' };
const here = { hosts: (s: string) => s === 'Vega' || s === 'Rigel', now: NOW };
const carried: CarriedShip = { from: 'Sol', energy: 61.5, damage: 30, missiles: 2, mines: 0, speed: 118.25, career: { kills: 4, deaths: 1, jumps: 2 } };

describe('jump tickets', () => {
  it('a ticket opens at the server, system and player it names, before it expires, once', () => {
    const text = issueTicket(KEY, fields);
    // One token of a join line, which is at most 256 bytes.
    expect(text.length).toBeLessThan(100);
    const r = openTicket(KEY, text, at);
    expect(r).toEqual({ ok: true, ticket: fields });
    if (!r.ok) return;
    expect(checkTicket(r.ticket, here)).toBeNull();
    const book = new TicketBook();
    expect(book.take(r.ticket.id, r.ticket.expiry, NOW)).toBe(true);
    expect(book.take(r.ticket.id, r.ticket.expiry, NOW + 1)).toBe(false);
  });

  it('refuses a forged, another player\'s, misdirected or expired ticket, naming which', () => {
    const text = issueTicket(KEY, fields);
    expect(openTicket(OTHER, text, at)).toEqual({ ok: false, reason: 'forged' });
    expect(openTicket(KEY, issueTicket(OTHER, fields), at)).toEqual({ ok: false, reason: 'forged' });
    // The fields changed under the MAC (a later expiry written in): forged.
    const raw = Buffer.from(text, 'base64url');
    raw.writeUIntBE(fields.expiry + 60_000, 17, 6);
    expect(openTicket(KEY, raw.toString('base64url'), at)).toEqual({ ok: false, reason: 'forged' });
    expect(openTicket(KEY, text, { ...at, name: 'Blue Max' })).toEqual({ ok: false, reason: 'not-yours' });
    expect(openTicket(KEY, text, { ...at, server: 'Gamma:7002' })).toEqual({ ok: false, reason: 'misdirected' });
    expect(checkTicket({ ...fields, system: 'Kappa' }, here)).toBe('misdirected');
    expect(checkTicket(fields, { ...here, now: fields.expiry + 1 })).toBe('expired');
    expect(openTicket(KEY, 'not a ticket', at)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('no mutated or random text throws, and none but the ticket itself opens', () => {
    const text = issueTicket(KEY, fields);
    let refused = 0;
    fc.assert(
      fc.property(fc.nat({ max: text.length - 1 }), fc.string({ minLength: 1, maxLength: 3 }), fc.nat({ max: text.length }), (i, insert, cut) => {
        const mutated = (text.slice(0, i) + insert + text.slice(i + 1)).slice(0, Math.max(i + 1, cut));
        const r = openTicket(KEY, mutated, at);
        if (mutated !== text) {
          expect(r.ok).toBe(false);
          refused += 1;
        }
      }),
      { numRuns: 10_000 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (s) => void openTicket(KEY, s, at)), { numRuns: 5_000 });
    console.log(`jump tickets: ${refused} mutated tickets of 10,000 refused, 5,000 random texts read without a throw`);
  });

  it('ids are fresh; the book forgets expired ids and holds at most its size', () => {
    expect(new Set(Array.from({ length: 1000 }, () => ticketId())).size).toBe(1000);
    const book = new TicketBook(3);
    for (const id of ['a', 'b', 'c', 'd']) expect(book.take(id, NOW + 100, NOW)).toBe(true);
    // 'a' went to make room; an id past its expiry is forgotten (it would be refused as expired anyway).
    expect(book.take('a', NOW + 100, NOW)).toBe(true);
    expect(book.take('d', NOW + 100, NOW)).toBe(false);
  });
});

describe('the carried state', () => {
  it('opens as it was sealed, for its ticket only; changed on its way it is refused', () => {
    const sealed = sealCarried(KEY, fields.id, carried);
    expect(sealed.length).toBeLessThan(250);
    expect(openCarried(KEY, fields.id, sealed)).toEqual({ ok: true, carried });
    expect(openCarried(KEY, 'fedcba9876543210', sealed)).toEqual({ ok: false, reason: 'forged' });
    expect(openCarried(OTHER, fields.id, sealed)).toEqual({ ok: false, reason: 'forged' });
    // More missiles under the same MAC: forged.
    const [, sig] = sealed.split('.');
    const more = Buffer.from(JSON.stringify(['Sol', 61.5, 30, 99, 0, 118.25, 4, 1, 2])).toString('base64url');
    expect(openCarried(KEY, fields.id, `${more}.${sig}`)).toEqual({ ok: false, reason: 'forged' });
    // Out of range even with a good MAC: malformed.
    expect(openCarried(KEY, fields.id, sealCarried(KEY, fields.id, { ...carried, energy: 500 }))).toEqual({ ok: false, reason: 'malformed' });
    fc.assert(fc.property(fc.string({ maxLength: 450 }), (s) => void openCarried(KEY, fields.id, s)), { numRuns: 5_000 });
  });
});

describe('universe key files', () => {
  it('takes 64 or more hex digits around comments and blank lines; refuses anything else with a reason', () => {
    const hex = 'ab'.repeat(32);
    expect(parseUniverseKey(`# the key\n\n${hex}\n`)).toEqual({ ok: true, key: Buffer.from(hex, 'hex') });
    expect(parseUniverseKey('')).toMatchObject({ ok: false, error: expect.stringContaining('no key') });
    expect(parseUniverseKey('ab'.repeat(16))).toMatchObject({ ok: false, error: expect.stringContaining('at least 32') });
    expect(parseUniverseKey('xyz'.repeat(30))).toMatchObject({ ok: false, error: expect.stringContaining('hex digits') });
  });
});
