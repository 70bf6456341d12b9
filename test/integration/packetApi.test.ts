import { describe, it, expect, afterEach } from 'vitest';
import dgram from 'node:dgram';
import {
  CLIENT_PORT_FALLBACK_RANGE,
  MAX_DATAGRAM_BYTES,
  PacketApiError,
  type NodeAddress,
  type PacketApi,
  type ReceivedPacket,
} from '../../src/shared/net/packetApi';
import { UdpPacketApi } from '../../src/node/packet/udp';
import { Udp6PacketApi } from '../../src/node/packet/udp6';
import { freeUdpPorts, P2P_PORT_SPAN } from '../support/freePort';
import { waitFor as until } from '../support/waitFor';

/** A random high base port per call, so parallel runs on one machine rarely collide. */
const basePort = (): Promise<number> => freeUdpPorts(P2P_PORT_SPAN);

const opened: PacketApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((api) => api.kill()));
});

/** Inits on loopback-safe settings: no multicast joins on real interfaces. */
async function start<T extends PacketApi>(api: T, port: number, bindAddress?: string): Promise<T> {
  opened.push(api);
  await api.init(bindAddress === undefined ? { port, lanInterfaces: [] } : { port, bindAddress, lanInterfaces: [] });
  return api;
}

/** Collects every packet an API receives. */
function inbox(api: PacketApi): ReceivedPacket[] {
  const got: ReceivedPacket[] = [];
  api.onPacket((p) => got.push(p));
  return got;
}

const waitFor = (check: () => boolean, what: string, ms = 2000): Promise<true> => until(what, check, ms, 5);

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

function errorOf(fn: () => unknown): PacketApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PacketApiError);
    return err as PacketApiError;
  }
  throw new Error('expected a PacketApiError');
}

describe.each([
  { name: 'udp', make: () => new UdpPacketApi(), loopback: '127.0.0.1', shown: (p: number) => `127.0.0.1:${p}` },
  { name: 'udp6', make: () => new Udp6PacketApi(), loopback: '::1', shown: (p: number) => `[::1]:${p}` },
])('$name packet API on loopback', ({ make, shown }) => {
  it('exchanges datagrams both ways between two instances addressed via localhost', async () => {
    const a = await start(make(), 0);
    const b = await start(make(), 0);
    const toA = inbox(a);
    const toB = inbox(b);
    a.send(a.resolve('localhost', b.localPort()), bytes('ping'));
    await waitFor(() => toB.length === 1, 'ping');
    const ping = toB[0]!;
    expect(text(ping.data)).toBe('ping');
    expect(b.nodeToString(ping.from)).toBe(shown(a.localPort()));
    // Reply to the sender exactly as received: the node address round-trips.
    b.send(ping.from, bytes('pong'));
    await waitFor(() => toA.length === 1, 'pong');
    expect(text(toA[0]!.data)).toBe('pong');
    expect(a.nodeEquals(toA[0]!.from, a.resolve('localhost', b.localPort()))).toBe(true);
    expect(a.stats()).toMatchObject({ packetsIn: 1, packetsOut: 1, bytesIn: 4, bytesOut: 4 });
  });

  it('refuses a 513-byte datagram with a clear error and delivers a 512-byte one', async () => {
    const a = await start(make(), 0);
    const b = await start(make(), 0);
    const got = inbox(b);
    const to = a.resolve('localhost', b.localPort());
    const err = errorOf(() => a.send(to, new Uint8Array(MAX_DATAGRAM_BYTES + 1)));
    expect(err.code).toBe('too-large');
    expect(err.message).toMatch(/513 bytes exceeds the 512-byte limit/);
    expect(errorOf(() => a.broadcast(b.localPort(), new Uint8Array(MAX_DATAGRAM_BYTES + 1))).code).toBe('too-large');
    a.send(to, new Uint8Array(MAX_DATAGRAM_BYTES).fill(7));
    await waitFor(() => got.length === 1, '512-byte datagram');
    expect(got[0]!.data.byteLength).toBe(512);
    expect(got[0]!.data.every((x) => x === 7)).toBe(true);
  });

  it('gives two instances asking for the same port that port and the next one', async () => {
    const port = await basePort();
    const a = await start(make(), port);
    const b = await start(make(), port);
    expect(a.localPort()).toBe(port);
    expect(b.localPort()).toBe(port + 1);
  });

  it('fails with bind-failed naming the range when every port of it is taken', async () => {
    const port = await basePort();
    const holders = [];
    for (let i = 0; i <= CLIENT_PORT_FALLBACK_RANGE; i++) holders.push(await start(make(), port + i));
    expect(holders.map((h) => h.localPort())).toEqual(holders.map((_, i) => port + i));
    const late = make();
    opened.push(late);
    await expect(late.init({ port })).rejects.toMatchObject({
      code: 'bind-failed',
      message: expect.stringContaining(`ports ${port}-${port + CLIENT_PORT_FALLBACK_RANGE}: all in use`),
    });
    expect(late.active).toBe(false);
  });

  it('survives garbage, oversized datagrams and a throwing handler, counting each', async () => {
    const api = await start(make(), 0);
    const raw = api.name === 'udp' ? dgram.createSocket('udp4') : dgram.createSocket({ type: 'udp6', ipv6Only: true });
    const host = api.name === 'udp' ? '127.0.0.1' : '::1';
    const sendRaw = (buf: Buffer): Promise<void> =>
      new Promise((resolve, reject) => raw.send(buf, api.localPort(), host, (e) => (e ? reject(e) : resolve())));
    try {
      const got: ReceivedPacket[] = [];
      let throwNext = true;
      api.onPacket((p) => {
        if (throwNext) {
          throwNext = false;
          throw new Error('handler bug');
        }
        got.push(p);
      });
      await sendRaw(Buffer.alloc(1400, 0xff)); // over the limit: dropped before the handler
      await sendRaw(Buffer.from([0x00, 0xde, 0xad])); // reaches the handler, which throws
      await sendRaw(Buffer.from([0xbe, 0xef])); // still delivered afterwards
      await waitFor(() => got.length === 1, 'delivery after the throwing handler');
      expect([...got[0]!.data]).toEqual([0xbe, 0xef]);
      expect(api.stats().drops).toEqual({ 'too-large': 1, 'handler-threw': 1 });
      expect(api.stats().packetsIn).toBe(2);
      expect(api.active).toBe(true);
    } finally {
      await new Promise<void>((r) => raw.close(() => r()));
    }
  });

  it('can be killed twice, refuses sends when not initialised, and inits again afterwards', async () => {
    const api = make();
    opened.push(api);
    const err = errorOf(() => api.send(api.resolve('localhost', 9), bytes('x')));
    expect(err.code).toBe('not-initialised');
    await api.init({ port: 0 });
    await api.kill();
    await api.kill();
    expect(api.active).toBe(false);
    expect(errorOf(() => api.localPort()).code).toBe('not-initialised');
    await api.init({ port: 0 });
    const peer = await start(make(), 0);
    const got = inbox(peer);
    api.send(api.resolve('localhost', peer.localPort()), bytes('again'));
    await waitFor(() => got.length === 1, 'datagram after re-init');
  });

  it('lets the datagrams sent just before a kill leave before the socket closes (a goodbye on a switch)', async () => {
    const api = await start(make(), 0);
    const peer = await start(make(), 0);
    const got = inbox(peer);
    for (const word of ['leaving', 'bye']) api.send(api.resolve('localhost', peer.localPort()), bytes(word));
    await api.kill();
    await waitFor(() => got.length === 2, 'both datagrams');
    expect(got.map((p) => text(p.data))).toEqual(['leaving', 'bye']);
  });
});

describe('node addresses', () => {
  it('compare equal for the same sender and never across packet APIs or for forgeries', async () => {
    const v4 = await start(new UdpPacketApi(), 0);
    const v6 = await start(new Udp6PacketApi(), 0);
    const sender = await start(new UdpPacketApi(), 0);
    const got = inbox(v4);
    const to = sender.resolve('localhost', v4.localPort());
    sender.send(to, bytes('1'));
    sender.send(to, bytes('2'));
    await waitFor(() => got.length === 2, 'two datagrams');
    const [first, second] = [got[0]!.from, got[1]!.from];
    expect(v4.nodeEquals(first, second)).toBe(true);
    expect(v4.nodeKey(first)).toBe(v4.nodeKey(second));
    expect(v4.nodeEquals(first, v4.resolve('127.0.0.1', sender.localPort()))).toBe(true);
    expect(v4.nodeEquals(first, v4.resolve('127.0.0.1', sender.localPort() + 1))).toBe(false);

    const v6node = v6.resolve('::1', sender.localPort());
    expect(v4.nodeEquals(first, v6node)).toBe(false);
    expect(v6.nodeEquals(v6node, first)).toBe(false);
    expect(() => v6.nodeKey(first)).toThrow(PacketApiError);
    expect(errorOf(() => v6.send(first, bytes('x'))).code).toBe('bad-address');
    const forged = { family: 'udp4', address: '127.0.0.1', port: sender.localPort() } as unknown as NodeAddress;
    expect(v4.nodeEquals(first, forged)).toBe(false);
    expect(v4.nodeEquals(forged, forged)).toBe(false);
    expect(v4.nodeToString(forged)).toBe('<not a udp address>');
  });

  it('resolves localhost per family, canonicalises IPv6 text and rejects garbage as bad-address', () => {
    const v4 = new UdpPacketApi();
    const v6 = new Udp6PacketApi();
    expect(v4.nodeToString(v4.resolve('localhost', 6526))).toBe('127.0.0.1:6526');
    expect(v6.nodeToString(v6.resolve('LOCALHOST', 6526))).toBe('[::1]:6526');
    expect(v6.nodeEquals(v6.resolve('[0:0:0:0:0:0:0:1]', 5), v6.resolve('::1', 5))).toBe(true);
    expect(v6.nodeToString(v6.resolve('FE80::1%eth0', 5))).toBe('[fe80::1%eth0]:5');
    for (const [api, host, port] of [
      [v4, 'not an address', 6526],
      [v4, '::1', 6526],
      [v4, '127.0.0.1', 0],
      [v4, '127.0.0.1', 70000],
      [v6, '127.0.0.1', 6526],
      [v6, '::ffff:127.0.0.1', 6526],
      [v6, 'fe80::1%bad scope', 6526],
      [v6, 'example.com', 6526],
    ] as const) {
      expect(errorOf(() => api.resolve(host, port)).code, `${api.name} ${host} ${port}`).toBe('bad-address');
    }
  });
});

describe('LAN broadcast on loopback', () => {
  // The loopback broadcast address keeps test traffic off the machine's real
  // interfaces; udp6 multicast is exercised on the network-namespace LAN.
  it('udp: a broadcast reaches another instance on the same port range', async () => {
    const port = await basePort();
    const listener = await start(new UdpPacketApi(), port);
    const sender = new UdpPacketApi();
    await sender.init({ port, broadcastAddress: '127.255.255.255' }); // falls back to port + 1
    opened.push(sender);
    expect(sender.localPort()).toBe(port + 1);
    const got = inbox(listener);
    sender.broadcast(port, bytes('anyone there?'));
    await waitFor(() => got.length === 1, 'broadcast datagram');
    expect(text(got[0]!.data)).toBe('anyone there?');
    expect(listener.nodeToString(got[0]!.from)).toBe(`127.0.0.1:${sender.localPort()}`);
    // With a directed broadcast address, the node announces the address peers see.
    expect(sender.nodeToString(sender.localNode())).toBe(`127.0.0.1:${sender.localPort()}`);
    expect(sender.stats().drops).toEqual({});
  });

  it('udp6: broadcast with no multicast interface joined sends nothing and throws nothing', async () => {
    const sender = new Udp6PacketApi();
    await sender.init({ port: await basePort(), lanInterfaces: [] });
    opened.push(sender);
    expect(sender.multicastJoins()).toEqual([]);
    expect(() => sender.broadcast(6526, bytes('x'))).not.toThrow();
    expect(sender.stats().packetsOut).toBe(0);
  });
});
