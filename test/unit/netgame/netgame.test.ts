/**
 * Netgame (Purple Martians' input sync with state correction) on a simulated
 * network: a real NetgameServer and real clients, 100 ± 20 ms round trip and
 * 5 % loss, on a virtual clock. Every client steps to exactly the server's
 * state, control changes arrive in time and are applied as the pilots gave
 * them, and a corrupted client is put right by the next state difference.
 */
import { describe, expect, it } from 'vitest';
import { NetgameSim } from '../../support/netgameSim';
import { quantiseInput, sameFrameInput } from '../../../src/shared/lockstep/input';
import type { FrameInput } from '../../../src/shared/wire/types';
import { MoveKind } from '../../../src/shared/netgame/gameMoves';

describe('netgame on a simulated network (100 ± 20 ms round trip, 5 % loss)', () => {
  it('every client steps to the server\'s state, fewer than 1 % of control changes are late, and every change is applied as given', () => {
    const sim = new NetgameSim({ clients: 4, seed: 3, latencyMs: 50, jitterMs: 10, lossPct: 5 });
    // What each pilot gave (quantised, each change once) and what the server applied for its slot.
    const given = sim.clients.map(() => [] as FrameInput[]);
    const applied = sim.clients.map(() => [] as FrameInput[]);
    const note = (list: FrameInput[], q: FrameInput) => {
      const last = list[list.length - 1];
      if (!last || !sameFrameInput(last, q)) list.push(q);
    };
    sim.onServerFrame = (moves) => {
      for (const m of moves) if (m.kind === MoveKind.Input && m.slot >= 1) note(applied[m.slot - 1] as FrameInput[], m.input);
    };
    sim.onPilot = (slot, input) => note(given[slot - 1] as FrameInput[], quantiseInput(input));
    sim.runUntil(30_000);

    expect(sim.mismatches).toEqual([]);
    const clients = [...sim.server.clients.values()];
    const changes = clients.reduce((n, c) => n + c.changes + c.late, 0);
    const late = clients.reduce((n, c) => n + c.late, 0);
    console.log(
      `30 s, 4 clients: ${sim.compared} client frames compared with the server's, ${sim.mismatches.length} differing; control changes ${changes}, late ${late} (${((100 * late) / changes).toFixed(2)} %); control leads ${clients.map((c) => c.lead).join(', ')} frames at round trips ${clients.map((c) => Math.round(c.rttMs ?? 0)).join(', ')} ms; corrections ${sim.clients.map((c) => c.stats().corrections).join(', ')}`,
    );
    expect(sim.compared).toBeGreaterThan(4 * 30 * 40 * 0.5);
    expect(late / changes).toBeLessThan(0.01);
    // Nothing drifted, so no state difference had to correct anything.
    for (const c of sim.clients) expect(c.stats().corrections).toBe(0);
    // The ships flew as their pilots steered: the server applied each pilot's changes, in order (the last may still be on its way).
    for (let i = 0; i < 4; i++) {
      const g = given[i] as FrameInput[];
      const a = applied[i] as FrameInput[];
      expect(g.length).toBeGreaterThan(20);
      expect(a.length).toBeGreaterThanOrEqual(g.length - 1);
      expect(a).toEqual(g.slice(0, a.length));
    }
  });

  it('a client whose state is corrupted is put right by the next state difference', () => {
    const sim = new NetgameSim({ clients: 3, seed: 5, latencyMs: 50, jitterMs: 10, lossPct: 5 });
    sim.runUntil(5_000);
    const client = sim.clients[1];
    const at = client?.state?.world.tick ?? 0;
    sim.corrupt(2, (s) => ({ ...s, world: { ...s.world, ships: s.world.ships.map((x) => (x.slot === 2 ? { ...x, pos: { ...x.pos, y: x.pos.y + 3 } } : x)) } }));
    sim.runUntil(8_000);
    const fixed = sim.notices.find((n) => n.slot === 2 && n.notice.kind === 'corrected');
    expect(fixed).toBeDefined();
    const tookFrames = Math.round((fixed?.at ?? 0) / 25) - Math.round(5_000 / 25);
    console.log(`client 2 corrupted at its frame ${at}: corrected ${tookFrames} frames later (${Math.round((fixed?.at ?? 0) - 5_000)} ms), by the state difference for frame ${fixed?.notice.kind === 'corrected' ? fixed.notice.frame : '?'}`);
    // The next difference: the server sends one every 20 frames; it then takes half a round trip and its chunks.
    expect(tookFrames).toBeLessThanOrEqual(20 + 8);
    expect(client?.stats().corrections).toBe(1);
    // And from then on it steps the server's states again.
    expect(sim.mismatches).toEqual([]);
  });
});
