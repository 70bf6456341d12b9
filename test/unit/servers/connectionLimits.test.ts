import { describe, expect, it } from 'vitest';
import { ConnectionTable, DEFAULT_HTTP_CAPS, DEFAULT_LINE_CAPS, HTTP_SMALL_SOURCE, SMALL_SOURCE } from '../../../src/node/servers/common/connectionLimits';
import { addressKey as sourceKey } from '../../../src/node/servers/common/addressKey';

describe('connection limits', () => {
  it('counts IPv4 by address and IPv6 by /64 (IPv4-mapped unwrapped)', () => {
    expect(sourceKey('192.0.2.7')).toBe('192.0.2.7');
    expect(sourceKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(sourceKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('one source never takes more than its cap, and never the places kept for new sources', () => {
    const t = new ConnectionTable({ max: 100, perSource: 1000 });
    let a = 0;
    while (t.admit('192.0.2.1') === null) a += 1;
    // Three quarters for a busy source; the rest only for sources holding fewer than SMALL_SOURCE.
    expect(a).toBe(75);
    expect(t.admit('2001:db8:1:2::1')).toBeNull();
    expect(t.admit('2001:db8:1:2::ffff')).toBeNull();
    expect(t.count('2001:db8:1:2::9')).toBe(2);
    for (let i = 0; i < 100; i++) t.admit(`198.51.100.${i}`);
    expect(t.count()).toBe(100);
    expect(t.admit('203.0.113.1')).toBe('too-many-connections');
    t.release('192.0.2.1');
    expect(t.admit('192.0.2.1')).toBe('too-many-connections');
    expect(t.admit('203.0.113.1')).toBeNull();
    expect(SMALL_SOURCE).toBeGreaterThan(1);
  });

  it('status pages: with three busy addresses at their cap and a fourth taking what it may, a fifth still opens 10 connections at once (a browser opens up to 6)', () => {
    const t = new ConnectionTable(DEFAULT_HTTP_CAPS);
    const fill = (address: string, n: number) => Array.from({ length: n }, () => t.admit(address)).filter((r) => r === null).length;
    expect(['192.0.2.2', '192.0.2.3', '192.0.2.4'].map((a) => fill(a, 64))).toEqual([64, 64, 64]);
    expect(fill('192.0.2.5', 64)).toBe(HTTP_SMALL_SOURCE);
    expect(fill('192.0.2.6', 10)).toBe(10);
    // The line servers' newcomers need one connection each: they keep the smaller share.
    const lines = new ConnectionTable({ max: 256, perSource: DEFAULT_LINE_CAPS.perSource });
    for (const a of ['192.0.2.2', '192.0.2.3', '192.0.2.4']) for (let i = 0; i < 64; i++) lines.admit(a);
    expect(Array.from({ length: 10 }, () => lines.admit('192.0.2.6')).filter((r) => r === null)).toHaveLength(SMALL_SOURCE);
  });

  it('the per-source cap holds below the global one, and releases free places', () => {
    const t = new ConnectionTable({ max: 1024, perSource: 64 });
    for (let i = 0; i < 64; i++) expect(t.admit('192.0.2.1')).toBeNull();
    expect(t.admit('192.0.2.1')).toBe('too-many-from-address');
    t.release('192.0.2.1');
    expect(t.admit('192.0.2.1')).toBeNull();
    for (let i = 0; i < 64; i++) t.release('192.0.2.1');
    expect(t.count()).toBe(0);
    t.release('192.0.2.1');
    expect(t.count()).toBe(0);
  });
});
