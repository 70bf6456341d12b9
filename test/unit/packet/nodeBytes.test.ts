import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UdpPacketApi } from '../../../src/node/packet/udp';
import { Udp6PacketApi } from '../../../src/node/packet/udp6';
import { addressToBytes, bytesToAddress } from '../../../src/node/packet/nodeBytes';
import { compareAddr } from '../../../src/shared/wire/addr';

describe('node addresses in packets', () => {
  const v4 = new UdpPacketApi();
  const v6 = new Udp6PacketApi();

  it('round-trip through bytes for both families', () => {
    for (const [api, host, port] of [
      [v4, '10.231.7.2', 6526],
      [v4, '127.0.0.1', 1],
      [v6, '::1', 6527],
      [v6, '2001:db8::8a2e:370:7334', 65535],
      [v6, 'fe80::fc:ff:fe00:1%eth0', 6526],
    ] as const) {
      const node = api.resolve(host, port);
      const bytes = api.encodeNode(node);
      expect(bytes.length).toBe(api === v4 ? 7 : 19);
      const back = api.decodeNode(bytes, node);
      expect(back && api.nodeEquals(back, node), `${host}`).toBe(true);
    }
  });

  it('a link-local address takes the scope of the node it came from', () => {
    const from = v6.resolve('fe80::1%eth7', 6526);
    const bytes = v6.encodeNode(v6.resolve('fe80::2%eth0', 6600));
    expect(v6.nodeToString(v6.decodeNode(bytes, from)!)).toBe('[fe80::2%eth7]:6600');
  });

  it('refuses the other family, wrong lengths, port 0 and junk', () => {
    expect(v6.decodeNode(v4.encodeNode(v4.resolve('1.2.3.4', 5)))).toBeNull();
    expect(v4.decodeNode(v6.encodeNode(v6.resolve('::1', 5)))).toBeNull();
    expect(v4.decodeNode(new Uint8Array([4, 1, 2, 3, 4, 0, 0]))).toBeNull();
    // Arbitrary bytes never throw: they decode or they are refused.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (b) => {
        v4.decodeNode(b);
        v6.decodeNode(b);
      }),
    );
  });

  it('orders addresses bytewise: family, then address, then port', () => {
    const a = addressToBytes('10.0.0.2', 6526)!;
    const b = addressToBytes('10.0.0.10', 6526)!;
    const c = addressToBytes('10.0.0.10', 6527)!;
    expect(compareAddr(a, b)).toBe(-1);
    expect(compareAddr(c, b)).toBe(1);
    expect(compareAddr(b, addressToBytes('10.0.0.10', 6526)!)).toBe(0);
    expect(bytesToAddress(addressToBytes('::ffff:1.2.3.4', 9)!)).toEqual({ family: 6, address: '0:0:0:0:0:ffff:102:304', port: 9 });
  });
});
