/**
 * Strikes, log rationing and the gameserver's UDP source gate: what decides
 * when a misbehaving peer is dropped, blocked or logged, with a virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { ClientGuard, LogThrottle, SourceGuard, StrikeBook, StrikeCounter } from '../../../src/node/servers/common/strikes';
import { SHIP_LIMITS } from '../../../src/shared/game/shipValidation';
import { objectId, PacketType, type Packet, type RemoteEvent } from '../../../src/shared/wire/types';

describe('strike counter', () => {
  it('limit strikes in quick succession drop the peer, with what they were for in the reason', () => {
    const c = new StrikeCounter({ limit: 5, windowMs: 10_000 });
    const verdicts = [0, 1, 2, 3].map((t) => c.add('speed', `speed ${t}`, t));
    expect(verdicts).toEqual([null, null, null, null]);
    const why = c.add('teleport', 'moved 900 units', 4);
    expect(why).toMatch(/^5 strikes within 10 s \(speed ×4, teleport ×1; last: moved 900 units\)$/);
  });

  it('strikes far enough apart fade before they add up: an occasional glitch never drops anyone', () => {
    const c = new StrikeCounter({ limit: 5, windowMs: 10_000 });
    for (let t = 0; t < 600_000; t += 2_100) expect(c.add('speed', 'glitch', t)).toBeNull();
  });

  it('a blatant violation drops at once', () => {
    const c = new StrikeCounter({ limit: 100, windowMs: 10_000 });
    expect(c.add('teleport', 'moved 50000 units', 0, true)).toBe('blatant teleport: moved 50000 units');
  });

  it('a strike book stays within its key limit however many keys strike', () => {
    const book = new StrikeBook({ limit: 3, windowMs: 1000 }, 100);
    for (let i = 0; i < 10_000; i++) book.add(`10.0.${i >> 8}.${i & 255}:1`, 'bad', 'x', i);
    expect(book.size).toBeLessThanOrEqual(100);
    expect(() => new StrikeBook({ limit: 0, windowMs: 1000 })).toThrow(/limit/);
  });
});

describe('log throttle', () => {
  it('one line per key per interval, saying how many were held back; a flood from many keys is capped too', () => {
    const t = new LogThrottle(60_000, 3);
    expect(t.due('a', 0)).toEqual({ suppressed: 0 });
    for (let i = 1; i <= 500; i++) expect(t.due('a', i)).toBeNull();
    expect(t.due('b', 10)).toEqual({ suppressed: 0 });
    expect(t.due('c', 20)).toEqual({ suppressed: 0 });
    // Three lines this minute: the fourth key waits.
    expect(t.due('d', 30)).toBeNull();
    expect(t.due('a', 60_001)).toEqual({ suppressed: 500 });
    expect(t.suppressedTotal).toBe(501);
  });
});

describe('UDP source guard', () => {
  it('lets a source through at its rate, then refuses the excess until it slows down', () => {
    const g = new SourceGuard({ datagramsPerSecond: 100 });
    let passed = 0;
    for (let i = 0; i < 1000; i++) if (g.admit('10.0.0.9:5000', false, 0) === null) passed += 1;
    expect(passed).toBe(200);
    expect(g.admit('10.0.0.9:5000', false, 5)).toBe('rate-limited');
    expect(g.admit('10.0.0.9:5000', false, 1000)).toBeNull();
  });

  it('a flood of fresh sources cannot crowd out joined clients, and memory stays bounded', () => {
    const g = new SourceGuard({ datagramsPerSecond: 100, maxSources: 500 });
    for (let i = 0; i < 20_000; i++) g.admit(`10.1.${i >> 8}.${i & 255}:${i}`, false, 1);
    expect(g.admit('127.0.0.1:6526', true, 1)).toBeNull();
    expect(g.tracked).toBeLessThanOrEqual(500 + 256);
  });

  it('a source that keeps sending what cannot be accepted is blocked for a while, logged once; a join lifts the block', () => {
    const g = new SourceGuard({ datagramsPerSecond: 1000, strikes: { limit: 10, windowMs: 10_000 }, blockMs: 60_000 });
    const logs: boolean[] = [];
    let blockedAt = -1;
    for (let i = 0; i < 10; i++) {
      const o = g.offence('10.0.0.7:4000', '10.0.0.7', 'unknown-token', i);
      logs.push(o.log !== null);
      if (o.blocked) blockedAt = i;
    }
    expect(blockedAt).toBe(9);
    // First offence logged, the others rationed; the block gets its own line.
    expect(logs.filter(Boolean)).toHaveLength(2);
    expect(g.admit('10.0.0.7:4000', false, 100)).toBe('blocked');
    expect(g.admit('10.0.0.7:4001', false, 100)).toBeNull();
    expect(g.admit('10.0.0.7:4000', false, 60_010)).toBeNull();
    for (let i = 0; i < 10; i++) g.offence('10.0.0.7:4000', '10.0.0.7', 'unknown-token', 70_000 + i);
    expect(g.admit('10.0.0.7:4000', false, 70_020)).toBe('blocked');
    g.unblockAddress('10.0.0.7');
    expect(g.admit('10.0.0.7:4000', false, 70_030)).toBeNull();
    expect(g.blocks).toBe(2);
  });
});

describe('client guard', () => {
  const packet = (slot: number, vel: number, events: RemoteEvent[] = []): Packet => ({
    header: {
      type: PacketType.GameState,
      senderSlot: slot,
      messageId: 1,
      gameTime: 0,
      joined: true,
      state: { pos: { x: 0, y: 0, z: 0 }, rot: { x: 0, y: 0, z: 0, w: 1 }, vel: { x: vel, y: 0, z: 0 }, angVel: { x: 0, y: 0, z: 0 }, energy: 100, damage: 0 },
      token: 1,
    },
    events,
  });

  it('corrects an impossible speed in the packet itself (what is relayed) and drops the client once strikes run out', () => {
    const g = new ClientGuard({ x: 0, y: 0, z: 0 }, { limit: 3, windowMs: 10_000 }, 0);
    const p = packet(2, 400);
    const v = g.check(p, true, 0);
    expect(v.violations.map((x) => x.kind)).toEqual(['speed']);
    expect(p.header.state?.vel.x).toBeCloseTo(SHIP_LIMITS.maxSpeed, 9);
    expect(v.kick).toBeNull();
    expect(g.check(packet(2, 400), true, 50).kick).toBeNull();
    expect(g.check(packet(2, 400), true, 100).kick).toMatch(/^3 strikes within 10 s \(speed ×3/);
  });

  it('removes impossible lasers from the packet and keeps the good ones in order', () => {
    const g = new ClientGuard({ x: 0, y: 0, z: 0 }, { limit: 10, windowMs: 10_000 }, 0);
    const good: RemoteEvent = { type: 'createLaser', id: objectId(2, 7), pos: { x: 0, y: 0, z: -8 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 };
    const far: RemoteEvent = { type: 'createLaser', id: objectId(2, 8), pos: { x: 0, y: 0, z: -5000 }, vel: { x: 0, y: 0, z: -600 }, ttl: 40 };
    const chat: RemoteEvent = { type: 'sendText', text: 'hi' };
    const p = packet(2, 10, [good, far, chat]);
    const v = g.check(p, true, 0);
    expect(p.events).toEqual([good, chat]);
    expect(v.violations.map((x) => x.kind)).toEqual(['laser-origin']);
  });

  it('a late packet (not the newest) has its lasers checked but its state left alone', () => {
    const g = new ClientGuard({ x: 0, y: 0, z: 0 }, { limit: 10, windowMs: 10_000 }, 0);
    const p = packet(2, 400);
    expect(g.check(p, false, 0).violations).toEqual([]);
    expect(g.strike('foreign-event', '2 events it may not send', 0, 2)).toBeNull();
  });
});
