/**
 * Floods from many sources (src/node/servers/common/strikes.ts SourceGuard): every
 * source without a seat shares one budget, checked before anything else, so
 * a flood spread over thousands of source ports cannot take the joined
 * players' datagrams' place — and costs a counter each, not a table entry.
 */
import { describe, expect, it } from 'vitest';
import { SourceGuard } from '../../../src/node/servers/common/strikes';

describe('the strangers\' budget', () => {
  it('200,000 datagrams from 5,000 source ports in one second: the joined players lose nothing, the flood gets its budget and no more', () => {
    const guard = new SourceGuard({ datagramsPerSecond: 200, strangersPerSecond: 2000 });
    const joined = ['10.0.0.1:6526', '10.0.0.2:6526'];
    let honestSent = 0;
    let honestAdmitted = 0;
    let floodAdmitted = 0;
    const flood = 200_000;
    for (let i = 0; i < flood; i++) {
      const now = (i / flood) * 1000;
      if (guard.admit(`203.0.113.${i % 250}:${10_000 + (i % 5000)}`, false, now) === null) floodAdmitted++;
      // Each joined player sends 60 datagrams a second among the flood.
      if (i % Math.floor(flood / 60) === 0) {
        for (const j of joined) {
          honestSent++;
          if (guard.admit(j, true, now) === null) honestAdmitted++;
        }
      }
    }
    console.log(`flood: ${flood} datagrams from 5,000 ports in 1 s; ${floodAdmitted} let through to decoding (budget 2,000/s, bursts of 4,000); joined players: ${honestAdmitted} of ${honestSent}`);
    expect(honestAdmitted).toBe(honestSent);
    expect(floodAdmitted).toBeLessThanOrEqual(4000 + 2000);
  });
});
