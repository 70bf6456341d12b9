import { describe, expect, it } from 'vitest';
import { PING_INTERVAL_MS, PingTable } from '../../../src/shared/net/pingTable';

describe('ping table', () => {
  it('measures the round trip from an echoed stamp and smooths it', () => {
    const t = new PingTable();
    expect(t.pong('a', t.stamp(1000), 1040)).toBe(40);
    expect(t.get('a')).toBe(40);
    t.pong('a', t.stamp(2000), 2080);
    expect(t.get('a')).toBe(50); // 40 + (80 - 40) / 4
  });

  it('handles the u32 clock wrapping between ping and pong', () => {
    const t = new PingTable();
    const sent = 2 ** 32 - 10;
    expect(t.pong('a', t.stamp(sent), sent + 25)).toBe(25);
  });

  it('ignores implausible echoes (from the future or ancient)', () => {
    const t = new PingTable();
    expect(t.pong('a', t.stamp(5000), 4000)).toBeNull();
    expect(t.pong('a', t.stamp(0), 60_000)).toBeNull();
    expect(t.get('a')).toBeUndefined();
  });

  it('is due once per interval and forgets departed peers', () => {
    const t = new PingTable();
    expect(t.due(0)).toBe(true);
    expect(t.due(PING_INTERVAL_MS - 1)).toBe(false);
    expect(t.due(PING_INTERVAL_MS)).toBe(true);
    t.pong('a', 0, 10);
    t.pong('b', 0, 10);
    t.retain(new Set(['b']));
    expect(t.get('a')).toBeUndefined();
    expect(t.get('b')).toBe(10);
  });
});
