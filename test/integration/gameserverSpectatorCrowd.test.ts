/**
 * Spectators on a full gameserver (a real server process on loopback): 16
 * honest players take every seat, then 32 spectators sit down. Each
 * spectator sees every player; the server drops nothing for their sake (no
 * datagram, event or state of a player; nothing of their own either); the
 * 33rd spectator is told the spectator seats are full. The figures (the
 * players' rates without and with spectators, the server's upstream to each
 * spectator) are printed; `npm run bench:spectators` prints them against
 * their targets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { stopServers } from '../support/serverProcess';
import { describeSpectators, runSpectatorScenario } from '../support/spectatorScenario';

afterEach(() => stopServers());

describe('spectators on a full gameserver', () => {
  it('32 spectators see every one of 16 players, the server drops nothing for their sake, and the 33rd is refused', { timeout: 120_000 }, async () => {
    const r = await runSpectatorScenario({ players: 16, spectators: 32, windowStates: 40 });
    for (const line of describeSpectators(r)) console.log(line);
    expect(r.unseen).toBe(0);
    expect(r.drops).toEqual({});
    expect(r.eventDrops).toEqual({ outdated: 0, overflow: 0, foreign: 0, farPickup: 0, spectator: 0 });
    expect(r.statesShed).toBe(0);
    expect(r.spectatorDrops).toEqual({ overflow: 0, outdated: 0 });
    expect(r.oneMore).toBe('spectators full');
    // Breakage bounds only: the players still hear each other with the crowd seated.
    expect(r.playerRate.with.min).toBeGreaterThan(0);
  });
});
