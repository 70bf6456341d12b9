import { describe, expect, it } from 'vitest';
import { Connection, Connections } from '../../../src/shared/net/connection';
import { REPLAY_WINDOW, sequenceStart } from '../../../src/shared/net/replayWindow';

describe('a connection: the one place message ids are written and read', () => {
  it('numbers its datagrams one after another from the wall-clock second, across the u32 wrap', () => {
    const c = new Connection(0xffff_fffe);
    expect([c.stamp(), c.stamp(), c.stamp()]).toEqual([0xffff_fffe, 0xffff_ffff, 0]);
    const table = new Connections(() => 100);
    expect(table.open('a').stamp()).toBe(sequenceStart(100));
  });

  it('takes each received number once: newest, late with how far behind, then replayed or too old', () => {
    const c = new Connection(1);
    expect(c.admit(1000)).toEqual({ verdict: 'newest', behind: 0 });
    expect(c.admit(1003)).toEqual({ verdict: 'newest', behind: 0 });
    expect(c.admit(1001)).toEqual({ verdict: 'late', behind: 2 });
    expect(c.admit(1001)).toEqual({ verdict: 'replayed' });
    expect(c.admit(1003 - REPLAY_WINDOW)).toEqual({ verdict: 'too-old' });
    expect(c.ahead(1002)).toBe(false);
    expect(c.ahead(1004)).toBe(true);
    expect(c.newestTaken).toBe(1003);
  });

  it('a node that left and came back is heard afresh, while our own numbers go on and never back', () => {
    const table = new Connections(() => 7);
    const c = table.open('peer');
    c.admit(500);
    const before = [c.stamp(), c.stamp()];
    c.forgetReceived();
    expect(c.admit(10)).toEqual({ verdict: 'newest', behind: 0 });
    expect(table.open('peer')).toBe(c);
    expect(c.stamp()).toBe(((before[1] ?? 0) + 1) >>> 0);
  });

  it('counts datagrams and bytes each way', () => {
    const c = new Connection(0);
    c.received(40);
    c.received(60);
    c.sent(23);
    expect(c.counters).toEqual({ datagramsIn: 2, bytesIn: 100, datagramsOut: 1, bytesOut: 23 });
  });

  it('a table at its bound starts afresh instead of growing without end; close forgets one', () => {
    const table = new Connections<number>(() => 1, 3);
    for (const k of [1, 2, 3]) table.open(k);
    expect(table.get(1)).toBeDefined();
    table.open(4);
    expect([...table.entries()].map(([k]) => k)).toEqual([4]);
    table.close(4);
    expect(table.get(4)).toBeUndefined();
  });
});
