import { describe, expect, it } from 'vitest';
import { ConditionedPacketApi } from '../../../src/shared/net/conditionedPacketApi';
import { MAX_PENDING_DATAGRAMS } from '../../../src/shared/net/datagramScheduler';
import { NO_CONDITIONS, describeConditions, type LinkConditions } from '../../../src/shared/net/linkConditions';
import {
  MAX_DATAGRAM_BYTES,
  PacketApiError,
  type NodeAddress,
  type PacketApi,
  type PacketApiStats,
  type ReceivedPacket,
} from '../../../src/shared/net/packetApi';
import { VirtualClock } from '../../support/virtualClock';

const node = (key: string): NodeAddress => ({ key }) as unknown as NodeAddress;
const keyOf = (n: NodeAddress): string => {
  const k = (n as unknown as { key?: unknown }).key;
  if (typeof k !== 'string') throw new PacketApiError('fake: not a fake node address', 'bad-address');
  return k;
};

/** A packet API on the virtual clock: records what was sent (with the time), lets the test inject received datagrams. */
class FakeApi implements PacketApi {
  readonly name = 'fake';
  active = true;
  kills = 0;
  inits = 0;
  readonly sent: { to: string; data: Uint8Array; at: number }[] = [];
  private handler: ((p: ReceivedPacket) => void) | null = null;

  constructor(private readonly clock: VirtualClock) {}

  async init(): Promise<void> {
    this.inits++;
    this.active = true;
  }
  async kill(): Promise<void> {
    this.kills++;
    this.active = false;
    this.handler = null;
  }
  localNode(): NodeAddress {
    return node('self');
  }
  localPort(): number {
    return 6526;
  }
  send(to: NodeAddress, data: Uint8Array): void {
    if (!this.active) throw new PacketApiError('fake: packet API not initialised', 'not-initialised');
    if (data.byteLength > MAX_DATAGRAM_BYTES) throw new PacketApiError(`fake: datagram of ${data.byteLength} bytes exceeds the limit`, 'too-large');
    this.sent.push({ to: keyOf(to), data: data.slice(), at: this.clock.now() });
  }
  broadcast(port: number, data: Uint8Array): void {
    this.send(node(`broadcast:${port}`), data);
  }
  onPacket(handler: (p: ReceivedPacket) => void): void {
    this.handler = handler;
  }
  /** A datagram arriving from the network; errors of the handler are swallowed like the real APIs do. */
  inject(from: string, data: Uint8Array): void {
    try {
      this.handler?.({ from: node(from), data });
    } catch {
      // counted by real packet APIs
    }
  }
  resolve(host: string, port: number): NodeAddress {
    return node(`${host}:${port}`);
  }
  nodeEquals(a: NodeAddress, b: NodeAddress): boolean {
    return keyOf(a) === keyOf(b);
  }
  nodeKey(n: NodeAddress): string {
    return keyOf(n);
  }
  nodeToString(n: NodeAddress): string {
    return keyOf(n);
  }
  encodeNode(): Uint8Array {
    return new Uint8Array(7);
  }
  decodeNode(): NodeAddress | null {
    return null;
  }
  stats(): PacketApiStats {
    return { packetsIn: 0, packetsOut: this.sent.length, bytesIn: 0, bytesOut: 0, drops: {} };
  }
}

/** Datagram `i` as 4 bytes, so deliveries can be matched to sends. */
const numbered = (i: number): Uint8Array => Uint8Array.of(i >>> 24, (i >>> 16) & 0xff, (i >>> 8) & 0xff, i & 0xff);
const numberOf = (d: Uint8Array): number => (((d[0] ?? 0) << 24) | ((d[1] ?? 0) << 16) | ((d[2] ?? 0) << 8) | (d[3] ?? 0)) >>> 0;

function setup(conditions: Partial<LinkConditions>, seed = 42) {
  const clock = new VirtualClock();
  const inner = new FakeApi(clock);
  const current: LinkConditions = { ...NO_CONDITIONS, ...conditions };
  const api = new ConditionedPacketApi(inner, { conditions: () => current, seed, timers: clock });
  const received: { n: number; at: number; data: Uint8Array }[] = [];
  api.onPacket((p) => received.push({ n: numberOf(p.data), at: clock.now(), data: p.data }));
  return { clock, inner, api, current, received };
}

const N = 10_000;
const peer = node('peer');

/** Sends N numbered datagrams `spacingMs` apart, then lets every timer run. */
function sendMany(s: ReturnType<typeof setup>, spacingMs = 1): Map<number, number> {
  const sentAt = new Map<number, number>();
  for (let i = 0; i < N; i++) {
    sentAt.set(i, s.clock.now());
    s.api.send(peer, numbered(i));
    s.clock.advance(spacingMs);
  }
  s.clock.advance(10_000);
  return sentAt;
}

/** Injects N numbered datagrams `spacingMs` apart from the network, then lets every timer run. */
function receiveMany(s: ReturnType<typeof setup>, spacingMs = 1): Map<number, number> {
  const arrivedAt = new Map<number, number>();
  for (let i = 0; i < N; i++) {
    arrivedAt.set(i, s.clock.now());
    s.inner.inject('peer', numbered(i));
    s.clock.advance(spacingMs);
  }
  s.clock.advance(10_000);
  return arrivedAt;
}

/** How many datagrams arrived after one sent later than them (i.e. were overtaken). */
function overtaken(order: number[]): number {
  let maxSeen = -1;
  let late = 0;
  for (const n of order) {
    if (n < maxSeen) late++;
    else maxSeen = n;
  }
  return late;
}

describe('link conditioner', () => {
  it('passes datagrams straight through, synchronously and without timers, when every setting is zero', () => {
    const s = setup({});
    s.api.send(peer, Uint8Array.of(1, 2, 3));
    s.api.broadcast(6526, Uint8Array.of(4));
    expect(s.inner.sent.map((x) => [x.to, [...x.data]])).toEqual([
      ['peer', [1, 2, 3]],
      ['broadcast:6526', [4]],
    ]);
    s.inner.inject('peer', Uint8Array.of(9, 9));
    expect(s.received.map((r) => [...r.data])).toEqual([[9, 9]]);
    expect(s.clock.created).toBe(0);
    expect(s.api.traffic()).toEqual({ packetsOut: 2, bytesOut: 4, packetsIn: 1, bytesIn: 2 });
  });

  it('delays every sent datagram by lag ± jitter, spread over the whole range', () => {
    const s = setup({ lagMs: 100, jitterMs: 30 });
    const sentAt = sendMany(s);
    expect(s.inner.sent).toHaveLength(N);
    const delays = s.inner.sent.map((x) => x.at - (sentAt.get(numberOf(x.data)) ?? NaN));
    const mean = delays.reduce((a, b) => a + b, 0) / N;
    console.log(`send delays (lag 100, jitter 30): min ${Math.min(...delays).toFixed(1)} mean ${mean.toFixed(1)} max ${Math.max(...delays).toFixed(1)} ms`);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(70);
    expect(Math.max(...delays)).toBeLessThanOrEqual(130);
    expect(Math.min(...delays)).toBeLessThan(71);
    expect(Math.max(...delays)).toBeGreaterThan(129);
    expect(mean).toBeGreaterThan(99);
    expect(mean).toBeLessThan(101);
  });

  it('delays received datagrams the same way before the handler sees them', () => {
    const s = setup({ lagMs: 150, jitterMs: 20 });
    const arrivedAt = receiveMany(s);
    expect(s.received).toHaveLength(N);
    const delays = s.received.map((r) => r.at - (arrivedAt.get(r.n) ?? NaN));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(130);
    expect(Math.max(...delays)).toBeLessThanOrEqual(170);
  });

  it('never delays below zero when the jitter is larger than the lag', () => {
    const s = setup({ lagMs: 10, jitterMs: 50 });
    const sentAt = sendMany(s);
    const delays = s.inner.sent.map((x) => x.at - (sentAt.get(numberOf(x.data)) ?? NaN));
    expect(Math.min(...delays)).toBe(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(60);
  });

  it.each([
    ['send', sendMany, (s: ReturnType<typeof setup>) => s.inner.sent.length],
    ['receive', receiveMany, (s: ReturnType<typeof setup>) => s.received.length],
  ] as const)('loses about lossPct of the datagrams (%s)', (_dir, run, delivered) => {
    const s = setup({ lossPct: 10 });
    run(s);
    const lossRate = 1 - delivered(s) / N;
    console.log(`loss 10%: measured ${(lossRate * 100).toFixed(2)}% of ${N}`);
    expect(lossRate).toBeGreaterThan(0.09);
    expect(lossRate).toBeLessThan(0.11);
    expect(s.clock.created).toBe(0); // loss alone needs no timer
  });

  it('duplicates about dupPct of the datagrams, each copy with its own delay', () => {
    const s = setup({ dupPct: 5, lagMs: 40, jitterMs: 10 });
    const sentAt = sendMany(s, 2);
    const copies = new Map<number, number[]>();
    for (const x of s.inner.sent) {
      const n = numberOf(x.data);
      copies.set(n, [...(copies.get(n) ?? []), x.at - (sentAt.get(n) ?? NaN)]);
    }
    const doubled = [...copies.values()].filter((d) => d.length === 2);
    const rate = doubled.length / N;
    console.log(`duplicates 5%: measured ${(rate * 100).toFixed(2)}% of ${N}`);
    expect(copies.size).toBe(N);
    expect([...copies.values()].every((d) => d.length <= 2)).toBe(true);
    expect(rate).toBeGreaterThan(0.04);
    expect(rate).toBeLessThan(0.06);
    expect(doubled.filter(([a, b]) => a !== b).length).toBeGreaterThan(doubled.length * 0.9);
  });

  it('holds back about reorderPct of the datagrams so later ones overtake them', () => {
    const s = setup({ reorderPct: 10, lagMs: 50 });
    sendMany(s, 5);
    const late = overtaken(s.inner.sent.map((x) => numberOf(x.data)));
    console.log(`reorder 10%: ${((late / N) * 100).toFixed(2)}% of ${N} overtaken`);
    expect(s.inner.sent).toHaveLength(N);
    expect(late / N).toBeGreaterThan(0.085);
    expect(late / N).toBeLessThan(0.115);
  });

  it('keeps the order with lag alone', () => {
    const s = setup({ lagMs: 80 });
    sendMany(s);
    expect(overtaken(s.inner.sent.map((x) => numberOf(x.data)))).toBe(0);
  });

  it('applies a change of conditions to the very next datagram', () => {
    const s = setup({ lagMs: 200 });
    s.api.send(peer, numbered(1));
    expect(s.inner.sent).toHaveLength(0);
    s.current.lagMs = 0;
    s.api.send(peer, numbered(2));
    expect(s.inner.sent.map((x) => numberOf(x.data))).toEqual([2]);
    s.clock.advance(200);
    expect(s.inner.sent.map((x) => numberOf(x.data))).toEqual([2, 1]);
  });

  it('sends a private copy, so a buffer reused by the caller does not change a delayed datagram', () => {
    const s = setup({ lagMs: 20 });
    const buffer = Uint8Array.of(1, 2, 3);
    s.api.send(peer, buffer);
    buffer.fill(0);
    s.clock.advance(20);
    expect([...(s.inner.sent[0]?.data ?? [])]).toEqual([1, 2, 3]);
  });

  it('refuses a too-large datagram at once with the inner API error, not later in a timer', () => {
    const s = setup({ lagMs: 100, lossPct: 50 });
    for (let i = 0; i < 20; i++) {
      expect(() => s.api.send(peer, new Uint8Array(MAX_DATAGRAM_BYTES + 1))).toThrow(/exceeds the limit/);
      expect(() => s.api.broadcast(6526, new Uint8Array(MAX_DATAGRAM_BYTES + 1))).toThrow(/exceeds the limit/);
    }
    expect(() => s.api.send(node(7 as unknown as string), Uint8Array.of(1))).toThrow(PacketApiError);
    expect(s.clock.created).toBe(0);
  });

  it('kill cancels every waiting datagram in both directions: nothing is sent or delivered afterwards', async () => {
    const s = setup({ lagMs: 200, jitterMs: 50 });
    for (let i = 0; i < 50; i++) {
      s.api.send(peer, numbered(i));
      s.inner.inject('peer', numbered(i));
    }
    expect(s.api.pending()).toBe(100);
    await s.api.kill();
    expect(s.clock.pending).toBe(0);
    s.clock.advance(5000);
    expect(s.inner.sent).toHaveLength(0);
    expect(s.received).toHaveLength(0);
    expect(s.inner.kills).toBe(1);
    expect(s.api.counters().cancelled).toBe(100);
  });

  it('re-initialising (or cancelPending from the owner of the inner API) drops waiting datagrams too', async () => {
    const s = setup({ lagMs: 100 });
    s.api.send(peer, numbered(1));
    await s.api.init({ port: 0 });
    s.api.send(peer, numbered(2));
    s.inner.inject('peer', numbered(3));
    expect(s.api.cancelPending()).toBe(2);
    s.clock.advance(1000);
    expect(s.inner.sent).toHaveLength(0);
    expect(s.received).toHaveLength(0);
    expect(s.clock.pending).toBe(0);
  });

  it('counts a delayed send that fails when its time comes instead of throwing from the timer', async () => {
    const s = setup({ lagMs: 50 });
    s.api.send(peer, numbered(1));
    s.inner.active = false; // the socket went away behind the wrapper's back
    expect(() => s.clock.advance(50)).not.toThrow();
    expect(s.api.counters().sendFailed).toBe(1);
    expect(s.api.traffic().packetsOut).toBe(0);
  });

  it('hands each delayed copy its own bytes and survives a throwing handler', () => {
    const s = setup({ lagMs: 10, dupPct: 100 });
    const seen: number[][] = [];
    let calls = 0;
    s.api.onPacket((p) => {
      seen.push([...p.data]);
      p.data.fill(0xff);
      if (++calls === 1) throw new Error('handler bug');
    });
    s.inner.inject('peer', Uint8Array.of(5, 6));
    expect(() => s.clock.advance(10)).not.toThrow();
    expect(seen).toEqual([
      [5, 6],
      [5, 6],
    ]);
    expect(s.api.counters().handlerThrew).toBe(1);
    expect(s.api.traffic()).toMatchObject({ packetsIn: 1, bytesIn: 2 });
  });

  it('is reproducible: the same seed loses the same datagrams', () => {
    const lost = (seed: number) => {
      const s = setup({ lossPct: 30, jitterMs: 5, lagMs: 5 }, seed);
      for (let i = 0; i < 200; i++) s.api.send(peer, numbered(i));
      s.clock.advance(100);
      return s.inner.sent.map((x) => numberOf(x.data)).join(',');
    };
    expect(lost(7)).toBe(lost(7));
    expect(lost(7)).not.toBe(lost(8));
  });

  it(`drops and counts datagrams beyond ${MAX_PENDING_DATAGRAMS} waiting at once (a flood cannot pile up timers)`, () => {
    const s = setup({ lagMs: 1000 });
    for (let i = 0; i <= MAX_PENDING_DATAGRAMS; i++) s.inner.inject('flood', numbered(i));
    expect(s.api.pending()).toBe(MAX_PENDING_DATAGRAMS);
    expect(s.api.counters().queueFull).toBe(1);
    s.api.cancelPending();
  });

  it('describes the conditions in one console line', () => {
    expect(describeConditions(NO_CONDITIONS)).toBe('none');
    expect(describeConditions({ lagMs: 200, jitterMs: 20, lossPct: 5, dupPct: 1, reorderPct: 2 })).toBe(
      'lag 200 ms ± 20 ms, loss 5%, duplicates 1%, reorder 2%',
    );
    expect(describeConditions({ ...NO_CONDITIONS, lagMs: Number.NaN, lossPct: 500 })).toBe('loss 100%');
  });
});
