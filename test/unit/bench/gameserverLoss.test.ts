/**
 * bench:gameserver's loss reconciliation (bench/gameserverLoss.ts): each lost
 * state goes to the one counter that accounts for it, no counter explains
 * more states than it counted, and what nothing covers is unexplained.
 */
import { describe, expect, it } from 'vitest';
import { reconcile, type ClientTally, type LostState, type ServerTally } from '../../../bench/gameserverLoss';

const client = (slot: number, o: Partial<ClientTally> = {}): ClientTally => ({ slot, name: `bot${slot}`, datagramsSent: 100, datagramsReceived: 100, statesReceived: 200, idGaps: 0, removed: null, ...o });
const player = (slot: number, statesSent = 200, statesFiltered = 0) => ({ slot, name: `bot${slot}`, packetsIn: 100, statesSent, statesFiltered, datagramsSent: 100 });
const server = (o: Partial<ServerTally> = {}): ServerTally => ({ maxPlayers: 16, packetsIn: 300, drops: {}, eventDrops: {}, strikes: {}, kicked: 0, players: [player(0), player(1), player(2)], ...o });
const clients = [client(0), client(1), client(2)];
const nobody = () => false;
const everybody = () => true;

describe('reconcile', () => {
  it('nothing lost: every line says 0', () => {
    const r = reconcile([], 1000, nobody, clients, server());
    expect(r).toMatchObject({ lost: 0, linkDown: 0, linkUp: 0, filtered: 0, unexplained: 0 });
    expect(r.lines.join('\n')).toContain('unexplained: 0 (0.00 %)');
  });

  it('a state others got is lost on the link to a receiver the server relayed more states to than it read; beyond that, unexplained', () => {
    const lost: LostState[] = [
      { receiver: 1, sender: 0, id: 10 },
      { receiver: 1, sender: 0, id: 11 },
    ];
    const r = reconcile(lost, 1000, everybody, [client(0), client(1, { statesReceived: 199 }), client(2)], server());
    expect(r.linkDown).toBe(1);
    expect(r.unexplained).toBe(1);
  });

  it('filtered states explain a receiver the server skipped', () => {
    const r = reconcile([{ receiver: 2, sender: 0, id: 5 }], 1000, everybody, clients, server({ players: [player(0), player(1), player(2, 200, 3)] }));
    expect(r.filtered).toBe(1);
    expect(r.unexplained).toBe(0);
  });

  it('a state nobody got is a server drop by reason (once per state, every receiver of it), then upstream link loss, then unexplained', () => {
    const lost: LostState[] = [
      { receiver: 1, sender: 0, id: 1 },
      { receiver: 2, sender: 0, id: 1 },
      { receiver: 1, sender: 0, id: 2 },
      { receiver: 2, sender: 0, id: 2 },
      { receiver: 1, sender: 0, id: 3 },
    ];
    // The clients sent 301 datagrams, the server read 300: one lost on the way up; it dropped one as rate-limited.
    const r = reconcile(lost, 1000, nobody, [client(0, { datagramsSent: 101 }), client(1), client(2)], server({ drops: { 'rate-limited': 1 } }));
    expect(r.dropped).toEqual(new Map([['rate-limited', 2]]));
    expect(r.linkUp).toBe(2);
    expect(r.unexplained).toBe(1);
    expect(r.lines.join('\n')).toContain('dropped by the server: rate-limited 2');
  });

  it("a removed seat's losses go to its removal, grouped by the reason's head, with the details listed", () => {
    const why = 'removed: dropped for bad data: 10 strikes within 10 s (laser-origin ×18; last: laser 590 units from its ship (at most 408))';
    const r = reconcile([{ receiver: 1, sender: 2, id: 7 }, { receiver: 2, sender: 1, id: 8 }], 1000, everybody, [client(0), client(1), client(2, { removed: why })], server({ kicked: 1, players: [player(0), player(1)] }));
    expect(r.removed).toEqual(new Map([['removed: dropped for bad data: 10 strikes within 10 s', 2]]));
    expect(r.unexplained).toBe(0);
    expect(r.lines.join('\n')).toContain(`bot2: ${why}`);
  });
});
