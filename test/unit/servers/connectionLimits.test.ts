import { describe, expect, it } from 'vitest';
import { ConnectionTable, SMALL_SOURCE } from '../../../src/node/servers/common/connectionLimits';
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
