import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Cvar, type CvarDef } from '../../../src/shared/console/cvar';
import { archivedCvarInfo, cvarChecker, cvarInfo } from '../../../src/shared/console/cvarInfo';

const defs: CvarDef[] = [
  { name: 'sensitivity', type: 'float', default: 1, min: 0.1, max: 10, help: 'mouse steering sensitivity\nmore', flags: { archive: true } },
  { name: 'sendfreq', type: 'int', default: 20, min: 5, max: 60, help: 'packets per second', flags: { archive: true } },
  { name: 'netgraph', type: 'bool', default: false, help: 'show the net graph', flags: { archive: true } },
  { name: 'r_quality', type: 'string', default: 'high', allowed: ['low', 'medium', 'high'], help: 'detail', flags: { archive: true } },
  { name: 'net_master', type: 'string', default: 'localhost:6502', maxLength: 64, help: 'masterserver', flags: { archive: true } },
  { name: 'net_fakelag', type: 'int', default: 0, min: 0, max: 2000, help: 'not saved' },
];

describe('cvar descriptions for the page (HostSnapshot.cvars)', () => {
  it('describe type, range or choices, the default as text and the first line of help', () => {
    const [sens, , graph, quality] = defs.map((d) => cvarInfo(new Cvar(d)));
    expect(sens).toEqual({ name: 'sensitivity', type: 'float', default: '1', help: 'mouse steering sensitivity', min: 0.1, max: 10 });
    expect(graph).toEqual({ name: 'netgraph', type: 'bool', default: '0', help: 'show the net graph' });
    expect(quality).toEqual({ name: 'r_quality', type: 'string', default: 'high', help: 'detail', allowed: ['low', 'medium', 'high'] });
  });

  it('list only the archived cvars (the ones a player’s settings hold), in order', () => {
    expect(archivedCvarInfo(defs.map((d) => new Cvar(d))).map((c) => c.name)).toEqual(['sensitivity', 'sendfreq', 'netgraph', 'r_quality', 'net_master']);
  });

  it('a checker built from a description accepts and refuses exactly what the cvar does, with the same line', () => {
    for (const def of defs) {
      const live = new Cvar(def);
      const checker = cvarChecker(cvarInfo(live));
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 70 }), fc.double({ noNaN: false }).map(String), fc.integer({ min: -100, max: 3000 }).map(String), fc.constantFrom('on', 'off', 'LOW', 'Medium', ' 5 ', '1e1', '')), (text) => {
          expect(checker.set(text)).toEqual(live.set(text));
        }),
        { numRuns: 300 },
      );
    }
    expect(cvarChecker(cvarInfo(new Cvar(defs[0]!))).set('50')).toEqual({ ok: false, error: 'sensitivity must be a number from 0.1 to 10 (got 50)' });
  });
});
