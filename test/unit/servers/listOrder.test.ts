import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareListed, inListOrder, type Listed } from '../../../src/shared/servers/listOrder';

describe('server list order', () => {
  it('numbers servers by name (case aside), then kind, then address, whatever order they arrived in', () => {
    const arrived: Listed[] = [
      { name: 'charlie', kind: 'gameserver', address: '10.0.0.3:6581' },
      { name: 'Alpha', kind: 'slotserver', address: '10.0.0.9:6582' },
      { name: 'bravo', kind: 'netgame', address: '10.0.0.2:6583' },
      { name: 'alpha', kind: 'gameserver', address: '10.0.0.1:6581' },
      { name: 'Server 10', kind: 'gameserver', address: '10.0.0.5:6581' },
      { name: 'Server 9', kind: 'gameserver', address: '10.0.0.4:6581' },
    ];
    expect(inListOrder(arrived, (s) => s).map((s) => `${s.name} ${s.kind}`)).toEqual([
      'alpha gameserver',
      'Alpha slotserver',
      'bravo netgame',
      'charlie gameserver',
      'Server 9 gameserver',
      'Server 10 gameserver',
    ]);
  });

  it('gives the same numbers to the same servers in any arrival order', () => {
    const server = fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), kind: fc.constantFrom('slotserver', 'gameserver', 'netgame'), address: fc.ipV4().map((ip) => `${ip}:6581`) });
    fc.assert(
      fc.property(fc.uniqueArray(server, { selector: (s) => s.address, maxLength: 12 }), fc.nat(), (servers, seed) => {
        const shuffled = [...servers].sort((a, b) => ((a.address.length * 31 + seed) % 7) - ((b.address.length * 17 + seed) % 5));
        expect(inListOrder(shuffled, (s) => s)).toEqual(inListOrder(servers, (s) => s));
      }),
    );
    expect(compareListed({ name: 'a', address: '1' }, { name: 'a', address: '1' })).toBe(0);
  });
});
