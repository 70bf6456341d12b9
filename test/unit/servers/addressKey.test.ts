import { describe, expect, it } from 'vitest';
import { addressKey, PerAddress } from '../../../src/node/servers/common/addressKey';

describe('addressKey: what counts as one host for per-address limits', () => {
  it('keeps an IPv4 address and unwraps an IPv4-mapped one', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });
  it('counts IPv6 addresses by their /64', () => {
    expect(addressKey('2001:db8:0:1::7')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:DB8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8:0:2::7')).toBe('2001:db8:0:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
  });
  it('leaves anything else as it is', () => {
    expect(addressKey('?')).toBe('?');
    expect(addressKey('not an address')).toBe('not an address');
  });
  it('PerAddress counts per host and frees on remove', () => {
    const p = new PerAddress(2);
    p.add('2001:db8::1');
    p.add('2001:db8::2');
    expect(p.full('2001:db8::3')).toBe(true);
    expect(p.full('2001:db8:0:1::3')).toBe(false);
    p.remove('2001:db8::1');
    expect(p.full('2001:db8::3')).toBe(false);
    expect(p.count('192.0.2.1')).toBe(0);
  });
});
