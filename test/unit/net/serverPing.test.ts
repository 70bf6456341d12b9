/**
 * Ping by unicast discovery, on a virtual clock with an in-memory transport:
 * which answers count (nonce and source), retries, unreachable servers, the
 * bound on servers asked at once, and hostile datagrams.
 */
import { describe, expect, it } from 'vitest';
import { pingServers, canonicalAddress, type PingTarget, type PingTransport } from '../../../src/node/net/serverPing';
import { encodeAnnouncement, parseDiscoveryRequest } from '../../../src/shared/servers/lanDiscovery';
import { VirtualClock } from '../../support/virtualClock';

/** A transport that records requests; the test answers them by hand. */
class FakeTransport implements PingTransport {
  sent: { nonce: number; address: string; port: number }[] = [];
  closed = false;
  private handler: (bytes: Uint8Array, from: PingTarget) => void = () => undefined;
  send(bytes: Uint8Array, address: string, port: number): boolean {
    const r = parseDiscoveryRequest(bytes);
    if (!r.ok) throw new Error('not a request');
    this.sent.push({ nonce: r.value.nonce, address, port });
    return true;
  }
  onDatagram(h: (bytes: Uint8Array, from: PingTarget) => void): void {
    this.handler = h;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  deliver(bytes: Uint8Array, from: PingTarget): void {
    this.handler(bytes, from);
  }
  /** The announcement a server named `name` sends for `nonce`. */
  static answer(nonce: number, name = 'Alpha'): Uint8Array {
    return encodeAnnouncement({ nonce, instance: 1, kind: 'slotserver', name, port: 6582, players: 1, maxPlayers: 8, version: '1.0' });
  }
}

const tick = () => new Promise((r) => setImmediate(r));
const A = { address: '192.0.2.1', port: 6523 };
const B = { address: '2001:db8::2', port: 6522 };

describe('pingServers', () => {
  it('measures each server by the answer that echoes its nonce from its own address and port', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    const round = pingServers([A, B], { clock, transport: net });
    expect(net.sent.map((s) => `${s.address} ${s.port}`)).toEqual(['192.0.2.1 6523', '2001:db8::2 6522']);
    const [a, b] = net.sent as unknown as [{ nonce: number }, { nonce: number }];
    expect(a.nonce).not.toBe(b.nonce);
    clock.advance(12);
    // A's nonce from B's address, and from A's address but another port: not A's answer.
    net.deliver(FakeTransport.answer(a.nonce), { address: B.address, port: B.port });
    net.deliver(FakeTransport.answer(a.nonce), { address: A.address, port: 9999 });
    net.deliver(FakeTransport.answer(a.nonce), { address: `::ffff:${A.address}`, port: A.port });
    clock.advance(30);
    net.deliver(FakeTransport.answer(b.nonce, 'Bravo'), { address: '2001:DB8::2%eth0', port: B.port });
    const report = await round;
    expect(report.results.map((r) => [r.pingMs, r.announcement?.name])).toEqual([
      [12, 'Alpha'],
      [42, 'Bravo'],
    ]);
    expect(report.ignored).toEqual({ 'wrong-source': 2 });
    expect(report.requests).toBe(2);
    expect(net.closed).toBe(false);
  });

  it('asks again after the timeout and calls a server that never answers unreachable', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    let settled = false;
    const round = pingServers([A, B], { clock, transport: net, timeoutMs: 500, attempts: 2 }).finally(() => (settled = true));
    clock.advance(500);
    expect(net.sent).toHaveLength(4);
    // The first request's late answer no longer counts; the second's does, timed from the second.
    net.deliver(FakeTransport.answer((net.sent[0] as { nonce: number }).nonce), A);
    clock.advance(20);
    net.deliver(FakeTransport.answer((net.sent[2] as { nonce: number }).nonce), A);
    await tick();
    expect(settled).toBe(false);
    clock.advance(480);
    const report = await round;
    expect(report.results.map((r) => r.pingMs)).toEqual([20, null]);
    expect(report.ignored).toEqual({ 'wrong-nonce': 1 });
    expect(report.requests).toBe(4);
  });

  it('asks at most maxInFlight servers at once, the next as soon as one is done', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    const targets = Array.from({ length: 5 }, (_, i) => ({ address: `192.0.2.${i + 1}`, port: 6523 }));
    const round = pingServers(targets, { clock, transport: net, maxInFlight: 2, attempts: 1, timeoutMs: 100 });
    expect(net.sent.map((s) => s.address)).toEqual(['192.0.2.1', '192.0.2.2']);
    net.deliver(FakeTransport.answer((net.sent[1] as { nonce: number }).nonce), targets[1] as PingTarget);
    expect(net.sent.map((s) => s.address)).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    clock.advance(100);
    expect(net.sent).toHaveLength(5);
    clock.advance(100);
    const report = await round;
    expect(report.results.map((r) => r.pingMs)).toEqual([null, 0, null, null, null]);
  });

  it('counts and ignores whatever else arrives, and ends at once with nothing to ask or only bad targets', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    const round = pingServers([A], { clock, transport: net, attempts: 1 });
    const nonce = (net.sent[0] as { nonce: number }).nonce;
    const good = FakeTransport.answer(nonce);
    for (const junk of [new Uint8Array(0), new TextEncoder().encode('who is asking?'), good.subarray(0, 40), new Uint8Array(5000), Uint8Array.from([...good, 0])]) net.deliver(junk, A);
    const badKind = Uint8Array.from(good);
    badKind[26] = 9;
    net.deliver(badKind, A);
    net.deliver(good, A);
    net.deliver(good, A);
    const report = await round;
    expect(report.results[0]?.pingMs).toBe(0);
    expect(report.ignored).toEqual({ 'not-starlane': 3, 'wrong-length': 2, 'bad-kind': 1, 'wrong-nonce': 1 });
    expect(await pingServers([], { clock, transport: net })).toEqual({ results: [], ignored: {}, requests: 0 });
    const bad = await pingServers([{ address: '', port: 6523 }, { address: '192.0.2.9', port: 0 }], { clock, transport: net });
    expect(bad.results.map((r) => r.pingMs)).toEqual([null, null]);
    expect(bad.requests).toBe(0);
  });

  it('counts a send that fails and lets the timeout end it', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    net.send = () => {
      throw new Error('EHOSTUNREACH');
    };
    const round = pingServers([A], { clock, transport: net, attempts: 1, timeoutMs: 10 });
    clock.advance(10);
    expect(await round).toMatchObject({ results: [{ pingMs: null }], ignored: { 'send-failed': 1 }, requests: 1 });
  });

  it('tells each outcome as it is known, answered or given up, with how many are known of how many (the browser\'s progress)', async () => {
    const clock = new VirtualClock();
    const net = new FakeTransport();
    const told: string[] = [];
    const round = pingServers([A, B], {
      clock,
      transport: net,
      attempts: 1,
      timeoutMs: 100,
      onResult: (r, settled, total) => {
        told.push(`${r.target.address} ${r.pingMs} ${settled}/${total}`);
        throw new Error('a listener in trouble does not stop the round');
      },
    });
    clock.advance(7);
    net.deliver(FakeTransport.answer((net.sent[1] as { nonce: number }).nonce, 'Bravo'), B);
    expect(told).toEqual(['2001:db8::2 7 1/2']);
    clock.advance(93);
    await round;
    expect(told).toEqual(['2001:db8::2 7 1/2', '192.0.2.1 null 2/2']);
  });

  it('compares addresses as datagrams report them', () => {
    expect(canonicalAddress('FE80::1%eth0')).toBe('fe80::1');
    expect(canonicalAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalAddress('192.0.2.1')).toBe('192.0.2.1');
  });
});
