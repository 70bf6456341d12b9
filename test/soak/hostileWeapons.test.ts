/**
 * Cheating with the rules of a match, against a real gameserver process
 * (out/main/server.js): four scripted cheaters play alongside three honest
 * scripted players, and the server's rule guard (src/node/servers/game/ruleGuard.ts)
 * must stop each one — its events not forwarded to the honest player — and
 * strike it, while the honest players collect no strike:
 * (a) missiles without ammunition: more than RULES.missile.startAmmo in one life;
 * (b) mines at ten times the allowed rate;
 * (c) a kill it did not make: its own death credited to a friend who never fired;
 * (d) hits it ignores: parked while an honest shooter's laser bolts (level 3,
 *     at the gun's cooldown) fly straight through it, reporting damage 0.
 * Figures (events dropped, strikes by kind, honest delivery) are printed.
 * The players and their cheats are test/support/hostileRules.ts, which
 * `npm run bench:hostile -- --rule-cheaters` runs too (with a far-pickup
 * cheater and an armed honest player besides); every wait there that runs
 * out is recorded, and none may.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RULES } from '../../src/shared/game/rules';
import { runRuleCheaters } from '../support/hostileRules';
import { describeRuleCheaters } from '../support/hostileRuleFigures';
import { serverEntry, startServer, stopServers } from '../support/serverProcess';

afterEach(() => {
  stopServers();
});

describe('cheating with weapons, kills and hits on a gameserver', () => {
  it('missiles without ammo, mines at 10x the rate, a kill credited to a friend, hits ignored: each stopped and struck, honest players never', { timeout: 120_000 }, async () => {
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npx electron-vite build" first`);
    const server = await startServer(['gameserver', '--name', 'Rules', '--port', '0', '--udp-port', '0', '--http-port', '0']);
    const r = await runRuleCheaters(server);
    console.log(describeRuleCheaters(r));
    // Every wait for what the server reports ended in time (the strikes, the mine layer's removal).
    expect(r.timeouts).toEqual([]);
    const { final } = r;
    const honestNames = ['honest', 'honest-shooter', 'honest-friend'];

    // Each cheat stopped: the honest player got what the rules allow, no more.
    expect(r.missiles.received).toBe(RULES.missile.startAmmo);
    expect(r.mines.received).toBe(RULES.mine.startAmmo);
    expect(r.claim.received).toBe(0);
    // …and struck.
    expect(final.strikes['missile-ammo']).toBeGreaterThanOrEqual(3);
    expect(final.strikes['false-kill-claim']).toBe(1);
    expect(final.strikes['ignores-hits']).toBeGreaterThanOrEqual(2);
    // The mine layer ran out of strikes and was dropped.
    expect(r.mines.removed).toMatch(/strikes within .*mine-/);
    // Honest players: not one strike, and the shooter's bolts all forwarded (none judged a cheat).
    for (const p of final.players.filter((x) => honestNames.includes(x.name))) expect(p.strikes, p.name).toBe(0);
    expect(final.players.filter((x) => honestNames.includes(x.name))).toHaveLength(3);
    expect(r.bolts.received).toBeGreaterThan(0.9 * (r.bolts.sent - 3 * 4));
    expect(r.shooterStates.received / r.shooterStates.sent).toBeGreaterThan(0.9);
  });
});
